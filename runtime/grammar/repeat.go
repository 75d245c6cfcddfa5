package grammar

import (
	"fmt"
	"slices"
	"strconv"
)

// repetition applies the operator at the parser position to the element
// that starts at seq[last] (a class, a rule, a group or a whole literal).
// x* becomes R ::= x R | (empty); x{m,n} becomes m copies of x followed by
// n-m nested optional rules. A group's alternatives are spread into the
// new rules, so that "(a | b)*" stays in one rule per repetition: the
// matcher then loops without pushing, and the mask's subtree shortcut
// recognizes the loop.
func (p *parser) repetition(seq []sym, last int, group [][]sym) ([]sym, error) {
	lo, hi, err := p.repeatBounds()
	if err != nil {
		return nil, err
	}
	unit := slices.Clone(seq[last:])
	alts := group
	if alts == nil {
		alts = [][]sym{unit}
	}
	if lo*len(unit)+len(seq) > maxElems {
		return nil, fmt.Errorf("%w: repetition too large in rule %q", ErrTooComplex, p.rule)
	}
	out := seq[:last]
	for range lo {
		out = append(out, unit...)
	}
	switch {
	case hi < 0:
		r, err := p.b.rule(fmt.Sprintf("%s_%d", p.rule, len(p.b.rules)), 0)
		if err != nil {
			return nil, err
		}
		if err := p.b.define(r, loopAlts(alts, sym{ref: true, idx: r})); err != nil {
			return nil, err
		}
		out = append(out, sym{ref: true, idx: r})
	case hi > lo:
		var tail []sym
		for range hi - lo {
			r, err := p.b.synthetic(p.rule, loopAlts(alts, tail...))
			if err != nil {
				return nil, err
			}
			tail = []sym{{ref: true, idx: r}}
		}
		out = append(out, tail...)
	}
	return out, nil
}

// loopAlts returns each alternative followed by next, plus the empty one.
func loopAlts(alts [][]sym, next ...sym) [][]sym {
	out := make([][]sym, 0, len(alts)+1)
	for _, a := range alts {
		out = append(out, append(slices.Clone(a), next...))
	}
	return append(out, nil)
}

// repeatBounds reads *, +, ? or {m}, {m,}, {m,n}, {,n}; hi is -1 for no
// upper bound.
func (p *parser) repeatBounds() (lo, hi int, err error) {
	c := p.peek()
	p.pos++
	switch c {
	case '*':
		return 0, -1, nil
	case '+':
		return 1, -1, nil
	case '?':
		return 0, 1, nil
	}
	p.space(false)
	lo, hasLo := p.number()
	p.space(false)
	hi = lo
	if p.peek() == ',' {
		p.pos++
		p.space(false)
		var hasHi bool
		if hi, hasHi = p.number(); !hasHi {
			hi = -1
		}
		p.space(false)
	} else if !hasLo {
		return 0, 0, p.errorf("expected a count in {} in rule %q", p.rule)
	}
	if p.peek() != '}' {
		return 0, 0, p.errorf("expected } in rule %q", p.rule)
	}
	p.pos++
	if lo > maxRepeat || hi > maxRepeat {
		return 0, 0, fmt.Errorf("%w: repetition count above %d in rule %q", ErrTooComplex, maxRepeat, p.rule)
	}
	if hi >= 0 && hi < lo {
		return 0, 0, fmt.Errorf("%w: repetition {%d,%d} has max below min in rule %q", ErrInvalid, lo, hi, p.rule)
	}
	return lo, hi, nil
}

// number reads a decimal count; counts past maxRepeat come back as
// maxRepeat+1 so the caller refuses them.
func (p *parser) number() (int, bool) {
	start := p.pos
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		p.pos++
	}
	if p.pos == start {
		return 0, false
	}
	n, err := strconv.Atoi(p.src[start:p.pos])
	if err != nil || n > maxRepeat {
		return maxRepeat + 1, true
	}
	return n, true
}
