package sample

import (
	"strings"
	"testing"
)

// refStop finds the stop string that completes first in text (the longest
// of those completing at the same byte) by brute force: its start and index,
// or -1, -1.
func refStop(text string, stops []string) (start, k int) {
	for end := 1; end <= len(text); end++ {
		k = -1
		for i, s := range stops {
			if strings.HasSuffix(text[:end], s) && (k < 0 || len(s) > len(stops[k])) {
				k = i
			}
		}
		if k >= 0 {
			return end - len(stops[k]), k
		}
	}
	return -1, -1
}

func TestStopMatcher(t *testing.T) {
	tests := []struct {
		name    string
		stops   []string
		include bool
		deltas  []string
		emits   []string // per delta, up to the stop
		stop    string   // the stop string found, "" for none
		flush   string   // held text at the end when no stop is found
	}{
		{"split over three deltas", []string{"<|end|>"}, false,
			[]string{"Hello <|", "en", "d|> tail"}, []string{"Hello ", "", ""}, "<|end|>", ""},
		{"overlapping prefix", []string{"abc"}, false,
			[]string{"ab", "ab", "c"}, []string{"", "ab", ""}, "abc", ""},
		{"overlapping in one delta", []string{"abc"}, false,
			[]string{"xababcz"}, []string{"xab"}, "abc", ""},
		{"include stop string", []string{"END"}, true,
			[]string{"aE", "ND b"}, []string{"a", "END"}, "END", ""},
		{"several stops, first to complete", []string{"\n\n", "END", "x"}, false,
			[]string{"one\n", "two E", "N", "D\n\n"}, []string{"one", "\ntwo ", "", ""}, "END", ""},
		{"earliest end beats earliest start", []string{"abcd", "bc"}, false,
			[]string{"abcd"}, []string{"a"}, "bc", ""},
		{"same end, longest wins", []string{"c", "abc"}, false,
			[]string{"xab", "c"}, []string{"x", ""}, "abc", ""},
		{"unicode held whole", []string{"日本"}, false,
			[]string{"今日", "は日", "本です"}, []string{"今", "日は", ""}, "日本", ""},
		{"unicode prefix shares bytes", []string{"é!"}, true,
			[]string{"caf", "é", "s é!"}, []string{"caf", "", "és é!"}, "é!", ""},
		{"no match flushes held text", []string{"END"}, false,
			[]string{"abc E", "N"}, []string{"abc ", ""}, "", "EN"},
		{"no stops passes through", nil, false,
			[]string{"a", "END"}, []string{"a", "END"}, "", ""},
		{"empty delta", []string{"ab"}, false,
			[]string{"a", "", "c"}, []string{"", "", "ac"}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewStopMatcher(tc.stops, tc.include)
			if err != nil {
				t.Fatal(err)
			}
			stopped := false
			for i, d := range tc.deltas {
				if stopped {
					t.Fatalf("delta %d after the stop", i)
				}
				var emit string
				emit, stopped = m.Feed(d)
				if emit != tc.emits[i] {
					t.Errorf("delta %d %q: emit %q, want %q", i, d, emit, tc.emits[i])
				}
			}
			if got, ok := m.Matched(); got != tc.stop || ok != (tc.stop != "") || stopped != ok {
				t.Errorf("Matched = %q, %v (stopped %v), want %q", got, ok, stopped, tc.stop)
			}
			if got := m.Flush(); got != tc.flush {
				t.Errorf("Flush = %q, want %q", got, tc.flush)
			}
			if emit, again := m.Feed("more"); stopped && (emit != "" || !again) {
				t.Errorf("Feed after the stop = %q, %v", emit, again)
			}
		})
	}
}

func TestNewStopMatcherErrors(t *testing.T) {
	for _, stops := range [][]string{{""}, {"ok", "\xc3"}, make([]string, MaxStops+1)} {
		_, err := NewStopMatcher(stops, false)
		checkParamErr(t, err, "stop")
	}
}
