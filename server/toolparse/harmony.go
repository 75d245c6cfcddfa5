package toolparse

import "strings"

// The Harmony format of gpt-oss: the answer is a series of messages, each a
// header and a body,
//
//	<|start|>assistant to=RECIPIENT<|channel|>CHANNEL <|constrain|>TYPE<|message|>BODY<|end|>
//
// where the first message's "<|start|>assistant" is the end of the prompt,
// the recipient (also written after the channel) and the constraint are
// optional, and the last body ends with <|return|> or <|call|> (or the
// output ends: those are stop tokens). The analysis channel is the
// reasoning, a message to functions.NAME is a call of that tool with JSON
// arguments, and the final and commentary channels are text for the user.
const (
	HarmonyStart   = "<|start|>"
	HarmonyChannel = "<|channel|>"
	HarmonyMessage = "<|message|>"
	HarmonyEnd     = "<|end|>"
	HarmonyCall    = "<|call|>"
	HarmonyReturn  = "<|return|>"
	harmonyRecip   = "to="
	harmonyFuncs   = "functions."
)

// maxHarmonyHeader bounds the bytes of a header held while waiting for its
// <|message|>; a longer one is not a header, and is given out as text.
const maxHarmonyHeader = 512

// bodyKind is where a Harmony message's body goes.
type bodyKind int

const (
	bodyContent   bodyKind = iota // final, commentary, or no channel: answer text
	bodyReasoning                 // analysis
	bodyRaw                       // analysis with reasoning not separated: text, markers included
	bodyCall                      // to=functions.NAME: the arguments of a call
	bodyDrop                      // to a built-in tool (python, browser): no function to give it to
)

// harmony is the Parser of FormatHarmony.
type harmony struct {
	reasoning bool // separate the analysis channel
	inBody    bool
	kind      bodyKind
	buf       string
	name      string // the function of a bodyCall
	args      strings.Builder
}

func (h *harmony) feed(text string) Delta {
	h.buf += text
	var d Delta
	for h.step(&d) {
	}
	return d
}

func (h *harmony) flush() Delta {
	var d Delta
	for h.step(&d) {
	}
	if h.inBody {
		h.emit(&d, h.buf)
		h.endBody(&d, "")
	}
	h.buf = "" // white space, or a header that never reached its body
	return d
}

// step makes one move on the buffer; it reports whether to try another.
// Outside a body, what step leaves in the buffer can still become a
// header (headerLike).
func (h *harmony) step(d *Delta) bool {
	if h.inBody {
		before, found, rest := scan(h.buf, HarmonyEnd, HarmonyCall, HarmonyReturn, HarmonyStart)
		h.emit(d, before)
		if found == "" {
			h.buf = rest
			return false
		}
		if found == HarmonyStart {
			rest = found + rest // a header without the <|end|> before it
		}
		h.buf = rest
		h.endBody(d, found)
		return true
	}
	if h.buf == "" {
		return false
	}
	if !headerLike(h.buf) {
		// Text with no header: an answer in no channel.
		h.inBody, h.kind = true, bodyContent
		return true
	}
	i := strings.Index(h.buf, HarmonyMessage)
	if i < 0 {
		if len(h.buf) > maxHarmonyHeader {
			h.inBody, h.kind = true, bodyContent
			return true
		}
		return false
	}
	header := h.buf[:i]
	h.buf = h.buf[i+len(HarmonyMessage):]
	h.begin(d, header)
	return true
}

// headerLike reports whether s (the text after a message, or the start of
// the output) can be or become a header: white space, then a marker or
// the recipient.
func headerLike(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	if t == "" {
		return true
	}
	for _, m := range []string{"<|", harmonyRecip} {
		if strings.HasPrefix(t, m) || strings.HasPrefix(m, t) {
			return true
		}
	}
	return false
}

// begin reads a header and starts its body.
func (h *harmony) begin(d *Delta, header string) {
	channel, recipient := parseHeader(header)
	h.inBody = true
	switch {
	case strings.HasPrefix(recipient, harmonyFuncs) && len(recipient) > len(harmonyFuncs):
		h.kind, h.name = bodyCall, strings.TrimPrefix(recipient, harmonyFuncs)
		h.args.Reset()
	case recipient != "":
		h.kind = bodyDrop
	case channel == "analysis" && h.reasoning:
		h.kind = bodyReasoning
	case channel == "analysis":
		h.kind = bodyRaw
		d.Content += HarmonyChannel + "analysis" + HarmonyMessage
	default:
		h.kind = bodyContent
	}
}

// parseHeader returns the channel of a header and its recipient ("" for
// none, and for "assistant", which some outputs address a message to
// before the channel that counts).
func parseHeader(header string) (channel, recipient string) {
	if i := strings.LastIndex(header, HarmonyChannel); i >= 0 {
		channel = headerWord(header[i+len(HarmonyChannel):])
	}
	for s := header; ; {
		i := strings.Index(s, harmonyRecip)
		if i < 0 {
			break
		}
		s = s[i+len(harmonyRecip):]
		if r := headerWord(s); r != "assistant" {
			recipient = r
		}
	}
	return channel, recipient
}

// headerWord returns the word at the start of s: up to white space or a
// marker.
func headerWord(s string) string {
	if i := strings.IndexAny(s, " \t\r\n<"); i >= 0 {
		return s[:i]
	}
	return s
}

// emit gives out text of the current body.
func (h *harmony) emit(d *Delta, s string) {
	switch h.kind {
	case bodyContent, bodyRaw:
		d.Content += s
	case bodyReasoning:
		d.Reasoning += s
	case bodyCall:
		h.args.WriteString(s)
	}
}

// endBody ends the current message at marker (the end of the output when
// marker is "").
func (h *harmony) endBody(d *Delta, marker string) {
	switch h.kind {
	case bodyCall:
		d.Calls = append(d.Calls, Call{Name: h.name, Arguments: arguments([]byte(h.args.String()))})
		h.args.Reset()
	case bodyRaw:
		if marker != HarmonyStart {
			d.Content += marker
		}
	}
	h.inBody, h.kind, h.name = false, bodyContent, ""
}
