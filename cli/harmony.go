package cli

import (
	"strings"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/server/toolparse"
)

// harmonyText turns the streamed output of a Harmony model (gpt-oss), whose
// channels are special tokens, into the text the chat and pipe mode show:
// the analysis inside <think>…</think>, as other reasoning models write
// it, then the answer. Calls to tools, which neither runs, are left out.
type harmonyText struct {
	p     *toolparse.Parser
	think bool // a <think> is open
}

func newHarmonyText() *harmonyText {
	return &harmonyText{p: toolparse.New(toolparse.Options{Format: toolparse.FormatHarmony, Reasoning: true})}
}

// isHarmony reports whether a model's chat template is Harmony's.
func isHarmony(ts *chat.Templates) bool {
	return ts != nil && ts.Default != nil && toolparse.Detect(ts.Default.Source) == toolparse.FormatHarmony
}

// feed takes a delta of the output and returns the text to show now.
func (h *harmonyText) feed(s string) string { return h.text(h.p.Feed(s)) }

// flush ends the output and returns the rest of the text.
func (h *harmonyText) flush() string {
	s := h.text(h.p.Flush())
	if h.think {
		s += "\n</think>"
		h.think = false
	}
	return s
}

func (h *harmonyText) text(d toolparse.Delta) string {
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
