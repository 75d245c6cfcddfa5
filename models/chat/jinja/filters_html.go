package jinja

import (
	"html"
	"regexp"
	"strings"
)

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", "\"", "&#34;")

func htmlEscape(s string) string { return htmlEscaper.Replace(s) }

func filterEscape(r *renderer, v Value, _ bound) (Value, error) {
	if v.kind == KindString && v.safe {
		return v, nil
	}
	return Markup(htmlEscape(str(v))), nil
}

func filterForceEscape(r *renderer, v Value, _ bound) (Value, error) {
	return Markup(htmlEscape(str(v))), nil
}

var (
	stripComments = regexp.MustCompile(`(?s)<!--.*?-->`)
	stripTags     = regexp.MustCompile(`(?s)<.*?>`)
)

func filterStriptags(r *renderer, v Value, _ bound) (Value, error) {
	s := stripTags.ReplaceAllString(stripComments.ReplaceAllString(str(v), ""), "")
	s = strings.Join(strings.FieldsFunc(s, isSpace), " ")
	return String(html.UnescapeString(s)), nil
}

func urlQuote(v Value, forQS bool) string {
	s := str(v)
	safe := "/"
	if forQS {
		safe = ""
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("_.-~", c) >= 0,
			strings.IndexByte(safe, c) >= 0:
			b.WriteByte(c)
		case c == ' ' && forQS:
			b.WriteByte('+')
		default:
			b.WriteString("%" + strings.ToUpper(hex2(int(c))))
		}
	}
	return b.String()
}

func filterURLEncode(r *renderer, v Value, _ bound) (Value, error) {
	var pairs []Value
	switch v.kind {
	case KindDict:
		var err error
		if pairs, err = r.dictItems(v.ref.(*Dict)); err != nil {
			return Value{}, err
		}
	case KindList, KindTuple, KindIter:
		pairs, _ = r.iterate(v)
	default:
		return String(urlQuote(v, false)), nil
	}
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		kv, err := r.unpack(p, 2)
		if err != nil {
			return Value{}, err
		}
		parts[i] = urlQuote(kv[0], true) + "=" + urlQuote(kv[1], true)
	}
	return String(strings.Join(parts, "&")), nil
}

var badAttrKey = regexp.MustCompile(`[\s/>=]`)

func filterXMLAttr(r *renderer, v Value, a bound) (Value, error) {
	d, ok := v.AsDict()
	if !ok {
		return Value{}, newErr(ErrRuntime, "AttributeError", "'%s' object has no attribute 'items'", typeName(v))
	}
	var items []string
	for i, k := range d.keys {
		val := d.vals[i]
		if val.kind == KindNone || val.kind == KindUndefined {
			continue
		}
		key := str(k)
		if badAttrKey.MatchString(key) {
			return Value{}, valueErr("Invalid character in attribute name: %s", repr(k))
		}
		items = append(items, htmlEscape(key)+`="`+htmlEscape(str(val))+`"`)
	}
	s := strings.Join(items, " ")
	if s != "" && truth(a.get(0, Bool(true))) {
		s = " " + s
	}
	return String(s), nil
}

func filterAttr(r *renderer, v Value, a bound) (Value, error) {
	if v.kind == KindUndefined {
		return Value{}, v.undefinedError()
	}
	name := a.get(0, None())
	if name.kind != KindString {
		return Value{}, typeErr("attribute name must be string, not '%s'", typeName(name))
	}
	if at, ok := attribute(v, name.s); ok {
		return at, nil
	}
	return undefAttr(v, name), nil
}

// filterToJSON is transformers' tojson: json.dumps with ensure_ascii off
// by default, Python's separators and the given indent.
func filterToJSON(r *renderer, v Value, a bound) (Value, error) {
	o := &jsonOpts{ascii: truth(a.get(0, Bool(false))), sortKeys: truth(a.get(3, Bool(false))),
		itemSep: ", ", keySep: ": ", maxOutput: r.maxOutput}
	switch ind := a.get(1, None()); {
	case ind.kind == KindNone:
	case ind.kind == KindString:
		o.indent = &ind.s
	case ind.isIntLike():
		s := strings.Repeat(" ", int(max(min(ind.n, 1024), 0)))
		o.indent = &s
	default:
		return Value{}, typeErr("can't multiply sequence by non-int of type '%s'", typeName(ind))
	}
	if o.indent != nil {
		o.itemSep = ","
	}
	if sep := a.get(2, None()); sep.kind != KindNone {
		parts, err := r.unpack(sep, 2)
		if err != nil {
			return Value{}, err
		}
		o.itemSep, o.keySep = str(parts[0]), str(parts[1])
	}
	s, err := dumpJSON(v, o)
	if err != nil {
		return Value{}, err
	}
	return String(s), r.checkLen(len(s))
}

// filterPprint is pprint.pformat without line wrapping: a repr with the
// keys of dicts sorted.
func filterPprint(r *renderer, v Value, _ bound) (Value, error) {
	w := reprWriter{sortKeys: true}
	w.value(v, 0)
	return String(w.b.String()), r.checkLen(w.b.Len())
}

// filterWordwrap wraps each line greedily at spaces, breaking words longer
// than the width when asked (a simplification of Python's textwrap).
func filterWordwrap(r *renderer, v Value, a bound) (Value, error) {
	width, err := intArg(a.get(0, Int(79)), 79)
	if err != nil {
		return Value{}, err
	}
	if width <= 0 {
		return Value{}, valueErr("invalid width %d (must be > 0)", width)
	}
	breakLong := truth(a.get(1, Bool(true)))
	wrap := str(a.get(2, String("\n")))
	var lines []string
	for _, para := range pySplitlines(str(v), false) {
		var cur []rune
		var out []string
		for _, w := range strings.Fields(para) {
			rw := []rune(w)
			for breakLong && int64(len(rw)) > width && len(cur) == 0 {
				out = append(out, string(rw[:width]))
				rw = rw[width:]
			}
			switch {
			case len(rw) == 0:
			case len(cur) == 0:
				cur = rw
			case int64(len(cur)+1+len(rw)) <= width:
				cur = append(append(cur, ' '), rw...)
			default:
				out = append(out, string(cur))
				cur = rw
				for breakLong && int64(len(cur)) > width {
					out = append(out, string(cur[:width]))
					cur = cur[width:]
				}
			}
		}
		if len(cur) > 0 {
			out = append(out, string(cur))
		}
		lines = append(lines, strings.Join(out, wrap))
	}
	s := strings.Join(lines, wrap)
	return String(s), r.checkLen(len(s))
}
