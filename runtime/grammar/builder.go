package grammar

import (
	"fmt"
	"strings"
)

// sym is one element of a rule under construction: a class or a rule.
type sym struct {
	ref bool
	idx int32
}

type buildRule struct {
	name    string
	alts    [][]sym
	defined bool
	line    int // where it was first named, for messages
}

// builder collects rules while parsing and compiles them into a Grammar.
type builder struct {
	rules    []buildRule
	byName   map[string]int32
	classes  []class
	classIdx map[string]int32
	size     int // elements so far, bounded by maxElems
}

func newBuilder() *builder {
	return &builder{byName: map[string]int32{}, classIdx: map[string]int32{}}
}

// rule returns the index of a named rule, creating it when new.
func (b *builder) rule(name string, line int) (int32, error) {
	if i, ok := b.byName[name]; ok {
		return i, nil
	}
	if len(b.rules) >= maxRules {
		return 0, fmt.Errorf("%w: more than %d rules", ErrTooComplex, maxRules)
	}
	i := int32(len(b.rules))
	b.rules = append(b.rules, buildRule{name: name, line: line})
	b.byName[name] = i
	return i, nil
}

// synthetic creates a rule for a group or a repetition, named after the
// rule it appears in.
func (b *builder) synthetic(parent string, alts [][]sym) (int32, error) {
	name := fmt.Sprintf("%s_%d", parent, len(b.rules))
	i, err := b.rule(name, 0)
	if err != nil {
		return 0, err
	}
	if err := b.define(i, alts); err != nil {
		return 0, err
	}
	return i, nil
}

// define sets the alternatives of a rule, counting their size.
func (b *builder) define(i int32, alts [][]sym) error {
	n := 0
	for _, a := range alts {
		n += len(a) + 1
	}
	if b.size+n > maxElems {
		return fmt.Errorf("%w: more than %d grammar elements", ErrTooComplex, maxElems)
	}
	b.size += n
	b.rules[i].alts = alts
	b.rules[i].defined = true
	return nil
}

// class returns the index of a class, shared between equal classes.
func (b *builder) class(c class) sym {
	var key strings.Builder
	for _, r := range c.ranges {
		fmt.Fprintf(&key, "%x-%x,", r.lo, r.hi)
	}
	if i, ok := b.classIdx[key.String()]; ok {
		return sym{idx: i}
	}
	i := int32(len(b.classes))
	b.classes = append(b.classes, c)
	b.classIdx[key.String()] = i
	return sym{idx: i}
}

// compile checks the rules and flattens them into a Grammar.
func (b *builder) compile(root string) (*Grammar, error) {
	ri, ok := b.byName[root]
	if !ok || !b.rules[ri].defined {
		return nil, fmt.Errorf("%w: no %q rule", ErrInvalid, root)
	}
	for _, r := range b.rules {
		if !r.defined {
			return nil, fmt.Errorf("%w: rule %q (line %d) is used but not defined", ErrInvalid, r.name, r.line)
		}
	}
	if err := b.checkLeftRecursion(); err != nil {
		return nil, err
	}
	g := &Grammar{classes: b.classes, root: ri}
	g.elems = make([]elem, 0, b.size)
	g.rules = make([][]int32, len(b.rules))
	g.names = make([]string, len(b.rules))
	for i, r := range b.rules {
		g.names[i] = r.name
		starts := make([]int32, len(r.alts))
		for j, a := range r.alts {
			starts[j] = int32(len(g.elems))
			for _, s := range a {
				k := elemClass
				if s.ref {
					k = elemRef
				}
				g.elems = append(g.elems, elem{kind: k, arg: s.idx})
			}
			g.elems = append(g.elems, elem{kind: elemEnd})
		}
		g.rules[i] = starts
	}
	return g, nil
}
