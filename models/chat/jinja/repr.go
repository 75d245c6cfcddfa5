package jinja

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxReprDepth bounds the nesting that str, repr, tojson and == walk, as
// Python's recursion limit does.
const maxReprDepth = 500

// reprCap bounds the text str and repr build, so that a value sharing
// its parts many times over cannot expand without end; longer results are
// cut and then refused by the output limit.
const reprCap = DefaultMaxOutput + 1

// str is Python's str(v), as jinja2 prints values.
func str(v Value) string {
	switch v.kind {
	case KindUndefined:
		return ""
	case KindString:
		return v.s
	}
	return repr(v)
}

// repr is Python's repr(v).
func repr(v Value) string { return reprCapped(v, reprCap) }

// reprCapped is repr cut after about limit bytes.
func reprCapped(v Value, limit int) string {
	w := reprWriter{limit: limit}
	w.value(v, 0)
	return w.b.String()
}

// str is str(v) cut after the output limit, which refuses it.
func (r *renderer) str(v Value) string {
	switch v.kind {
	case KindUndefined:
		return ""
	case KindString:
		return v.s
	}
	return reprCapped(v, r.maxOutput+1)
}

// reprWriter writes Python reprs up to reprCap bytes; sortKeys sorts the
// keys of dicts (pprint).
type reprWriter struct {
	b        strings.Builder
	limit    int // bytes after which writing stops; 0 means reprCap
	sortKeys bool
	active   map[*Dict]bool // dicts being written, to print a cycle as {...}
}

func (w *reprWriter) full() bool {
	if w.limit == 0 {
		return w.b.Len() > reprCap
	}
	return w.b.Len() > w.limit
}

func (w *reprWriter) value(v Value, depth int) {
	if w.full() {
		return
	}
	if depth > maxReprDepth {
		w.b.WriteString("[...]")
		return
	}
	switch v.kind {
	case KindList:
		w.seq(v.items, "[", "]", depth)
	case KindTuple:
		if len(v.items) == 1 {
			w.b.WriteByte('(')
			w.value(v.items[0], depth+1)
			w.b.WriteString(",)")
			return
		}
		w.seq(v.items, "(", ")", depth)
	case KindDict:
		w.dict(v.ref.(*Dict), depth)
	case KindObject:
		if ns, ok := v.ref.(*namespace); ok {
			w.b.WriteString("<Namespace ")
			w.dict(ns.d, depth+1)
			w.b.WriteByte('>')
			return
		}
		w.b.WriteString(scalarRepr(v))
	default:
		w.b.WriteString(scalarRepr(v))
	}
}

func scalarRepr(v Value) string {
	switch v.kind {
	case KindUndefined:
		return "Undefined"
	case KindNone:
		return "None"
	case KindBool:
		if v.n != 0 {
			return "True"
		}
		return "False"
	case KindInt:
		return strconv.FormatInt(v.n, 10)
	case KindFloat:
		return floatRepr(v.f)
	case KindString:
		if v.safe {
			return "Markup(" + quote(v.s) + ")"
		}
		return quote(v.s)
	case KindIter:
		return v.ref.(*iterator).repr()
	case KindObject:
		return v.ref.(object).repr()
	}
	return "?"
}

func (w *reprWriter) seq(items []Value, open, close string, depth int) {
	w.b.WriteString(open)
	for i, it := range items {
		if i > 0 {
			w.b.WriteString(", ")
		}
		w.value(it, depth+1)
		if w.full() {
			return
		}
	}
	w.b.WriteString(close)
}

func (w *reprWriter) dict(d *Dict, depth int) {
	if w.active[d] {
		w.b.WriteString("{...}")
		return
	}
	if w.active == nil {
		w.active = map[*Dict]bool{}
	}
	w.active[d] = true
	defer delete(w.active, d)
	order := make([]int, d.Len())
	for i := range order {
		order[i] = i
	}
	if w.sortKeys {
		sort.SliceStable(order, func(i, j int) bool { lt, _ := less(d.keys[order[i]], d.keys[order[j]]); return lt })
	}
	w.b.WriteByte('{')
	for n, i := range order {
		if n > 0 {
			w.b.WriteString(", ")
		}
		w.value(d.keys[i], depth+1)
		w.b.WriteString(": ")
		w.value(d.vals[i], depth+1)
		if w.full() {
			return
		}
	}
	w.b.WriteByte('}')
}

func seqRepr(items []Value, open, close string) string {
	w := reprWriter{}
	w.seq(items, open, close, 0)
	return w.b.String()
}

// quote is Python's repr of a str.
func quote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < ' ' || r == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(hex2(int(r)))
		case r < 0x7f || isPrintable(r):
			b.WriteRune(r)
		default:
			b.WriteString(escapeRune(r))
		}
	}
	b.WriteByte(q)
	return b.String()
}

// escapeRune is Python's backslash escape of a non-printable character.
func escapeRune(r rune) string {
	switch {
	case r <= 0xff:
		return `\x` + hex2(int(r))
	case r <= 0xffff:
		h := strconv.FormatInt(int64(r), 16)
		return `\u` + strings.Repeat("0", 4-len(h)) + h
	}
	h := strconv.FormatInt(int64(r), 16)
	return `\U` + strings.Repeat("0", 8-len(h)) + h
}

func hex2(n int) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[n>>4&0xf], digits[n&0xf]})
}

// isPrintable is Python's str.isprintable for one character.
func isPrintable(r rune) bool {
	return r != utf8.RuneError && unicode.IsPrint(r)
}

// floatRepr is Python's repr of a float: the shortest digits that round
// trip, positional between 1e-4 and 1e16, with ".0" on integral values.
func floatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	decpt := exp + 1
	if decpt > 16 || decpt < -3 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		x := strconv.Itoa(exp)
		if len(x) < 2 {
			x = "0" + x
		}
		return sign + m + "e" + es + x
	}
	switch {
	case decpt <= 0:
		return sign + "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= len(digits):
		return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	}
	return sign + digits[:decpt] + "." + digits[decpt:]
}
