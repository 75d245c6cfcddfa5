package tokenizer

// piece is one split of the input on its way to the model.
type piece struct {
	text string
	// first marks a piece that starts at offset 0 of the original input,
	// which the Metaspace "first" prepend scheme looks at.
	first bool
}

// span is a byte range of a piece; match tells whether a pattern matched it.
type span struct {
	start, end int
	match      bool
}

// scratch holds buffers reused across the pieces of one Encode call.
type scratch struct {
	spans []span
	a, b  []piece
	syms  []int32
	ranks []uint64
}

// preTokenizer splits (and maybe rewrites) one piece, appending to dst.
type preTokenizer interface {
	preTokenize(dst []piece, p piece, sc *scratch) []piece
}

// matcher finds the spans of a pattern in s. The returned spans cover s
// in order, alternating gaps (match false) and matches.
type matcher interface {
	appendSpans(dst []span, s string) []span
}

// behavior is how a Split keeps the delimiters it found, as in Hugging Face's
// SplitDelimiterBehavior.
type behavior int

const (
	isolated behavior = iota
	removed
	mergedWithPrevious
	mergedWithNext
	contiguous
)

var behaviorNames = map[string]behavior{
	"Isolated": isolated, "Removed": removed, "MergedWithPrevious": mergedWithPrevious,
	"MergedWithNext": mergedWithNext, "Contiguous": contiguous,
}

// splitPiece splits p by m and appends the kept parts to dst.
func splitPiece(dst []piece, p piece, m matcher, b behavior, invert bool, sc *scratch) []piece {
	if p.text == "" {
		return dst
	}
	spans := m.appendSpans(sc.spans[:0], p.text)
	if invert {
		for i := range spans {
			spans[i].match = !spans[i].match
		}
	}
	spans = applyBehavior(spans, b)
	sc.spans = spans
	for _, s := range spans {
		if s.end > s.start {
			dst = append(dst, piece{text: p.text[s.start:s.end], first: p.first && s.start == 0})
		}
	}
	return dst
}

// applyBehavior rewrites spans in place into the ranges to keep.
func applyBehavior(spans []span, b behavior) []span {
	out := spans[:0]
	switch b {
	case isolated:
		return spans
	case removed:
		for _, s := range spans {
			if !s.match {
				out = append(out, s)
			}
		}
	case contiguous:
		prevMatch := false
		for _, s := range spans {
			if s.match == prevMatch && len(out) > 0 {
				out[len(out)-1].end = s.end
			} else {
				out = append(out, s)
			}
			prevMatch = s.match
		}
	case mergedWithPrevious:
		prevMatch := false
		for _, s := range spans {
			m := s.match
			if m && !prevMatch && len(out) > 0 {
				out[len(out)-1].end = s.end
			} else {
				out = append(out, s)
			}
			prevMatch = m
		}
	case mergedWithNext:
		return mergeWithNext(spans)
	}
	return out
}

// mergeWithNext attaches every delimiter to the span that follows it.
func mergeWithNext(spans []span) []span {
	out := make([]span, 0, len(spans))
	prevMatch := false
	for i := len(spans) - 1; i >= 0; i-- {
		s := spans[i]
		if s.match && !prevMatch && len(out) > 0 {
			out[len(out)-1].start = s.start
		} else {
			out = append(out, s)
		}
		prevMatch = s.match
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// spanAdder appends matches and the gaps between them.
type spanAdder struct {
	dst  []span
	last int
}

func (a *spanAdder) add(start, end int) {
	if start > a.last {
		a.dst = append(a.dst, span{a.last, start, false})
	}
	a.dst = append(a.dst, span{start, end, true})
	a.last = end
}

func (a *spanAdder) finish(n int) []span {
	if n > a.last {
		a.dst = append(a.dst, span{a.last, n, false})
	}
	return a.dst
}

// splitPre is a Split pre-tokenizer: a pattern, a behavior and invert.
type splitPre struct {
	m      matcher
	b      behavior
	invert bool
}

func (s *splitPre) preTokenize(dst []piece, p piece, sc *scratch) []piece {
	return splitPiece(dst, p, s.m, s.b, s.invert, sc)
}
