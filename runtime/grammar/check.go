package grammar

import "fmt"

// nullable returns which rules can match the empty string.
func (b *builder) nullable() []bool {
	null := make([]bool, len(b.rules))
	for changed := true; changed; {
		changed = false
		for i, r := range b.rules {
			if null[i] {
				continue
			}
			for _, a := range r.alts {
				if b.seqNullable(a, null) {
					null[i], changed = true, true
					break
				}
			}
		}
	}
	return null
}

func (b *builder) seqNullable(a []sym, null []bool) bool {
	for _, s := range a {
		if !s.ref || !null[s.idx] {
			return false
		}
	}
	return true
}

// checkLeftRecursion refuses a rule that can reach itself without
// consuming a character (directly, or after nullable elements): the
// matcher's expansion would never end.
func (b *builder) checkLeftRecursion() error {
	null := b.nullable()
	// edges[r] are the rules r can start with.
	edges := make([][]int32, len(b.rules))
	for i, r := range b.rules {
		for _, a := range r.alts {
			for _, s := range a {
				if !s.ref {
					break
				}
				edges[i] = append(edges[i], s.idx)
				if !null[s.idx] {
					break
				}
			}
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(b.rules))
	type frame struct{ rule, next int32 }
	for start := range b.rules {
		if color[start] != white {
			continue
		}
		stack := []frame{{int32(start), 0}}
		color[start] = grey
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if int(f.next) == len(edges[f.rule]) {
				color[f.rule] = black
				stack = stack[:len(stack)-1]
				continue
			}
			to := edges[f.rule][f.next]
			f.next++
			switch color[to] {
			case grey:
				return fmt.Errorf("%w: rule %q is left-recursive", ErrInvalid, b.rules[to].name)
			case white:
				color[to] = grey
				stack = append(stack, frame{to, 0})
			}
		}
	}
	return nil
}
