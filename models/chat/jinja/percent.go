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
	p := percentScan{s: f.s, args: []Value{arg}}
	if arg.kind == KindTuple {
		p.args = arg.items
	}
	if arg.kind == KindDict || arg.kind == KindList {
		p.mapping = arg
	}
	var b strings.Builder
	for ; p.i < len(p.s); p.i++ {
		if p.s[p.i] != '%' {
			b.WriteByte(p.s[p.i])
			continue
		}
		p.i++
		val, haveVal, err := p.key()
		if err != nil {
			return Value{}, err
		}
		sp, err := p.spec()
		if err != nil {
			return Value{}, err
		}
		if sp.verb == '%' {
			b.WriteByte('%')
			continue
		}
		if !haveVal {
			if val, err = p.next(); err != nil {
				return Value{}, err
			}
		}
		out, err := percentOne(val, &sp, p.i)
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
	if p.argi < len(p.args) && p.mapping.kind == KindUndefined {
		return Value{}, typeErr("not all arguments converted during string formatting")
	}
	if f.safe {
		return Markup(b.String()), nil
	}
	return String(b.String()), nil
}

// percentScan walks a printf-style format string and its arguments.
type percentScan struct {
	s       string
	i       int // position in s
	args    []Value
	argi    int   // next argument
	mapping Value // the dict for %(key)s conversions, else undefined
}

// next returns the next positional argument.
func (p *percentScan) next() (Value, error) {
	if p.argi >= len(p.args) {
		return Value{}, typeErr("not enough arguments for format string")
	}
	p.argi++
	return p.args[p.argi-1], nil
}

// key reads an optional "(key)" after a '%' and returns the mapping's
// value for it.
func (p *percentScan) key() (Value, bool, error) {
	if p.i >= len(p.s) {
		return Value{}, false, valueErr("incomplete format")
	}
	if p.s[p.i] != '(' {
		return Value{}, false, nil
	}
	end, depth := p.i+1, 1
	for ; end < len(p.s) && depth > 0; end++ {
		switch p.s[end] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	if depth > 0 {
		return Value{}, false, valueErr("incomplete format key")
	}
	if p.mapping.kind != KindDict {
		return Value{}, false, typeErr("format requires a mapping")
	}
	name := p.s[p.i+1 : end-1]
	v, err := getitem(p.mapping, String(name))
	if err != nil {
		return Value{}, false, err
	}
	if v.kind == KindUndefined {
		return Value{}, false, newErr(ErrRuntime, "KeyError", "%s", quote(name))
	}
	p.i = end
	return v, true, nil
}

// spec reads the flags, width, precision, length modifier and conversion
// character of one conversion; p.i is left on the conversion character.
func (p *percentScan) spec() (fmtSpec, error) {
	sp := fmtSpec{width: -1, prec: -1, fill: ' '}
	for ; p.i < len(p.s) && strings.IndexByte("-+ #0", p.s[p.i]) >= 0; p.i++ {
		switch p.s[p.i] {
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
	var err error
	if sp.width, err = p.num(); err != nil {
		return sp, err
	}
	if sp.width < -1 {
		sp.minus, sp.width = true, -sp.width
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if sp.prec, err = p.num(); err != nil {
			return sp, err
		}
		sp.prec = max(sp.prec, 0)
	}
	for p.i < len(p.s) && strings.IndexByte("hlL", p.s[p.i]) >= 0 {
		p.i++
	}
	if p.i >= len(p.s) {
		return sp, valueErr("incomplete format")
	}
	sp.verb = p.s[p.i]
	return sp, nil
}

// num reads a width or precision: digits, or '*' for the next argument;
// -1 when there is none.
func (p *percentScan) num() (int, error) {
	if p.i < len(p.s) && p.s[p.i] == '*' {
		p.i++
		v, err := p.next()
		if err != nil {
			return 0, err
		}
		if !v.isIntLike() {
			return 0, typeErr("* wants int")
		}
		return int(max(min(v.n, 1<<20), -(1 << 20))), nil
	}
	n := -1
	for ; p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9'; p.i++ {
		n = max(n, 0)*10 + int(p.s[p.i]-'0')
		if n > 1<<20 {
			return 0, valueErr("width too big")
		}
	}
	return n, nil
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
