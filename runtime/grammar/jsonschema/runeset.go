package jsonschema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// runeSet is a set of code points as inclusive ranges.
type runeSet [][2]rune

// norm sorts and merges the ranges.
func (s runeSet) norm() runeSet {
	out := slices.Clone(s)
	slices.SortFunc(out, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r[0] <= merged[n-1][1]+1 {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// invert returns the code points not in the set.
func (s runeSet) invert() runeSet {
	var out runeSet
	next := rune(0)
	for _, r := range s.norm() {
		if r[0] > next {
			out = append(out, [2]rune{next, r[0] - 1})
		}
		next = r[1] + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, [2]rune{next, utf8.MaxRune})
	}
	return out
}

func (s runeSet) has(x rune) bool {
	return slices.ContainsFunc(s, func(r [2]rune) bool { return r[0] <= x && x <= r[1] })
}

// jsonEscapes are the characters a JSON string must escape that a
// pattern may match, with their escapes.
var jsonEscapes = []struct {
	r   rune
	esc string
}{{'"', `\"`}, {'\\', `\\`}, {'\n', `\n`}, {'\t', `\t`}, {'\r', `\r`}}

// grammar returns an expression for one character of the set written in
// a JSON string: raw where JSON allows it, escaped otherwise; other
// control characters are left out.
func (s runeSet) grammar() (string, error) {
	holes := runeSet{{0, 0x1F}, {'"', '"'}, {'\\', '\\'}}
	var raw runeSet
	for _, r := range s.norm() {
		raw = append(raw, r)
	}
	raw = append(raw.invert(), holes...).invert() // s minus holes
	var alts []string
	if len(raw) > 0 {
		var sb strings.Builder
		sb.WriteByte('[')
		for _, r := range raw {
			fmt.Fprintf(&sb, `\U%08X`, r[0])
			if r[1] != r[0] {
				fmt.Fprintf(&sb, `-\U%08X`, r[1])
			}
		}
		sb.WriteByte(']')
		alts = append(alts, sb.String())
	}
	for _, e := range jsonEscapes {
		if s.has(e.r) {
			alts = append(alts, quote(e.esc))
		}
	}
	if len(alts) == 0 {
		return "", fmt.Errorf("a character class with no character a JSON string can hold")
	}
	return strings.Join(alts, " | "), nil
}

// Sets of the class escapes.
var (
	digitSet = runeSet{{'0', '9'}}
	wordSet  = runeSet{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	spaceSet = runeSet{{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}}
)

// escape reads a backslash escape as a set; inClass refuses the negated
// class escapes, which a class cannot combine here.
func (p *rxParser) escape(inClass bool) (runeSet, error) {
	if p.pos+1 >= len(p.src) {
		return nil, p.errorf("trailing backslash")
	}
	c := p.src[p.pos+1]
	p.pos += 2
	switch c {
	case 'd', 'w', 's':
		return map[byte]runeSet{'d': digitSet, 'w': wordSet, 's': spaceSet}[c], nil
	case 'D', 'W', 'S':
		if inClass {
			return nil, p.errorf(`\%c inside a class`, c)
		}
		return map[byte]runeSet{'D': digitSet, 'W': wordSet, 'S': spaceSet}[c].invert(), nil
	case 'n':
		return runeSet{{'\n', '\n'}}, nil
	case 't':
		return runeSet{{'\t', '\t'}}, nil
	case 'r':
		return runeSet{{'\r', '\r'}}, nil
	case 'f':
		return runeSet{{'\f', '\f'}}, nil
	case 'v':
		return runeSet{{'\v', '\v'}}, nil
	case 'x', 'u':
		n := map[byte]int{'x': 2, 'u': 4}[c]
		if len(p.src)-p.pos < n {
			return nil, p.errorf(`short \%c escape`, c)
		}
		v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
		if err != nil {
			return nil, p.errorf(`bad \%c escape`, c)
		}
		p.pos += n
		return runeSet{{rune(v), rune(v)}}, nil
	}
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
		return nil, p.errorf(`escape \%c`, c)
	}
	r, n := utf8.DecodeRuneInString(p.src[p.pos-1:])
	p.pos += n - 1
	return runeSet{{r, r}}, nil
}

// class reads [...] or [^...].
func (p *rxParser) class() (runeSet, error) {
	p.pos++
	neg := p.more() && p.src[p.pos] == '^'
	if neg {
		p.pos++
	}
	var set runeSet
	first := true
	for {
		if !p.more() {
			return nil, p.errorf("missing ]")
		}
		if p.src[p.pos] == ']' && !first {
			p.pos++
			break
		}
		first = false
		lo, err := p.classChar()
		if err != nil {
			return nil, err
		}
		if len(lo) != 1 || lo[0][0] != lo[0][1] || p.pos+1 >= len(p.src) || p.src[p.pos] != '-' || p.src[p.pos+1] == ']' {
			set = append(set, lo...)
			continue
		}
		p.pos++
		hi, err := p.classChar()
		if err != nil {
			return nil, err
		}
		if len(hi) != 1 || hi[0][0] != hi[0][1] || hi[0][0] < lo[0][0] {
			return nil, p.errorf("bad range in class")
		}
		set = append(set, [2]rune{lo[0][0], hi[0][0]})
	}
	if neg {
		return set.invert(), nil
	}
	return set.norm(), nil
}

func (p *rxParser) classChar() (runeSet, error) {
	if p.src[p.pos] == '\\' {
		return p.escape(true)
	}
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += n
	return runeSet{{r, r}}, nil
}
