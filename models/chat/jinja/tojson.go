package jinja

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonOpts are the arguments of Python's json.dumps that tojson passes.
type jsonOpts struct {
	ascii     bool
	indent    *string
	itemSep   string
	keySep    string
	sortKeys  bool
	maxOutput int
}

// dumpJSON is Python's json.dumps(v, ...) with the given options.
func dumpJSON(v Value, o *jsonOpts) (string, error) {
	var b strings.Builder
	if err := o.encode(&b, v, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

func (o *jsonOpts) encode(b *strings.Builder, v Value, level int) error {
	if level > maxReprDepth {
		return newErr(ErrRuntime, "RecursionError", "maximum recursion depth exceeded while encoding a JSON object")
	}
	if o.maxOutput > 0 && b.Len() > o.maxOutput {
		return limitErr("tojson output exceeds %d bytes", o.maxOutput)
	}
	switch v.kind {
	case KindNone:
		b.WriteString("null")
	case KindBool:
		if v.n != 0 {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindInt:
		b.WriteString(strconv.FormatInt(v.n, 10))
	case KindFloat:
		b.WriteString(jsonFloat(v.f))
	case KindString:
		o.str(b, v.s)
	case KindList, KindTuple:
		return o.array(b, v.items, level)
	case KindDict:
		return o.object(b, v.ref.(*Dict), level)
	default:
		return typeErr("Object of type %s is not JSON serializable", typeName(v))
	}
	return nil
}

func jsonFloat(f float64) string {
	switch s := floatRepr(f); s {
	case "nan":
		return "NaN"
	case "inf":
		return "Infinity"
	case "-inf":
		return "-Infinity"
	default:
		return s
	}
}

func (o *jsonOpts) newline(b *strings.Builder, level int) {
	b.WriteByte('\n')
	for range level {
		b.WriteString(*o.indent)
	}
}

func (o *jsonOpts) array(b *strings.Builder, items []Value, level int) error {
	if len(items) == 0 {
		b.WriteString("[]")
		return nil
	}
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteString(o.itemSep)
		}
		if o.indent != nil {
			o.newline(b, level+1)
		}
		if err := o.encode(b, it, level+1); err != nil {
			return err
		}
	}
	if o.indent != nil {
		o.newline(b, level)
	}
	b.WriteByte(']')
	return nil
}

func (o *jsonOpts) object(b *strings.Builder, d *Dict, level int) error {
	if d.Len() == 0 {
		b.WriteString("{}")
		return nil
	}
	order := make([]int, d.Len())
	for i := range order {
		order[i] = i
	}
	if o.sortKeys {
		var err error
		sort.SliceStable(order, func(i, j int) bool {
			lt, e := less(d.keys[order[i]], d.keys[order[j]])
			if e != nil && err == nil {
				err = e
			}
			return lt
		})
		if err != nil {
			return err
		}
	}
	b.WriteByte('{')
	for n, i := range order {
		key, err := jsonKey(d.keys[i])
		if err != nil {
			return err
		}
		if n > 0 {
			b.WriteString(o.itemSep)
		}
		if o.indent != nil {
			o.newline(b, level+1)
		}
		o.str(b, key)
		b.WriteString(o.keySep)
		if err := o.encode(b, d.vals[i], level+1); err != nil {
			return err
		}
	}
	if o.indent != nil {
		o.newline(b, level)
	}
	b.WriteByte('}')
	return nil
}

func jsonKey(k Value) (string, error) {
	switch k.kind {
	case KindString:
		return k.s, nil
	case KindFloat:
		return jsonFloat(k.f), nil
	case KindBool:
		if k.n != 0 {
			return "true", nil
		}
		return "false", nil
	case KindInt:
		return strconv.FormatInt(k.n, 10), nil
	case KindNone:
		return "null", nil
	}
	return "", typeErr("keys must be str, int, float, bool or None, not %s", typeName(k))
}

// str writes a JSON string with Python's escapes: control characters,
// quote and backslash always; everything beyond ASCII too when ascii.
func (o *jsonOpts) str(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20 || (o.ascii && r == 0x7f):
				b.WriteString(`\u00` + hex2(int(r)))
			case o.ascii && r > 0x7f:
				if r > 0xffff {
					r -= 0x10000
					b.WriteString(u4(0xd800 + (r>>10)&0x3ff))
					b.WriteString(u4(0xdc00 + r&0x3ff))
				} else {
					b.WriteString(u4(r))
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

func u4(r rune) string { return `\u` + hex2(int(r>>8)) + hex2(int(r&0xff)) }
