package jinja

import (
	"regexp"
	"strings"
	"unicode"
)

type filterFunc func(r *renderer, v Value, args []Value, kw []Kwarg) (Value, error)

// filterTable holds jinja2's built-in filters, with transformers' tojson.
var filterTable map[string]filterFunc

func init() {
	filterTable = map[string]filterFunc{
		"abs": sig("abs", nil, filterAbs), "attr": sig("do_attr", []string{"name"}, filterAttr),
		"batch":      sig("do_batch", []string{"linecount", "fill_with"}, filterBatch),
		"capitalize": strFilter(pyCapitalize), "center": sig("do_center", []string{"width"}, filterCenter),
		"count": sig("len", nil, filterLength), "length": sig("len", nil, filterLength),
		"d":        sig("do_default", []string{"default_value", "boolean"}, filterDefault),
		"default":  sig("do_default", []string{"default_value", "boolean"}, filterDefault),
		"dictsort": sig("do_dictsort", []string{"case_sensitive", "by", "reverse"}, filterDictsort),
		"e":        sig("escape", nil, filterEscape), "escape": sig("escape", nil, filterEscape),
		"filesizeformat": sig("do_filesizeformat", []string{"binary"}, filterFilesize),
		"first":          sig("do_first", nil, filterFirst),
		"float":          sig("do_float", []string{"default"}, filterFloat),
		"forceescape":    sig("do_forceescape", nil, filterForceEscape),
		"format":         filterFormat,
		"groupby":        sig("do_groupby", []string{"attribute", "default", "case_sensitive"}, filterGroupby),
		"indent":         sig("do_indent", []string{"width", "first", "blank"}, filterIndent),
		"int":            sig("do_int", []string{"default", "base"}, filterInt),
		"items":          sig("do_items", nil, filterItems),
		"join":           sig("do_join", []string{"d", "attribute"}, filterJoin),
		"last":           sig("do_last", nil, filterLast),
		"list":           sig("do_list", nil, filterList),
		"lower":          strFilter(pyLower),
		"map":            filterMap,
		"max":            sig("do_max", []string{"case_sensitive", "attribute"}, minMax(true)),
		"min":            sig("do_min", []string{"case_sensitive", "attribute"}, minMax(false)),
		"pprint":         sig("do_pprint", nil, filterPprint),
		"random":         sig("do_random", nil, filterRandom),
		"reject":         selectFilter(false, false), "rejectattr": selectFilter(false, true),
		"select": selectFilter(true, false), "selectattr": selectFilter(true, true),
		"replace":   sig("do_replace", []string{"old", "new", "count"}, filterReplace),
		"reverse":   sig("do_reverse", nil, filterReverse),
		"round":     sig("do_round", []string{"precision", "method"}, filterRound),
		"safe":      sig("do_mark_safe", nil, func(r *renderer, v Value, _ bound) (Value, error) { return Markup(str(v)), nil }),
		"slice":     sig("do_slice", []string{"slices", "fill_with"}, filterSlice),
		"sort":      sig("do_sort", []string{"reverse", "case_sensitive", "attribute"}, filterSort),
		"string":    sig("soft_str", nil, func(r *renderer, v Value, _ bound) (Value, error) { return softStr(v), nil }),
		"striptags": sig("do_striptags", nil, filterStriptags),
		"sum":       sig("do_sum", []string{"attribute", "start"}, filterSum),
		"title":     strFilter(jinjaTitle),
		"tojson":    sig("<lambda>", []string{"ensure_ascii", "indent", "separators", "sort_keys"}, filterToJSON),
		"trim":      sig("do_trim", []string{"chars"}, filterTrim),
		"truncate":  sig("do_truncate", []string{"length", "killwords", "end", "leeway"}, filterTruncate),
		"unique":    sig("do_unique", []string{"case_sensitive", "attribute"}, filterUnique),
		"upper":     strFilter(pyUpper),
		"urlencode": sig("do_urlencode", nil, filterURLEncode),
		"urlize": func(*renderer, Value, []Value, []Kwarg) (Value, error) {
			return Value{}, runtimeErr("the urlize filter is not supported")
		},
		"wordcount": sig("do_wordcount", nil, filterWordcount),
		"wordwrap":  sig("do_wordwrap", []string{"width", "break_long_words", "wrapstring", "break_on_hyphens"}, filterWordwrap),
		"xmlattr":   sig("do_xmlattr", []string{"autospace"}, filterXMLAttr),
	}
}

// sig adapts a filter with named parameters after the value.
func sig(name string, params []string, fn func(r *renderer, v Value, a bound) (Value, error)) filterFunc {
	return func(r *renderer, v Value, args []Value, kw []Kwarg) (Value, error) {
		b, err := bind(name, params, args, kw)
		if err != nil {
			return Value{}, err
		}
		return fn(r, v, b)
	}
}

// softStr is markupsafe's soft_str: strings stay as they are, anything
// else becomes str(v).
func softStr(v Value) Value {
	if v.kind == KindString {
		return v
	}
	return String(str(v))
}

func strFilter(fn func(string) string) filterFunc {
	return sig("filter", nil, func(r *renderer, v Value, _ bound) (Value, error) {
		s := softStr(v)
		return sameKind(s, fn(s.s)), nil
	})
}

var titleSplit = regexp.MustCompile(`[-\s\v\x1c-\x1f\x{85}\p{Z}({\[<]+`)

// jinjaTitle is jinja2's title filter: each word starts upper case, the
// rest is lower case.
func jinjaTitle(s string) string {
	var b strings.Builder
	last := 0
	word := func(w string) {
		if w == "" {
			return
		}
		r := []rune(w)
		b.WriteString(pyUpper(string(r[0])))
		b.WriteString(pyLower(string(r[1:])))
	}
	for _, m := range titleSplit.FindAllStringIndex(s, -1) {
		word(s[last:m[0]])
		word(s[m[0]:m[1]])
		last = m[1]
	}
	word(s[last:])
	return b.String()
}

func filterCenter(r *renderer, v Value, a bound) (Value, error) {
	w, err := intArg(a.get(0, Int(80)), 80)
	if err != nil {
		return Value{}, err
	}
	if err := r.checkLen(int(min(w, 1<<40))); err != nil {
		return Value{}, err
	}
	s := softStr(v)
	return sameKind(s, pad(s.s, w, ' ', '^')), nil
}

func filterDefault(r *renderer, v Value, a bound) (Value, error) {
	if v.kind == KindUndefined || (truth(a.get(1, Bool(false))) && !truth(v)) {
		return a.get(0, String("")), nil
	}
	return v, nil
}

func filterReplace(r *renderer, v Value, a bound) (Value, error) {
	if !a.has(0) || !a.has(1) {
		return Value{}, required("do_replace", "new")
	}
	n := int64(-1)
	if c := a.get(2, None()); c.kind != KindNone {
		var err error
		if n, err = intArg(c, -1); err != nil {
			return Value{}, err
		}
	}
	return replaceChecked(r, String(str(v)), str(a.get(0, None())), str(a.get(1, None())), n)
}

func filterTrim(r *renderer, v Value, a bound) (Value, error) {
	f, err := stripChars(a.get(0, None()), "strip")
	if err != nil {
		return Value{}, err
	}
	s := softStr(v)
	return sameKind(s, strings.TrimFunc(s.s, f)), nil
}

func filterIndent(r *renderer, v Value, a bound) (Value, error) {
	if v.kind == KindUndefined {
		return Value{}, v.undefinedError()
	}
	if v.kind != KindString {
		return Value{}, typeErr("unsupported operand type(s) for +=: '%s' and 'str'", typeName(v))
	}
	ind := "    "
	switch w := a.get(0, Int(4)); {
	case w.kind == KindString:
		ind = w.s
	case w.isIntLike():
		if err := r.checkLen(int(min(max(w.n, 0), 1<<40))); err != nil {
			return Value{}, err
		}
		ind = strings.Repeat(" ", int(max(w.n, 0)))
	default:
		return Value{}, typeErr("can't multiply sequence by non-int of type '%s'", typeName(w))
	}
	lines := pySplitlines(v.s+"\n", false)
	if err := r.checkLen(len(v.s) + len(lines)*(len(ind)+1)); err != nil {
		return Value{}, err
	}
	var b strings.Builder
	if truth(a.get(2, Bool(false))) {
		b.WriteString(strings.Join(lines, "\n"+ind))
	} else {
		b.WriteString(lines[0])
		for _, l := range lines[1:] {
			b.WriteByte('\n')
			if l != "" {
				b.WriteString(ind)
			}
			b.WriteString(l)
		}
	}
	out := b.String()
	if truth(a.get(1, Bool(false))) {
		out = ind + out
	}
	return sameKind(v, out), nil
}

func filterTruncate(r *renderer, v Value, a bound) (Value, error) {
	s := []rune(str(v))
	length, err := intArg(a.get(0, Int(255)), 255)
	if err != nil {
		return Value{}, err
	}
	end := str(a.get(2, String("...")))
	leeway, err := intArg(a.get(3, Int(5)), 5)
	if err != nil {
		return Value{}, err
	}
	if length < int64(runeLen(end)) {
		return Value{}, newErr(ErrRuntime, "AssertionError", "expected length >= %d, got %d", runeLen(end), length)
	}
	if leeway < 0 {
		return Value{}, newErr(ErrRuntime, "AssertionError", "expected leeway >= 0, got %d", leeway)
	}
	if int64(len(s)) <= length+leeway {
		return String(string(s)), nil
	}
	cut := string(s[:length-int64(runeLen(end))])
	if truth(a.get(1, Bool(false))) {
		return String(cut + end), nil
	}
	if i := strings.LastIndex(cut, " "); i >= 0 {
		cut = cut[:i]
	}
	return String(cut + end), nil
}

func filterWordcount(r *renderer, v Value, _ bound) (Value, error) {
	n, in := 0, false
	for _, r := range str(v) {
		w := r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
		if w && !in {
			n++
		}
		in = w
	}
	return Int(int64(n)), nil
}

func filterFormat(r *renderer, v Value, args []Value, kw []Kwarg) (Value, error) {
	if len(args) > 0 && len(kw) > 0 {
		return Value{}, newErr(ErrRuntime, "FilterArgumentError", "can't handle positional and keyword arguments at the same time")
	}
	arg := Tuple(args...)
	if len(kw) > 0 {
		d := NewDict()
		for _, k := range kw {
			d.Set(k.Name, k.Value)
		}
		arg = d.Value()
	}
	return r.percentFormat(softStr(v), arg)
}
