package sample

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// splitRunes cuts text at the positions given by cuts (each modulo
// len(text)+1, moved forward to a character boundary).
func splitRunes(text string, cuts []byte) []string {
	pos := []int{0, len(text)}
	for _, c := range cuts {
		p := int(c) % (len(text) + 1)
		for p < len(text) && !utf8.RuneStart(text[p]) {
			p++
		}
		pos = append(pos, p)
	}
	slices.Sort(pos)
	var out []string
	for i := 1; i < len(pos); i++ {
		out = append(out, text[pos[i-1]:pos[i]])
	}
	return out
}

// FuzzStopMatcher checks, for any text split into deltas, that emitted plus
// held text is always the text fed so far, that emitted text is valid UTF-8,
// and that the stream ends exactly where the brute-force reference finds
// the first stop string.
func FuzzStopMatcher(f *testing.F) {
	f.Add("xababcz", "abc", "b c", []byte{2, 3}, false)
	f.Add("Hello <|end|> more", "<|end|>", "\n\n", []byte{7, 9, 11}, true)
	f.Add("今日は日本です", "日本", "本で", []byte{1, 4, 8}, false)
	f.Add("aaaaab", "aab", "aaaa", []byte{1, 2, 3, 4}, true)
	f.Add("no stop here", "zz", "yy", []byte{5}, false)
	f.Fuzz(func(t *testing.T, text, stopA, stopB string, cuts []byte, include bool) {
		if !utf8.ValidString(text) {
			return
		}
		stops := []string{stopA, stopB}
		m, err := NewStopMatcher(stops, include)
		if err != nil {
			return
		}
		var out []byte
		fed := 0
		stopped := false
		for _, d := range splitRunes(text, cuts) {
			var emit string
			emit, stopped = m.Feed(d)
			if !utf8.ValidString(emit) {
				t.Fatalf("emitted invalid UTF-8 %q", emit)
			}
			out = append(out, emit...)
			fed += len(d)
			if stopped {
				break
			}
			if got := string(out) + m.Held(); got != text[:fed] {
				t.Fatalf("emitted+held %q, want %q", got, text[:fed])
			}
		}
		start, k := refStop(text, stops)
		want := text
		if k >= 0 {
			want = text[:start]
			if include {
				want += stops[k]
			}
		} else {
			out = append(out, m.Flush()...)
		}
		if string(out) != want || stopped != (k >= 0) {
			t.Fatalf("output %q (stopped %v), want %q (stop %d)", out, stopped, want, k)
		}
		if got, ok := m.Matched(); ok && got != stops[k] {
			t.Fatalf("Matched %q, want %q", got, stops[k])
		}
	})
}
