package tokenizer

import "strings"

// atomicPossessive rewrites the possessive quantifiers of Oniguruma
// patterns (X?+, X*+, X++), which the regex engine here lacks, into the
// atomic groups they stand for ((?>X?), (?>X*), (?>X+)). X is a character
// class, an escape, a group or one character. Patterns without them come
// back unchanged.
func atomicPossessive(p string) string {
	if !strings.Contains(p, "++") && !strings.Contains(p, "*+") && !strings.Contains(p, "?+") {
		return p
	}
	var out strings.Builder
	for i := 0; i < len(p); {
		n := atomLen(p, i)
		if n == 0 {
			return p // unbalanced: leave it to the regex compiler
		}
		atom := p[i : i+n]
		if atom[0] == '(' {
			atom = "(" + atomicPossessive(atom[1:n-1]) + ")"
		}
		i += n
		if i+1 < len(p) && strings.IndexByte("?*+", p[i]) >= 0 && p[i+1] == '+' {
			out.WriteString("(?>" + atom + p[i:i+1] + ")")
			i += 2
			continue
		}
		out.WriteString(atom)
	}
	return out.String()
}

// atomLen returns the length of the atom at p[i]: a bracket class, an
// escape (with a \p{...} property), a parenthesized group, or one rune;
// 0 when a class or group is not closed.
func atomLen(p string, i int) int {
	switch p[i] {
	case '\\':
		if i+2 < len(p) && (p[i+1] == 'p' || p[i+1] == 'P') && p[i+2] == '{' {
			if j := strings.IndexByte(p[i:], '}'); j > 0 {
				return j + 1
			}
			return 0
		}
		if i+1 < len(p) {
			return 1 + runeLen(p, i+1)
		}
		return 1
	case '[':
		j := i + 1
		if j < len(p) && p[j] == '^' {
			j++
		}
		if j < len(p) && p[j] == ']' {
			j++
		}
		return closeAt(p, i, j, ']')
	case '(':
		return closeAt(p, i, i, ')')
	}
	return runeLen(p, i)
}

// closeAt returns the length from p[i] to the closing byte (']' for a
// class, ')' for a group, counting nested groups) found from p[j] on,
// stepping over escapes and nested classes; 0 when it is missing.
func closeAt(p string, i, j int, end byte) int {
	depth := 0
	for ; j < len(p); j++ {
		switch c := p[j]; {
		case c == '\\':
			j++
		case c == '[':
			if n := atomLen(p, j); n > 0 {
				j += n - 1
			}
		case c == '(' && end == ')':
			depth++
		case c == end:
			if end == ']' {
				return j - i + 1
			}
			if depth--; depth == 0 {
				return j - i + 1
			}
		}
	}
	return 0
}
