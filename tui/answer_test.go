package tui

import "testing"

func TestEndNote(t *testing.T) {
	tests := []struct {
		name      string
		stopped   bool
		maxTokens int
		stats     Stats
		want      string
	}{
		{"finished", false, 0, Stats{Finish: FinishStop}, ""},
		{"stopped", true, 0, Stats{Finish: FinishCancelled}, "stopped"},
		{"max_tokens", false, 24, Stats{Finish: FinishLength, CompletionTokens: 24}, "cut at max_tokens (24)"},
		{"context", false, 0, Stats{Finish: FinishLength, CompletionTokens: 2000}, "cut at the end of the context: /clear starts a new conversation"},
		{"context before max_tokens", false, 500, Stats{Finish: FinishLength, CompletionTokens: 100}, "cut at the end of the context: /clear starts a new conversation"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := endNote(tc.stopped, tc.maxTokens, tc.stats); got != tc.want {
				t.Errorf("endNote = %q, want %q", got, tc.want)
			}
		})
	}
}
