package toolparse

import "strings"

// The format of Gemma 4: reasoning is a thought channel,
//
//	<|channel>thought
//	REASONING<channel|>ANSWER
//
// (the prompt closes an empty one itself when thinking is off), and a
// tool call is
//
//	<|tool_call>call:NAME{key:VALUE,…}<tool_call|>
//
// where a VALUE is a string between <|"|> quotes, a number, true, false,
// null, a {…} object or a […] list. <|tool_response> (the model waiting for
// the result) and <turn|> end the answer and are dropped, as is a stray
// <channel|>.
const (
	Gemma4Channel     = "<|channel>"
	Gemma4ChannelEnd  = "<channel|>"
	Gemma4Call        = "<|tool_call>"
	Gemma4CallEnd     = "<tool_call|>"
	gemma4Response    = "<|tool_response>"
	gemma4TurnEnd     = "<turn|>"
	gemma4Quote       = `<|"|>`
	gemma4CallPrefix  = "call:"
	gemma4ThoughtName = "thought"
)

// ReadsToolResponses reports whether a Gemma 4 template reads tool results
// from the tool_responses of the assistant message that made the calls
// (as the first Gemma 4 templates do) rather than from tool messages,
// which the later templates forward-scan for (they mark that part as for
// OpenAI Chat Completions).
func ReadsToolResponses(template string) bool {
	return strings.Contains(template, "tool_responses") && strings.Contains(template, "'"+Gemma4Call+"call:'") &&
		!strings.Contains(template, "OpenAI Chat Completions")
}

// gemma4 is the Parser of FormatGemma4.
type gemma4 struct {
	reasoning bool // separate the thought channel
	mode      mode // modeContent, modeReasoning (thought channel) or modeBlock (a call)
	named     bool // the channel's name has been read
	trim      bool // drop the leading white space of the next text
	buf       string
}

func (g *gemma4) feed(text string) Delta {
	g.buf += text
	var d Delta
	for g.step(&d) {
	}
	return d
}

func (g *gemma4) flush() Delta {
	d := g.feed("")
	buf := g.buf
	g.buf = ""
	switch g.mode {
	case modeReasoning:
		d.Reasoning += strings.TrimSpace(strings.TrimPrefix(buf, gemma4ThoughtName))
	case modeBlock:
		if c, ok := parseGemma4Call(buf); ok {
			d.Calls = append(d.Calls, c)
		} else {
			d.Content += Gemma4Call + buf
		}
	default:
		if !(g.trim && strings.TrimSpace(buf) == "") {
			d.Content += buf
		}
	}
	g.mode = modeContent
	return d
}

func (g *gemma4) step(d *Delta) bool {
	if g.trim {
		g.buf = strings.TrimLeft(g.buf, " \t\r\n")
		if g.buf == "" {
			return false
		}
		g.trim = false
	}
	switch g.mode {
	case modeReasoning:
		if !g.named {
			if len(g.buf) < len(gemma4ThoughtName) && strings.HasPrefix(gemma4ThoughtName, g.buf) {
				return false // may still be the channel's name
			}
			g.buf = strings.TrimPrefix(g.buf, gemma4ThoughtName)
			g.named, g.trim = true, true
			return true
		}
		var closed bool
		if g.buf, closed = reasoningUntil(d, g.buf, Gemma4ChannelEnd); closed {
			g.mode, g.trim = modeContent, true
		}
		return closed
	case modeBlock:
		body, rest, ok := strings.Cut(g.buf, Gemma4CallEnd)
		if !ok {
			return false
		}
		if c, ok := parseGemma4Call(body); ok {
			d.Calls = append(d.Calls, c)
		} else {
			d.Content += Gemma4Call + body + Gemma4CallEnd
		}
		g.buf, g.mode, g.trim = rest, modeContent, true
		return true
	}
	markers := []string{Gemma4Call, gemma4Response, gemma4TurnEnd}
	if g.reasoning {
		// Without separate reasoning the channels stay in the text.
		markers = append(markers, Gemma4Channel, Gemma4ChannelEnd)
	}
	before, found, rest := scan(g.buf, markers...)
	d.Content += before
	g.buf = rest
	switch found {
	case "":
		return false
	case Gemma4Channel:
		g.mode, g.named = modeReasoning, false
	case Gemma4Call:
		g.mode = modeBlock
	}
	return true
}

// parseGemma4Call reads call:NAME{…} into a call with JSON arguments.
func parseGemma4Call(s string) (Call, bool) {
	s, ok := strings.CutPrefix(strings.TrimSpace(s), gemma4CallPrefix)
	i := strings.IndexByte(s, '{')
	if !ok || i <= 0 {
		return Call{}, false
	}
	name := strings.TrimSpace(s[:i])
	var r gemma4Reader
	r.s = s[i:]
	var b strings.Builder
	if !r.object(&b) || strings.TrimSpace(r.s) != "" {
		return Call{}, false
	}
	return Call{Name: name, Arguments: b.String()}, true
}
