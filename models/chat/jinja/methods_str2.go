package jinja

import (
	"strings"
)

func moreStrMethods() map[string]methodFunc {
	return map[string]methodFunc{
		"replace":      strFn("replace", []string{"old", "new", "count"}, strReplace),
		"count":        strFn("count", []string{"sub", "start", "end"}, strCount),
		"join":         strFn("join", []string{"iterable"}, strJoin),
		"partition":    partitionMethod("partition", false),
		"rpartition":   partitionMethod("rpartition", true),
		"splitlines":   strFn("splitlines", []string{"keepends"}, strSplitlines),
		"zfill":        strFn("zfill", []string{"width"}, strZfill),
		"removeprefix": affixRemover("removeprefix", strings.TrimPrefix),
		"removesuffix": affixRemover("removesuffix", strings.TrimSuffix),
		"format": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
			s, err := r.strFormat(self.s, args, kw)
			return sameKind(self, s), err
		},
	}
}

func strReplace(r *renderer, s Value, a bound) (Value, error) {
	if !a.has(0) || !a.has(1) {
		return Value{}, typeErr("replace expected at least 2 arguments")
	}
	old, err := strArg(a.get(0, None()), "replace")
	if err != nil {
		return Value{}, err
	}
	nw, err := strArg(a.get(1, None()), "replace")
	if err != nil {
		return Value{}, err
	}
	n, err := intArg(a.get(2, None()), -1)
	if err != nil {
		return Value{}, err
	}
	return replaceChecked(r, s, old, nw, n)
}

// replaceChecked replaces within the size limit.
func replaceChecked(r *renderer, s Value, old, nw string, n int64) (Value, error) {
	hits := int64(strings.Count(s.s, old))
	if old == "" {
		hits = int64(runeLen(s.s)) + 1
	}
	if n >= 0 && n < hits {
		hits = n
	}
	if err := r.checkLen(len(s.s) + int(min(hits, 1<<30))*max(len(nw)-len(old), 0)); err != nil {
		return Value{}, err
	}
	return sameKind(s, pyReplace(s.s, old, nw, n)), nil
}

func strCount(r *renderer, s Value, a bound) (Value, error) {
	sub, err := strArg(a.get(0, None()), "count")
	if err != nil {
		return Value{}, err
	}
	lo, hi, err := runeRange(s.s, a.get(1, None()), a.get(2, None()))
	if err != nil {
		return Value{}, err
	}
	if hi < lo {
		return Int(0), nil
	}
	seg := s.s[lo:hi]
	if sub == "" {
		return Int(int64(runeLen(seg) + 1)), nil
	}
	return Int(int64(strings.Count(seg, sub))), nil
}

func strJoin(r *renderer, s Value, a bound) (Value, error) {
	if !a.has(0) {
		return Value{}, typeErr("join() takes exactly one argument (0 given)")
	}
	items, err := r.iterate(a.get(0, None()))
	if err != nil {
		return Value{}, typeErr("can only join an iterable")
	}
	parts := make([]string, len(items))
	n := 0
	for i, it := range items {
		if it.kind != KindString {
			return Value{}, typeErr("sequence item %d: expected str instance, %s found", i, typeName(it))
		}
		parts[i] = it.s
		n += len(it.s) + len(s.s)
	}
	if err := r.checkLen(n); err != nil {
		return Value{}, err
	}
	return sameKind(s, strings.Join(parts, s.s)), nil
}

func partitionMethod(name string, last bool) methodFunc {
	return strFn(name, []string{"sep"}, func(r *renderer, s Value, a bound) (Value, error) {
		sep, err := strArg(a.get(0, None()), name)
		if err != nil {
			return Value{}, err
		}
		if sep == "" {
			return Value{}, valueErr("empty separator")
		}
		i := strings.Index(s.s, sep)
		if last {
			i = strings.LastIndex(s.s, sep)
		}
		if i < 0 {
			if last {
				return Tuple(sameKind(s, ""), sameKind(s, ""), s), nil
			}
			return Tuple(s, sameKind(s, ""), sameKind(s, "")), nil
		}
		return Tuple(sameKind(s, s.s[:i]), sameKind(s, sep), sameKind(s, s.s[i+len(sep):])), nil
	})
}

func strSplitlines(r *renderer, s Value, a bound) (Value, error) {
	if err := r.useParts(strings.Count(s.s, "\n") + strings.Count(s.s, "\r") + 1); err != nil {
		return Value{}, err
	}
	return stringList(s, pySplitlines(s.s, truth(a.get(0, Bool(false))))), nil
}

func strZfill(r *renderer, s Value, a bound) (Value, error) {
	w, err := intArg(a.get(0, Int(0)), 0)
	if err != nil {
		return Value{}, err
	}
	n := int64(runeLen(s.s))
	if w <= n {
		return s, nil
	}
	if err := r.checkLen(int(min(w, 1<<40))); err != nil {
		return Value{}, err
	}
	zeros := strings.Repeat("0", int(w-n))
	if s.s != "" && (s.s[0] == '+' || s.s[0] == '-') {
		return sameKind(s, s.s[:1]+zeros+s.s[1:]), nil
	}
	return sameKind(s, zeros+s.s), nil
}

func affixRemover(name string, fn func(string, string) string) methodFunc {
	return strFn(name, []string{"affix"}, func(r *renderer, s Value, a bound) (Value, error) {
		p, err := strArg(a.get(0, None()), name)
		if err != nil {
			return Value{}, err
		}
		return sameKind(s, fn(s.s, p)), nil
	})
}
