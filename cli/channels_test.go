package cli

import (
	"testing"

	"github.com/mlxrun/mlx/server/toolparse"
)

// TestChannelText checks the text shown for answers whose reasoning comes
// in a channel of special tokens (Harmony, Gemma 4), streamed byte by
// byte: reasoning in <think>…</think>, the answer after it, the channel
// markers and tool calls gone, and a <think> cut by the end of the output
// closed.
func TestChannelText(t *testing.T) {
	cases := []struct {
		format   toolparse.Format
		in, want string
	}{
		{toolparse.FormatHarmony, "<|channel|>analysis<|message|>Simple sum.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>",
			"<think>\nSimple sum.\n</think>\n\n2 + 2 = 4."},
		{toolparse.FormatHarmony, "<|channel|>final<|message|>Hello!", "Hello!"},
		{toolparse.FormatHarmony, "<|channel|>analysis<|message|>Need a tool.<|end|><|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>",
			"<think>\nNeed a tool.\n</think>"},
		{toolparse.FormatHarmony, "<|channel|>analysis<|message|>cut", "<think>\ncut\n</think>"},
		{toolparse.FormatGemma4, "<|channel>thought\n3 plus 4 is 7.<channel|>3+4 equals 7.<turn|>",
			"<think>\n3 plus 4 is 7.\n</think>\n\n3+4 equals 7."},
		{toolparse.FormatGemma4, "Hello!", "Hello!"},
		{toolparse.FormatGemma4, "<|channel>thought\nNeed the weather.<channel|><|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>",
			"<think>\nNeed the weather.\n</think>"},
		{toolparse.FormatGemma4, "<|channel>thought\ncut", "<think>\ncut\n</think>"},
	}
	for _, c := range cases {
		h := newChannelText(c.format)
		got := ""
		for i := 0; i < len(c.in); i++ {
			got += h.feed(c.in[i : i+1])
		}
		got += h.flush()
		if got != c.want {
			t.Errorf("%s %q: got %q, want %q", c.format, c.in, got, c.want)
		}
	}
}
