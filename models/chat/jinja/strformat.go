package jinja

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// strFormat is Python's str.format, sandboxed: fields look up attributes
// and items the way templates do.
func (r *renderer) strFormat(s string, args []Value, kw []Kwarg) (string, error) {
	return r.vformat(s, args, kw, new(int), 2)
}

func (r *renderer) vformat(s string, args []Value, kw []Kwarg, auto *int, depth int) (string, error) {
	if depth < 0 {
		return "", valueErr("Max string recursion exceeded")
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				b.WriteByte('}')
				i++
				continue
			}
			return "", valueErr("Single '}' encountered in format string")
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		end, nest := i+1, 1
		for ; end < len(s) && nest > 0; end++ {
			switch s[end] {
			case '{':
				nest++
			case '}':
				nest--
			}
		}
		if nest > 0 {
			return "", valueErr("expected '}' before end of string")
		}
		out, err := r.formatField(s[i+1:end-1], args, kw, auto, depth)
		if err != nil {
			return "", err
		}
		if err := r.checkLen(b.Len() + len(out)); err != nil {
			return "", err
		}
		b.WriteString(out)
		i = end - 1
	}
	return b.String(), nil
}

func (r *renderer) formatField(field string, args []Value, kw []Kwarg, auto *int, depth int) (string, error) {
	name, spec, hasSpec := cutField(field)
	conv := byte(0)
	if k := strings.IndexByte(name, '!'); k >= 0 {
		if k+2 != len(name) {
			return "", valueErr("expected ':' after conversion specifier")
		}
		conv, name = name[k+1], name[:k]
	}
	v, err := r.fieldValue(name, args, kw, auto)
	if err != nil {
		return "", err
	}
	switch conv {
	case 0:
	case 's':
		v = String(str(v))
	case 'r':
		v = String(repr(v))
	case 'a':
		v = String(asciiRepr(v))
	default:
		return "", valueErr("Unknown conversion specifier %c", conv)
	}
	if hasSpec && strings.IndexByte(spec, '{') >= 0 {
		if spec, err = r.vformat(spec, args, kw, auto, depth-1); err != nil {
			return "", err
		}
	}
	return formatValue(v, spec)
}

// cutField splits "name!c:spec" at the first colon outside brackets.
func cutField(f string) (name, spec string, ok bool) {
	depth := 0
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ':':
			if depth == 0 {
				return f[:i], f[i+1:], true
			}
		}
	}
	return f, "", false
}

func (r *renderer) fieldValue(name string, args []Value, kw []Kwarg, auto *int) (Value, error) {
	first := name
	rest := ""
	if k := strings.IndexAny(name, ".["); k >= 0 {
		first, rest = name[:k], name[k:]
	}
	var v Value
	if first == "" || (first[0] >= '0' && first[0] <= '9') {
		idx := *auto
		if first == "" {
			if *auto < 0 {
				return Value{}, valueErr("cannot switch from manual field specification to automatic field numbering")
			}
			*auto++
		} else {
			if *auto > 0 {
				return Value{}, valueErr("cannot switch from automatic field numbering to manual field specification")
			}
			*auto = -1
			n, err := strconv.Atoi(first)
			if err != nil {
				return Value{}, valueErr("bad field name %s", first)
			}
			idx = n
		}
		if idx >= len(args) {
			return Value{}, newErr(ErrRuntime, "IndexError", "Replacement index %d out of range for positional args tuple", idx)
		}
		v = args[idx]
	} else {
		found := false
		for _, k := range kw {
			if k.Name == first {
				v, found = k.Value, true
			}
		}
		if !found {
			return Value{}, newErr(ErrRuntime, "KeyError", "%s", quote(first))
		}
	}
	for rest != "" {
		var err error
		if rest[0] == '.' {
			k := strings.IndexAny(rest[1:], ".[")
			if k < 0 {
				k = len(rest) - 1
			}
			v, err = getattr(v, rest[1:k+1])
			rest = rest[k+1:]
		} else {
			k := strings.IndexByte(rest, ']')
			if k < 0 {
				return Value{}, valueErr("Missing ']' in format string")
			}
			key := rest[1:k]
			kv := String(key)
			if n, e := strconv.Atoi(key); e == nil {
				kv = Int(int64(n))
			}
			v, err = getitem(v, kv)
			rest = rest[k+1:]
		}
		if err != nil {
			return Value{}, err
		}
	}
	return v, nil
}

// formatValue is Python's format(v, spec) for str, int, float and bool;
// other types accept only an empty spec.
func formatValue(v Value, spec string) (string, error) {
	sp, err := parseFormatSpec(spec)
	if err != nil {
		return "", err
	}
	switch {
	case v.kind == KindString:
		if sp.verb != 0 && sp.verb != 's' {
			return "", valueErr("Unknown format code '%c' for object of type 'str'", sp.verb)
		}
		body := v.s
		if sp.prec >= 0 && runeLen(body) > sp.prec {
			body = string([]rune(body)[:sp.prec])
		}
		return alignField(body, sp, '<'), nil
	case v.kind == KindBool && spec == "":
		return str(v), nil
	case v.isIntLike() && strings.IndexByte("bcdoxXn", sp.verb) >= 0 || v.isIntLike() && sp.verb == 0:
		base := map[byte]int{'b': 2, 'o': 8, 'x': 16, 'X': 16}[sp.verb]
		if sp.verb == 'c' {
			return alignField(string(rune(v.n)), sp, '<'), nil
		}
		if base == 0 {
			base = 10
		}
		body := group(intDigits(v.n, base, &fmtSpec{plus: sp.plus, space: sp.space, verb: sp.verb, prec: -1}), sp.group, base)
		if sp.alt && base != 10 {
			body = strings.Replace(body, strings.TrimLeft(body, "+- "), "0"+string([]byte{map[int]byte{2: 'b', 8: 'o', 16: 'x'}[base]})+strings.TrimLeft(body, "+- "), 1)
		}
		return alignField(body, sp, '>'), nil
	case v.isNumber():
		f := v.asFloat()
		if sp.verb == 0 && sp.prec < 0 {
			body := sign(f < 0, &fmtSpec{plus: sp.plus, space: sp.space}) + strings.TrimPrefix(floatRepr(f), "-")
			return alignField(group(body, sp.group, 10), sp, '>'), nil
		}
		verb := sp.verb
		if verb == 0 {
			verb = 'g'
		}
		if verb == '%' {
			f *= 100
			verb = 'f'
		}
		if strings.IndexByte("eEfFgG", verb) < 0 {
			return "", valueErr("Unknown format code '%c' for object of type '%s'", sp.verb, typeName(v))
		}
		body := group(floatDigits(f, &fmtSpec{plus: sp.plus, space: sp.space, alt: sp.alt, prec: sp.prec, verb: verb}), sp.group, 10)
		if sp.verb == '%' {
			body += "%"
		}
		return alignField(body, sp, '>'), nil
	}
	if spec != "" {
		return "", typeErr("unsupported format string passed to %s.__format__", typeName(v))
	}
	return str(v), nil
}

// parseFormatSpec parses [[fill]align][sign][#][0][width][,][.precision][type].
func parseFormatSpec(spec string) (fmtSpec, error) {
	sp := fmtSpec{width: -1, prec: -1, fill: ' '}
	s := spec
	if r, n := utf8.DecodeRuneInString(s); n > 0 && len(s) > n && strings.IndexByte("<>^=", s[n]) >= 0 {
		sp.fill, sp.align, s = r, s[n], s[n+1:]
	} else if s != "" && strings.IndexByte("<>^=", s[0]) >= 0 {
		sp.align, s = s[0], s[1:]
	}
	if s != "" && strings.IndexByte("+- ", s[0]) >= 0 {
		sp.plus, sp.space, s = s[0] == '+', s[0] == ' ', s[1:]
	}
	if s != "" && s[0] == '#' {
		sp.alt, s = true, s[1:]
	}
	if s != "" && s[0] == '0' {
		sp.zero, s = true, s[1:]
	}
	w := 0
	for ; w < len(s) && s[w] >= '0' && s[w] <= '9'; w++ {
	}
	if w > 0 {
		n, err := strconv.Atoi(s[:w])
		if err != nil || n > 1<<20 {
			return sp, valueErr("Too many decimal digits in format string")
		}
		sp.width, s = n, s[w:]
	}
	if s != "" && (s[0] == ',' || s[0] == '_') {
		sp.group, s = s[0], s[1:]
	}
	if s != "" && s[0] == '.' {
		p := 1
		for ; p < len(s) && s[p] >= '0' && s[p] <= '9'; p++ {
		}
		if p == 1 {
			return sp, valueErr("Format specifier missing precision")
		}
		n, err := strconv.Atoi(s[1:p])
		if err != nil || n > 1<<20 {
			return sp, valueErr("Too many decimal digits in format string")
		}
		sp.prec, s = n, s[p:]
	}
	if len(s) > 1 {
		return sp, valueErr("Invalid format specifier '%s'", spec)
	}
	if s != "" {
		sp.verb = s[0]
	}
	return sp, nil
}

func alignField(body string, sp fmtSpec, defAlign byte) string {
	align := sp.align
	if align == 0 {
		align = defAlign
		if sp.zero {
			sp.fill, align = '0', '='
		}
	}
	if align == '=' {
		n := runeLen(body)
		if sp.width <= n {
			return body
		}
		i := 0
		if body != "" && strings.IndexByte("+- ", body[0]) >= 0 {
			i = 1
		}
		return body[:i] + strings.Repeat(string(sp.fill), sp.width-n) + body[i:]
	}
	n := runeLen(body)
	if sp.width <= n {
		return body
	}
	total, left := sp.width-n, 0
	switch align {
	case '>':
		left = total
	case '^':
		left = total / 2
	}
	f := string(sp.fill)
	return strings.Repeat(f, left) + body + strings.Repeat(f, total-left)
}

// group inserts a thousands separator into the leading digits of a
// formatted number (every 4 digits for binary, octal and hex).
func group(num string, sep byte, base int) string {
	if sep == 0 {
		return num
	}
	i := 0
	for i < len(num) && strings.IndexByte("+- ", num[i]) >= 0 {
		i++
	}
	j := i
	for j < len(num) && (num[j] >= '0' && num[j] <= '9' || base == 16 && strings.IndexByte("abcdefABCDEF", num[j]) >= 0) {
		j++
	}
	every := 3
	if base != 10 {
		every = 4
	}
	digits := num[i:j]
	var b strings.Builder
	for k := range digits {
		if k > 0 && (len(digits)-k)%every == 0 {
			b.WriteByte(sep)
		}
		b.WriteByte(digits[k])
	}
	return num[:i] + b.String() + num[j:]
}
