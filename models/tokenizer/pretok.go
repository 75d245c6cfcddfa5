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

// sink receives pieces, one at a time: the next pre-tokenizer or the model.
// Pieces stream through the pipeline, so encoding needs no buffer that
// grows with the input.
type sink interface {
	push(p piece)
}

// preTokenizer is one step of the pre-tokenization pipeline. stage returns
// the state for one Encode call, feeding next.
type preTokenizer interface {
	stage(next sink) sink
}

// spanSink receives the spans a matcher finds: gaps (match false) and
// matches, in order, covering the whole string.
type spanSink interface {
	onSpan(start, end int, match bool)
}

// matcher finds the matches of a pattern.
type matcher interface {
	each(s string, out spanSink)
}

// gapFiller reports the gaps between the matches it is given.
type gapFiller struct {
	out  spanSink
	last int
}

func (g *gapFiller) add(start, end int) {
	if start > g.last {
		g.out.onSpan(g.last, start, false)
	}
	g.out.onSpan(start, end, true)
	g.last = end
}

func (g *gapFiller) finish(n int) {
	if n > g.last {
		g.out.onSpan(g.last, n, false)
	}
}

// spanList collects spans.
type spanList []span

func (l *spanList) onSpan(start, end int, match bool) { *l = append(*l, span{start, end, match}) }

// collectSpans returns the spans of m in s.
func collectSpans(m matcher, s string) []span {
	var l spanList
	m.each(s, &l)
	return l
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

// splitPre is a Split pre-tokenizer: a pattern, a behavior and invert.
type splitPre struct {
	m      matcher
	b      behavior
	invert bool
}

func (s *splitPre) stage(next sink) sink { return &splitStage{splitPre: s, next: next} }

// splitStage splits each piece it gets by the pattern and passes on the
// parts the behavior keeps, holding at most one part back.
type splitStage struct {
	*splitPre
	next sink

	text      string
	first     bool
	pend      span
	has       bool
	prevMatch bool
}

func (s *splitStage) push(p piece) {
	if p.text == "" {
		return
	}
	s.text, s.first, s.has, s.prevMatch = p.text, p.first, false, false
	s.m.each(p.text, s)
	s.flush()
}

func (s *splitStage) onSpan(start, end int, match bool) {
	if s.invert {
		match = !match
	}
	sp := span{start, end, match}
	switch s.b {
	case isolated:
		s.emit(sp)
	case removed:
		if !match {
			s.emit(sp)
		}
	case contiguous:
		if s.has && match == s.prevMatch {
			s.pend.end = end
		} else {
			s.hold(sp)
		}
	case mergedWithPrevious:
		if s.has && match && !s.prevMatch {
			s.pend.end = end
		} else {
			s.hold(sp)
		}
	case mergedWithNext:
		// A delimiter joins the gap that follows it; pend.match marks a
		// delimiter still waiting for that gap.
		if s.has && s.pend.match && !match {
			s.pend.end, s.pend.match = end, false
		} else {
			s.hold(sp)
		}
	}
	s.prevMatch = match
}

// hold passes on the part held back and holds sp instead.
func (s *splitStage) hold(sp span) {
	s.flush()
	s.pend, s.has = sp, true
}

func (s *splitStage) flush() {
	if s.has {
		s.has = false
		s.emit(s.pend)
	}
}

func (s *splitStage) emit(sp span) {
	if sp.end > sp.start {
		s.next.push(piece{text: s.text[sp.start:sp.end], first: s.first && sp.start == 0})
	}
}
