package cli

import (
	"strings"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/server/toolparse"
)

// channelText turns the streamed output of a model whose reasoning comes
// in a channel marked by special tokens (Harmony's analysis channel of
// gpt-oss, Gemma 4's thought channel) into the text the chat and pipe mode
// show: the reasoning inside <think>…</think>, as other reasoning models
// write it, then the answer. Calls to tools, which neither runs, are left
// out.
type channelText struct {
	p     *toolparse.Parser
	think bool // a <think> is open
}

// newChannelText returns the channelText of format f, one of those
// channelFormat returns.
func newChannelText(f toolparse.Format) *channelText {
	return &channelText{p: toolparse.New(toolparse.Options{Format: f, Reasoning: true})}
}

// channelFormat returns the format of a model's chat template when its
// reasoning comes in a channel of special tokens (Harmony, Gemma 4), which
// the answer must then keep to be parsed, or "" for other templates.
func channelFormat(ts *chat.Templates) toolparse.Format {
	if ts == nil || ts.Default == nil {
		return ""
	}
	switch f := toolparse.Detect(ts.Default.Source); f {
	case toolparse.FormatHarmony, toolparse.FormatGemma4:
		return f
	}
	return ""
}

// feed takes a delta of the output and returns the text to show now.
func (h *channelText) feed(s string) string { return h.text(h.p.Feed(s)) }

// flush ends the output and returns the rest of the text.
func (h *channelText) flush() string {
	s := h.text(h.p.Flush())
	if h.think {
		s += "\n</think>"
		h.think = false
	}
	return s
}

func (h *channelText) text(d toolparse.Delta) string {
	var b strings.Builder
	if d.Reasoning != "" && !h.think {
		b.WriteString("<think>\n")
		h.think = true
	}
	b.WriteString(d.Reasoning)
	if d.Content != "" && h.think {
		b.WriteString("\n</think>\n\n")
		h.think = false
	}
	b.WriteString(d.Content)
	return b.String()
}
