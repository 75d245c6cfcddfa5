package cli

import "testing"

// TestHarmonyText checks the text shown for a Harmony answer, streamed
// byte by byte: reasoning in <think>…</think>, the answer after it, the
// channel markers and tool calls gone, and a <think> cut by the end of
// the output closed.
func TestHarmonyText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<|channel|>analysis<|message|>Simple sum.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>",
			"<think>\nSimple sum.\n</think>\n\n2 + 2 = 4."},
		{"<|channel|>final<|message|>Hello!", "Hello!"},
		{"<|channel|>analysis<|message|>Need a tool.<|end|><|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>",
			"<think>\nNeed a tool.\n</think>"},
		{"<|channel|>analysis<|message|>cut", "<think>\ncut\n</think>"},
	}
	for _, c := range cases {
		h := newHarmonyText()
		got := ""
		for i := 0; i < len(c.in); i++ {
			got += h.feed(c.in[i : i+1])
		}
		got += h.flush()
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}
