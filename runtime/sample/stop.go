package sample

import "slices"

// StopMatcher finds stop strings in a stream of decoded text that arrives in
// deltas, matching across delta boundaries. It holds back any tail of the
// text that could begin a stop string, so emitted text never contains part
// of one. A match is reported at the first byte where some stop string is
// complete (the longest of those ending there), so the outcome does not
// depend on how the text was split. Deltas must be complete UTF-8; stop
// strings are too (Validate), so emitted text never splits a character.
//
// Each stop string runs a Knuth–Morris–Pratt automaton over the bytes: Feed
// costs O(len(delta) × number of stops), whatever the stop lengths.
type StopMatcher struct {
	stops   []string
	fail    [][]int32 // fail[k][q]: longest proper border of stops[k][:q+1]
	state   []int32   // length of the longest stop prefix ending the text
	include bool
	pending []byte // text held back
	matched int    // index of the stop string found, -1 before
}

// NewStopMatcher returns a matcher for stops; with include, the matched stop
// string is emitted too. Errors (empty, too many, too long or invalid UTF-8
// stop strings) wrap ErrInvalid.
func NewStopMatcher(stops []string, include bool) (*StopMatcher, error) {
	if err := validateStops(stops); err != nil {
		return nil, err
	}
	stops = slices.Clone(stops)
	m := &StopMatcher{stops: stops, include: include, matched: -1, state: make([]int32, len(stops))}
	m.fail = make([][]int32, len(stops))
	for k, s := range stops {
		m.fail[k] = borders(s)
	}
	return m, nil
}

// borders returns the KMP failure function of s.
func borders(s string) []int32 {
	f := make([]int32, len(s))
	q := int32(0)
	for i := 1; i < len(s); i++ {
		for q > 0 && s[i] != s[q] {
			q = f[q-1]
		}
		if s[i] == s[q] {
			q++
		}
		f[i] = q
	}
	return f
}

// Feed adds a delta and returns the text that is safe to emit now. When a
// stop string completes inside it, stopped is true and emit ends just before
// the stop string (or just after it, with include); the text after it is
// dropped, and later calls return "", true.
func (m *StopMatcher) Feed(delta string) (emit string, stopped bool) {
	if m.matched >= 0 {
		return "", true
	}
	if len(m.stops) == 0 {
		return delta, false
	}
	held := 0
	for j := 0; j < len(delta); j++ {
		held = 0
		best := -1
		for k, s := range m.stops {
			q := m.state[k]
			for q > 0 && delta[j] != s[q] {
				q = m.fail[k][q-1]
			}
			if delta[j] == s[q] {
				q++
			}
			if int(q) == len(s) && (best < 0 || len(s) > len(m.stops[best])) {
				best = k
			}
			m.state[k] = q
			held = max(held, int(q))
		}
		if best >= 0 {
			return m.stop(delta, best, len(m.pending)+j+1), true
		}
	}
	if len(delta) == 0 {
		return "", false
	}
	cut := len(m.pending) + len(delta) - held
	emit = m.prefix(delta, cut)
	if cut <= len(m.pending) {
		n := copy(m.pending, m.pending[cut:])
		m.pending = append(m.pending[:n], delta...)
	} else {
		m.pending = append(m.pending[:0], delta[cut-len(m.pending):]...)
	}
	return emit, false
}

// stop ends the stream on stop string k ending at byte end of pending+delta.
func (m *StopMatcher) stop(delta string, k, end int) string {
	m.matched = k
	s := m.stops[k]
	emit := m.prefix(delta, end-len(s))
	if m.include {
		emit += s
	}
	m.pending = m.pending[:0]
	return emit
}

// prefix returns the first n bytes of pending+delta.
func (m *StopMatcher) prefix(delta string, n int) string {
	switch {
	case len(m.pending) == 0:
		return delta[:n]
	case n <= len(m.pending):
		return string(m.pending[:n])
	}
	return string(m.pending) + delta[:n-len(m.pending)]
}

// Held returns the text held back: a tail that may begin a stop string.
func (m *StopMatcher) Held() string { return string(m.pending) }

// Flush returns the held text, for when the sequence ends without a stop
// string (EOS, a stop token id, the length limit), and empties it.
func (m *StopMatcher) Flush() string {
	s := string(m.pending)
	m.pending = m.pending[:0]
	for k := range m.state {
		m.state[k] = 0
	}
	return s
}

// Matched returns the stop string found, if any.
func (m *StopMatcher) Matched() (string, bool) {
	if m.matched < 0 {
		return "", false
	}
	return m.stops[m.matched], true
}
