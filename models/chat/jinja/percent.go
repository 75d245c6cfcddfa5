package jinja

import (
	"math"
	"strconv"
	"strings"
)

// fmtSpec is one parsed conversion of printf-style or format-spec
// formatting.
type fmtSpec struct {
	minus, plus, space, alt, zero bool
	width, prec                   int // -1 when absent
	fill                          rune
	align                         byte // 0, '<', '>', '^', '='
	verb                          byte
	group                         byte // ',' or '_' thousands separator (format specs only)
}

// percentFormat is Python's str % args.
func (r *renderer) percentFormat(f, arg Value) (Value, error) {
	args := []Value{arg}
	if arg.kind == KindTuple {
		args = arg.items
	}
	var mapping Value
	if arg.kind == KindDict || arg.kind == KindList {
		mapping = arg
	}
	var b strings.Builder
	s, argi := f.s, 0
	next := func() (Value, error) {
		if argi >= len(args) {
			return Value{}, typeErr("not enough arguments for format string")
		}
		argi++
		return args[argi-1], nil
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i >= len(s) {
			return Value{}, valueErr("incomplete format")
		}
		var val Value
		haveVal := false
		if s[i] == '(' {
			end, depth := i+1, 1
			for ; end < len(s) && depth > 0; end++ {
				switch s[end] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			if depth > 0 {
				return Value{}, valueErr("incomplete format key")
			}
			if mapping.kind != KindDict {
				return Value{}, typeErr("format requires a mapping")
			}
			v, err := getitem(mapping, String(s[i+1:end-1]))
			if err != nil {
				return Value{}, err
			}
			if v.kind == KindUndefined {
				return Value{}, newErr(ErrRuntime, "KeyError", "%s", quote(s[i+1:end-1]))
			}
			val, haveVal, i = v, true, end
		}
		sp := fmtSpec{width: -1, prec: -1, fill: ' '}
		for ; i < len(s) && strings.IndexByte("-+ #0", s[i]) >= 0; i++ {
			switch s[i] {
			case '-':
				sp.minus = true
			case '+':
				sp.plus = true
			case ' ':
				sp.space = true
			case '#':
				sp.alt = true
			case '0':
				sp.zero = true
			}
		}
		num := func() (int, error) {
			if i < len(s) && s[i] == '*' {
				i++
				v, err := next()
				if err != nil {
					return 0, err
				}
				if !v.isIntLike() {
					return 0, typeErr("* wants int")
				}
				return int(max(min(v.n, 1<<20), -(1 << 20))), nil
			}
			n := -1
			for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
				n = max(n, 0)*10 + int(s[i]-'0')
				if n > 1<<20 {
					return 0, valueErr("width too big")
				}
			}
			return n, nil
		}
		var err error
		if sp.width, err = num(); err != nil {
			return Value{}, err
		}
		if sp.width < -1 {
			sp.minus, sp.width = true, -sp.width
		}
		if i < len(s) && s[i] == '.' {
			i++
			if sp.prec, err = num(); err != nil {
				return Value{}, err
			}
			sp.prec = max(sp.prec, 0)
		}
		for i < len(s) && strings.IndexByte("hlL", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			return Value{}, valueErr("incomplete format")
		}
		sp.verb = s[i]
		if sp.verb == '%' {
			b.WriteByte('%')
			continue
		}
		if !haveVal {
			if val, err = next(); err != nil {
				return Value{}, err
			}
		}
		out, err := percentOne(val, &sp, i)
		if err != nil {
			return Value{}, err
		}
		if f.safe && strings.IndexByte("sra", sp.verb) >= 0 && !(sp.verb == 's' && val.kind == KindString && val.safe) {
			out = htmlEscape(out) // Markup % args escapes the arguments
		}
		if err := r.checkLen(b.Len() + len(out)); err != nil {
			return Value{}, err
		}
		b.WriteString(out)
	}
	if argi < len(args) && mapping.kind == KindUndefined {
		return Value{}, typeErr("not all arguments converted during string formatting")
	}
	if f.safe {
		return Markup(b.String()), nil
	}
	return String(b.String()), nil
}

func percentOne(v Value, sp *fmtSpec, at int) (string, error) {
	if v.kind == KindUndefined && strings.IndexByte("sra", sp.verb) < 0 {
		return "", v.undefinedError()
	}
	var body string
	numeric := true
	switch sp.verb {
	case 's', 'r', 'a':
		numeric = false
		switch sp.verb {
		case 's':
			body = str(v)
		case 'r':
			body = repr(v)
		default:
			body = asciiRepr(v)
		}
		if sp.prec >= 0 && runeLen(body) > sp.prec {
			body = string([]rune(body)[:sp.prec])
		}
	case 'd', 'i', 'u':
		if !v.isNumber() {
			return "", typeErr("%%%c format: a real number is required, not %s", sp.verb, typeName(v))
		}
		n, err := toInt(v)
		if err != nil {
			return "", err
		}
		body = intDigits(n, 10, sp)
	case 'x', 'X', 'o':
		if !v.isIntLike() {
			return "", typeErr("%%%c format: an integer is required, not %s", sp.verb, typeName(v))
		}
		body = intDigits(v.n, map[byte]int{'x': 16, 'X': 16, 'o': 8}[sp.verb], sp)
	case 'e', 'E', 'f', 'F', 'g', 'G':
		if !v.isNumber() {
			return "", typeErr("must be real number, not %s", typeName(v))
		}
		body = floatDigits(v.asFloat(), sp)
	case 'c':
		numeric = false
		switch {
		case v.isIntLike() && v.n >= 0 && v.n <= 0x10ffff:
			body = string(rune(v.n))
		case v.kind == KindString && runeLen(v.s) == 1:
			body = v.s
		default:
			return "", typeErr("%%c requires int or char")
		}
	default:
		return "", valueErr("unsupported format character '%c' (0x%x) at index %d", sp.verb, sp.verb, at)
	}
	return applyWidth(body, sp, numeric), nil
}

func toInt(v Value) (int64, error) {
	if v.isIntLike() {
		return v.n, nil
	}
	if math.IsNaN(v.f) || math.IsInf(v.f, 0) || math.Abs(v.f) >= 1<<63 {
		return 0, newErr(ErrRuntime, "OverflowError", "cannot convert float %s to integer", floatRepr(v.f))
	}
	return int64(v.f), nil
}

// intDigits formats n with a sign, an optional 0x/0o prefix and the
// precision as a minimum digit count.
func intDigits(n int64, base int, sp *fmtSpec) string {
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u
	}
	d := strconv.FormatUint(u, base)
	if sp.verb == 'X' {
		d = strings.ToUpper(d)
	}
	if sp.prec > len(d) {
		d = strings.Repeat("0", sp.prec-len(d)) + d
	}
	if sp.alt && base != 10 {
		d = "0" + string(sp.verb) + d
	}
	return sign(neg, sp) + d
}

func sign(neg bool, sp *fmtSpec) string {
	switch {
	case neg:
		return "-"
	case sp.plus:
		return "+"
	case sp.space:
		return " "
	}
	return ""
}

func floatDigits(f float64, sp *fmtSpec) string {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	prec := sp.prec
	if prec < 0 {
		prec = 6
	}
	var d string
	switch {
	case math.IsInf(a, 0):
		d = "inf"
	case math.IsNaN(a):
		d = "nan"
	default:
		verb := sp.verb | 0x20
		if verb == 'g' && prec == 0 {
			prec = 1
		}
		d = strconv.FormatFloat(a, verb, prec, 64)
		if verb == 'g' && sp.alt && !strings.ContainsAny(d, ".e") {
			d += "."
		}
	}
	if sp.verb >= 'A' && sp.verb <= 'Z' {
		d = strings.ToUpper(d)
	}
	return sign(neg, sp) + d
}

// applyWidth pads body to the width: left-justified with "-", zero padded
// after the sign with "0" for numbers, else right-justified.
func applyWidth(body string, sp *fmtSpec, numeric bool) string {
	n := runeLen(body)
	if sp.width <= n {
		return body
	}
	padN := sp.width - n
	switch {
	case sp.minus:
		return body + strings.Repeat(" ", padN)
	case sp.zero && numeric:
		i := 0
		if body != "" && strings.IndexByte("+- ", body[0]) >= 0 {
			i = 1
		}
		if len(body) >= i+2 && body[i] == '0' && strings.IndexByte("xXo", body[i+1]) >= 0 {
			i += 2
		}
		return body[:i] + strings.Repeat("0", padN) + body[i:]
	}
	return strings.Repeat(" ", padN) + body
}

// asciiRepr is Python's ascii(v).
func asciiRepr(v Value) string {
	var b strings.Builder
	for _, r := range repr(v) {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			b.WriteString(escapeRune(r))
		}
	}
	return b.String()
}
