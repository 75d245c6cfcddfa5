package runtime

import "slices"

// The n-gram sizes prompt lookup matches, the longest first: a longer
// match predicts better, a shorter one finds more.
const (
	lookupMaxN = 3
	lookupMinN = 1
)

// lookup proposes up to k tokens to follow tokens (prompt and output),
// into buf: those that followed the latest earlier occurrence of its last
// n tokens, for the largest n that has one. A continuation that runs into
// the end of tokens repeats with the period of the match, so a loop is
// proposed whole. It returns buf empty when no n-gram recurs.
func lookup(tokens []int32, k int, buf []int32) []int32 {
	buf = buf[:0]
	n := len(tokens)
	for g := min(lookupMaxN, n-1); g >= lookupMinN && k > 0; g-- {
		suffix := tokens[n-g:]
		for start := n - g - 1; start >= 0; start-- {
			if !slices.Equal(tokens[start:start+g], suffix) {
				continue
			}
			shift := n - g - start // the match's period
			for i := range k {
				if j := n + i - shift; j < n {
					buf = append(buf, tokens[j])
				} else {
					buf = append(buf, buf[j-n])
				}
			}
			return buf
		}
	}
	return buf
}
