package tui

import "testing"

func TestSplitThink(t *testing.T) {
	tests := []struct {
		name, raw         string
		reasoning, answer string
		thinking          bool
	}{
		{"plain", "Hello there", "", "Hello there", false},
		{"empty", "", "", "", false},
		{"closed", "<think>\nhmm, 2+2\n</think>\n\n4", "hmm, 2+2", "4", false},
		{"open", "<think>let me see", "let me see", "", true},
		{"tag arriving", "<thi", "", "", true},
		{"close arriving", "<think>so </thi", "so", "", true},
		{"leading space", "\n <think>a</think>b", "a", "b", false},
		{"lone close", "reasons</think>\nanswer", "reasons", "answer", false},
		{"empty think", "<think>\n\n</think>\n\nHi", "", "Hi", false},
		{"angle text", "a < b <thinker", "", "a < b <thinker", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, a, th := splitThink(tc.raw)
			if r != tc.reasoning || a != tc.answer || th != tc.thinking {
				t.Errorf("splitThink(%q) = %q, %q, %v; want %q, %q, %v", tc.raw, r, a, th, tc.reasoning, tc.answer, tc.thinking)
			}
		})
	}
}

func TestJoinThinkRoundTrip(t *testing.T) {
	for _, tc := range []struct{ reasoning, answer string }{
		{"", "just text"},
		{"first this\nthen that", "# Answer\n\nbody"},
	} {
		r, a, th := splitThink(joinThink(tc.reasoning, tc.answer))
		if r != tc.reasoning || a != tc.answer || th {
			t.Errorf("round trip of %q, %q gave %q, %q, %v", tc.reasoning, tc.answer, r, a, th)
		}
	}
}
