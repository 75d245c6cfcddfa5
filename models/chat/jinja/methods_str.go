package jinja

import (
	"strings"
	"unicode"
)

// strFn adapts a method with a fixed signature: params names its
// parameters, fn gets them bound (absent ones unset).
func strFn(name string, params []string, fn func(r *renderer, s Value, a bound) (Value, error)) methodFunc {
	return func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		b, err := bind(name, params, args, kw)
		if err != nil {
			return Value{}, err
		}
		return fn(r, self, b)
	}
}

func sameKind(self Value, s string) Value { return Value{kind: KindString, s: s, safe: self.safe} }

func strArg(v Value, fname string) (string, error) {
	if v.kind != KindString {
		return "", typeErr("%s() argument must be str, not %s", fname, typeName(v))
	}
	return v.s, nil
}

func intArg(v Value, def int64) (int64, error) {
	switch {
	case v.kind == KindUndefined && v.ref == nil, v.kind == KindNone:
		return def, nil
	case v.isIntLike():
		return v.n, nil
	}
	return 0, typeErr("'%s' object cannot be interpreted as an integer", typeName(v))
}

func stripMethod(name string, left, right bool) methodFunc {
	return strFn(name, []string{"chars"}, func(r *renderer, s Value, a bound) (Value, error) {
		f, err := stripChars(a.get(0, None()), name)
		if err != nil {
			return Value{}, err
		}
		out := s.s
		if left {
			out = strings.TrimLeftFunc(out, f)
		}
		if right {
			out = strings.TrimRightFunc(out, f)
		}
		return sameKind(s, out), nil
	})
}

func splitMethod(name string, right bool) methodFunc {
	return strFn(name, []string{"sep", "maxsplit"}, func(r *renderer, s Value, a bound) (Value, error) {
		n, err := intArg(a.get(1, None()), -1)
		if err != nil {
			return Value{}, err
		}
		if err := r.useParts(splitCount(s.s, a.get(0, None()))); err != nil {
			return Value{}, err
		}
		parts, err := pySplit(s.s, a.get(0, None()), n, right)
		if err != nil {
			return Value{}, err
		}
		return stringList(s, parts), nil
	})
}

// splitCount bounds the parts split(sep) makes of s, counted before
// splitting.
func splitCount(s string, sep Value) int {
	if sep.kind == KindString && sep.s != "" {
		return strings.Count(s, sep.s) + 1
	}
	n := 1
	for _, c := range s {
		if unicode.IsSpace(c) {
			n++
		}
	}
	return n
}

// useParts charges a list of n strings: the strings' headers and the
// list's elements.
func (r *renderer) useParts(n int) error {
	if err := r.useMem(16 * int64(n)); err != nil {
		return err
	}
	return r.useItems(n)
}

func stringList(self Value, parts []string) Value {
	items := make([]Value, len(parts))
	for i, p := range parts {
		items[i] = sameKind(self, p)
	}
	return List(items...)
}

func affixMethod(name string, suffix bool) methodFunc {
	return strFn(name, []string{"prefix", "start", "end"}, func(r *renderer, s Value, a bound) (Value, error) {
		lo, hi, err := runeRange(s.s, a.get(1, None()), a.get(2, None()))
		if err != nil {
			return Value{}, err
		}
		if hi < lo {
			return Bool(false), nil
		}
		sub := s.s[lo:hi]
		test := func(p string) bool {
			if suffix {
				return strings.HasSuffix(sub, p)
			}
			return strings.HasPrefix(sub, p)
		}
		switch p := a.get(0, None()); p.kind {
		case KindString:
			return Bool(test(p.s)), nil
		case KindTuple:
			for _, it := range p.items {
				if it.kind != KindString {
					return Value{}, typeErr("tuple for %s must only contain str, not %s", name, typeName(it))
				}
				if test(it.s) {
					return Bool(true), nil
				}
			}
			return Bool(false), nil
		default:
			return Value{}, typeErr("%s first arg must be str or a tuple of str, not %s", name, typeName(p))
		}
	})
}

func findMethod(name string, last, raise bool) methodFunc {
	return strFn(name, []string{"sub", "start", "end"}, func(r *renderer, s Value, a bound) (Value, error) {
		sub, err := strArg(a.get(0, Value{}), name)
		if err != nil {
			return Value{}, err
		}
		lo, hi, err := runeRange(s.s, a.get(1, None()), a.get(2, None()))
		if err != nil {
			return Value{}, err
		}
		i := -1
		if hi >= lo {
			if last {
				i = strings.LastIndex(s.s[lo:hi], sub)
			} else {
				i = strings.Index(s.s[lo:hi], sub)
			}
		}
		if i < 0 {
			if raise {
				return Value{}, valueErr("substring not found")
			}
			return Int(-1), nil
		}
		return Int(int64(runeLen(s.s[:lo+i]))), nil
	})
}

func caseMethod(fn func(string) string) methodFunc {
	return strFn("", nil, func(r *renderer, s Value, _ bound) (Value, error) { return sameKind(s, fn(s.s)), nil })
}

func isMethod(fn func(string) bool) methodFunc {
	return strFn("", nil, func(r *renderer, s Value, _ bound) (Value, error) { return Bool(fn(s.s)), nil })
}

func padMethod(name string, align byte) methodFunc {
	return strFn(name, []string{"width", "fillchar"}, func(r *renderer, s Value, a bound) (Value, error) {
		w, err := intArg(a.get(0, Value{}), 0)
		if err != nil {
			return Value{}, err
		}
		fill := ' '
		if a.has(1) {
			f := a.get(1, None())
			if f.kind != KindString || runeLen(f.s) != 1 {
				return Value{}, typeErr("The fill character must be exactly one character long")
			}
			fill = []rune(f.s)[0]
		}
		if err := r.checkLen(int(min(w, 1<<40))); err != nil {
			return Value{}, err
		}
		return sameKind(s, pad(s.s, w, fill, align)), nil
	})
}

var strMethods map[string]methodFunc

func init() {
	strMethods = map[string]methodFunc{
		"strip": stripMethod("strip", true, true), "lstrip": stripMethod("lstrip", true, false),
		"rstrip": stripMethod("rstrip", false, true),
		"split":  splitMethod("split", false), "rsplit": splitMethod("rsplit", true),
		"startswith": affixMethod("startswith", false), "endswith": affixMethod("endswith", true),
		"find": findMethod("find", false, false), "rfind": findMethod("rfind", true, false),
		"index": findMethod("index", false, true), "rindex": findMethod("rindex", true, true),
		"upper": caseMethod(pyUpper), "lower": caseMethod(pyLower), "title": caseMethod(pyTitle),
		"capitalize": caseMethod(pyCapitalize), "swapcase": caseMethod(pySwapcase),
		"casefold": caseMethod(foldCaser.String),
		"isalpha":  isMethod(func(s string) bool { return allRunes(s, unicode.IsLetter) }),
		"isdigit":  isMethod(func(s string) bool { return allRunes(s, unicode.IsDigit) }),
		"isdecimal": isMethod(func(s string) bool {
			return allRunes(s, func(r rune) bool { return unicode.Is(unicode.Nd, r) })
		}),
		"isnumeric": isMethod(func(s string) bool { return allRunes(s, unicode.IsNumber) }),
		"isalnum": isMethod(func(s string) bool {
			return allRunes(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) })
		}),
		"isspace": isMethod(func(s string) bool { return allRunes(s, isSpace) }),
		"isascii": isMethod(func(s string) bool { return strings.IndexFunc(s, func(r rune) bool { return r > 0x7f }) < 0 }),
		"islower": isMethod(pyIsLower), "isupper": isMethod(pyIsUpper),
		"istitle":      isMethod(func(s string) bool { return s != "" && pyTitle(s) == s && strings.IndexFunc(s, isCased) >= 0 }),
		"isidentifier": isMethod(func(s string) bool { return s != "" && matchName(s) == len(s) && (s[0] < '0' || s[0] > '9') }),
		"center":       padMethod("center", '^'), "ljust": padMethod("ljust", '<'), "rjust": padMethod("rjust", '>'),
	}
	for k, v := range moreStrMethods() {
		strMethods[k] = v
	}
}
