package grammar

import (
	"fmt"
	"strings"
)

// Grammar is a compiled context-free grammar. It is immutable and safe for
// concurrent use by many matchers.
type Grammar struct {
	elems   []elem    // every alternative, each ended by an elemEnd
	rules   [][]int32 // rule -> start position of each alternative
	classes []class
	names   []string
	root    int32
}

type elemKind uint8

const (
	elemEnd   elemKind = iota // end of an alternative
	elemClass                 // one code point of classes[arg]
	elemRef                   // rule arg
)

type elem struct {
	kind elemKind
	arg  int32
}

// Rules returns the number of rules, the ones made for groups and
// repetitions included.
func (g *Grammar) Rules() int { return len(g.rules) }

// String renders the compiled grammar in GBNF, one rule a line (classes as
// ranges), for debugging.
func (g *Grammar) String() string {
	var sb strings.Builder
	for r, alts := range g.rules {
		fmt.Fprintf(&sb, "%s ::=", g.names[r])
		for i, p := range alts {
			if i > 0 {
				sb.WriteString(" |")
			}
			for ; g.elems[p].kind != elemEnd; p++ {
				sb.WriteByte(' ')
				e := g.elems[p]
				if e.kind == elemRef {
					sb.WriteString(g.names[e.arg])
					continue
				}
				writeClass(&sb, &g.classes[e.arg])
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func writeClass(sb *strings.Builder, c *class) {
	sb.WriteByte('[')
	for _, r := range c.ranges {
		fmt.Fprintf(sb, "\\U%08X", r.lo)
		if r.hi != r.lo {
			fmt.Fprintf(sb, "-\\U%08X", r.hi)
		}
	}
	sb.WriteByte(']')
}
