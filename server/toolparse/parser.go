// Package toolparse splits a model's streamed output into answer text,
// reasoning (<think>…</think>) and tool calls, in the syntaxes that chat
// templates teach models: Qwen / Hermes <tool_call> JSON blocks, the
// <function=…> XML of Qwen3-Coder and Qwen3.5 inside them, Llama 3.x
// JSON objects and <|python_tag|>, Mistral [TOOL_CALLS], the channels
// of gpt-oss's Harmony format (harmony.go), and Gemma 4's thought channel
// and <|tool_call> calls (gemma4.go).
//
// A Parser takes text deltas in any split and gives the same result as if
// it got the whole text at once: a tail that may begin a marker is held back
// until the next delta tells.
package toolparse

import (
	"encoding/json"
	"strings"
)

// Markers of the syntaxes.
const (
	ThinkOpen     = "<think>"
	ThinkClose    = "</think>"
	HermesOpen    = "<tool_call>"
	HermesClose   = "</tool_call>"
	PythonTag     = "<|python_tag|>"
	MistralCalls  = "[TOOL_CALLS]"
	mistralArgs   = "[ARGS]"
	mistralCallID = "[CALL_ID]"
)

// Options choose what a Parser looks for.
type Options struct {
	Format Format // tool call syntax; FormatNone parses no tool calls
	// Reasoning separates <think>…</think> at the start of the output
	// (FormatHarmony: the analysis channel).
	Reasoning bool
	// InReasoning starts inside the reasoning: the prompt already opened
	// <think> (Qwen3 and DeepSeek-R1 templates do).
	InReasoning bool
	// Schemas are the parameters schemas of the request's tools, by
	// function name: the XML syntax of Qwen3-Coder (qwenxml.go) types its
	// argument values by them.
	Schemas map[string]json.RawMessage
}

// Call is a complete tool call: the function's name and its arguments, a
// JSON text.
type Call struct {
	Name      string
	Arguments string
}

// Delta is what one Feed or Flush produced.
type Delta struct {
	Content   string
	Reasoning string
	Calls     []Call
}

// Empty reports whether d holds nothing.
func (d Delta) Empty() bool { return d.Content == "" && d.Reasoning == "" && len(d.Calls) == 0 }

type mode int

const (
	modeStart     mode = iota // before the first non-space text
	modeReasoning             // inside <think>
	modeContent               // answer text
	modeBlock                 // inside <tool_call>…</tool_call>
	modeToEnd                 // the rest of the output is tool calls
)

// Parser splits one sequence's output. It is not safe for concurrent use.
type Parser struct {
	opt  Options
	mode mode
	buf  string
	trim bool // drop leading white space of the next text (after </think> or a call)
	// endText is what modeToEnd gives back as content when its calls do
	// not parse: the marker that opened it.
	endText string
	h       *harmony // FormatHarmony's parser, which replaces all of the above
	g       *gemma4  // FormatGemma4's parser, likewise
}

// New returns a Parser.
func New(o Options) *Parser {
	p := &Parser{opt: o}
	if o.Format == FormatHarmony {
		p.h = &harmony{reasoning: o.Reasoning}
		return p
	}
	if o.Format == FormatGemma4 {
		p.g = &gemma4{reasoning: o.Reasoning, mode: modeContent}
		return p
	}
	if o.Reasoning && o.InReasoning {
		p.mode, p.trim = modeReasoning, true
	}
	return p
}

// InReasoning reports whether the text fed so far left the parser inside
// the reasoning.
func (p *Parser) InReasoning() bool {
	if p.h != nil {
		return p.h.inBody && p.h.kind == bodyReasoning
	}
	if p.g != nil {
		return p.g.mode == modeReasoning
	}
	return p.mode == modeReasoning
}

// Feed adds a delta of the output and returns what is certain now.
func (p *Parser) Feed(text string) Delta {
	if p.h != nil {
		return p.h.feed(text)
	}
	if p.g != nil {
		return p.g.feed(text)
	}
	p.buf += text
	var d Delta
	for p.step(&d) {
	}
	return d
}

// Flush ends the output and returns everything still held.
func (p *Parser) Flush() Delta {
	if p.h != nil {
		return p.h.flush()
	}
	if p.g != nil {
		return p.g.flush()
	}
	var d Delta
	for p.step(&d) {
	}
	buf := p.buf
	p.buf = ""
	switch p.mode {
	case modeReasoning:
		d.Reasoning += buf
	case modeBlock:
		if cs, ok := p.parseBlock(buf); ok {
			d.Calls = append(d.Calls, cs...)
		} else {
			d.Content += HermesOpen + buf
		}
	case modeToEnd:
		calls, ok := p.parseRest(buf)
		if ok {
			d.Calls = append(d.Calls, calls...)
		} else {
			d.Content += p.endText + buf
		}
	default:
		if !(p.trim && strings.TrimSpace(buf) == "") {
			d.Content += buf
		}
	}
	p.mode = modeContent
	return d
}

// reasoningUntil adds the reasoning in buf up to the marker end to d and
// returns the text still to read and whether end was found. White space
// before end is not part of the reasoning (the templates put a line end
// there), so trailing white space waits until more text shows whether end
// follows.
func reasoningUntil(d *Delta, buf, end string) (string, bool) {
	before, found, rest := scan(buf, end)
	kept := strings.TrimRight(before, " \t\r\n")
	d.Reasoning += kept
	if found != "" {
		return rest, true
	}
	return before[len(kept):] + rest, false
}

// step makes one move on the buffer; it reports whether to try another.
func (p *Parser) step(d *Delta) bool {
	if p.trim {
		p.buf = strings.TrimLeft(p.buf, " \t\r\n")
		if p.buf == "" {
			return false
		}
		p.trim = false
	}
	switch p.mode {
	case modeStart:
		return p.start()
	case modeReasoning:
		var closed bool
		if p.buf, closed = reasoningUntil(d, p.buf, ThinkClose); closed {
			p.mode, p.trim = modeContent, true
		}
		return closed
	case modeContent:
		before, found, rest := scan(p.buf, p.opt.Format.markers()...)
		d.Content += before
		p.buf = rest
		switch found {
		case "":
			return false
		case HermesOpen:
			p.mode = modeBlock
		default:
			p.mode, p.endText = modeToEnd, found
		}
		return true
	case modeBlock:
		i := strings.Index(p.buf, HermesClose)
		if i < 0 {
			return false
		}
		body := p.buf[:i]
		p.buf = p.buf[i+len(HermesClose):]
		if cs, ok := p.parseBlock(body); ok {
			d.Calls = append(d.Calls, cs...)
		} else {
			d.Content += HermesOpen + body + HermesClose
		}
		p.mode, p.trim = modeContent, true
		return true
	}
	return false // modeToEnd holds everything until Flush
}

// start decides, from the first non-space text, whether the output opens
// with reasoning or (Llama 3) with a JSON tool call.
func (p *Parser) start() bool {
	t := strings.TrimLeft(p.buf, " \t\r\n")
	if t == "" {
		return false
	}
	if p.opt.Reasoning {
		if strings.HasPrefix(t, ThinkOpen) {
			p.buf, p.mode, p.trim = t[len(ThinkOpen):], modeReasoning, true
			return true
		}
		if strings.HasPrefix(ThinkOpen, t) {
			return false // may still become <think>
		}
	}
	if p.opt.Format == FormatLlama3 && strings.HasPrefix(t, "{") {
		p.buf, p.mode = t, modeToEnd
		return true
	}
	p.mode = modeContent
	return true
}

// scan finds the first of markers in s. It returns the text before it, the
// marker and the text after it; with no marker, before is what is safe to
// emit and rest the tail that may be the beginning of one.
func scan(s string, markers ...string) (before, found, rest string) {
	first := -1
	for _, m := range markers {
		if i := strings.Index(s, m); i >= 0 && (first < 0 || i < first || (i == first && len(m) > len(found))) {
			first, found = i, m
		}
	}
	if first >= 0 {
		return s[:first], found, s[first+len(found):]
	}
	hold := 0
	for _, m := range markers {
		for n := min(len(m)-1, len(s)); n > hold; n-- {
			if strings.HasSuffix(s, m[:n]) {
				hold = n
				break
			}
		}
	}
	return s[:len(s)-hold], "", s[len(s)-hold:]
}

// parseBlock reads the body of a <tool_call> block: a JSON call object, or
// the <function=…> XML of Qwen3-Coder.
func (p *Parser) parseBlock(body string) ([]Call, bool) {
	if c, ok := parseObjectCall(body); ok {
		return []Call{c}, true
	}
	if strings.HasPrefix(strings.TrimSpace(body), xmlFunction) {
		return parseXMLCalls(body, p.opt.Schemas)
	}
	return nil, false
}
