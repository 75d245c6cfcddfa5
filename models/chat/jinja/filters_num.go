package jinja

import (
	"math"
	"strconv"
	"strings"
)

func filterAbs(r *renderer, v Value, _ bound) (Value, error) {
	switch v.kind {
	case KindBool, KindInt:
		if v.n == math.MinInt64 {
			return Value{}, errOverflow
		}
		if v.n < 0 {
			return Int(-v.n), nil
		}
		return Int(v.n), nil
	case KindFloat:
		return Float(math.Abs(v.f)), nil
	case KindUndefined:
		return Value{}, v.undefinedError()
	}
	return Value{}, typeErr("bad operand type for abs(): '%s'", typeName(v))
}

// parsePyInt is Python's int(s, base) for a string.
func parsePyInt(s string, base int64) (int64, bool) {
	s = strings.TrimFunc(s, isSpace)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) > 2 && s[0] == '0' {
		p := map[byte]int64{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if p != 0 && (base == p || base == 0) {
			base, s = p, strings.TrimPrefix(s[2:], "_")
		}
	}
	if base == 0 {
		base = 10
	}
	if base < 2 || base > 36 || s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), int(base), 64)
	if err != nil {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// parsePyFloat is Python's float(s) for a string.
func parsePyFloat(s string) (float64, bool) {
	s = strings.TrimFunc(s, isSpace)
	if s == "" || strings.ContainsAny(s, "xXpP") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") ||
		strings.Contains(s, "__") {
		return 0, false
	}
	if t := strings.ToLower(strings.TrimLeft(s, "+-")); t == "nan" {
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

func filterInt(r *renderer, v Value, a bound) (Value, error) {
	def := a.get(0, Int(0))
	base, err := intArg(a.get(1, Int(10)), 10)
	if err != nil {
		return def, nil
	}
	switch v.kind {
	case KindString:
		if n, ok := parsePyInt(v.s, base); ok {
			return Int(n), nil
		}
		if f, ok := parsePyFloat(v.s); ok {
			if n, err := toInt(Float(f)); err == nil {
				return Int(n), nil
			}
		}
	case KindBool, KindInt:
		return Int(v.n), nil
	case KindFloat:
		if n, err := toInt(v); err == nil {
			return Int(n), nil
		}
	}
	return def, nil
}

func filterFloat(r *renderer, v Value, a bound) (Value, error) {
	switch v.kind {
	case KindString:
		if f, ok := parsePyFloat(v.s); ok {
			return Float(f), nil
		}
	case KindBool, KindInt, KindFloat:
		return Float(v.asFloat()), nil
	}
	return a.get(0, Float(0)), nil
}

func filterRound(r *renderer, v Value, a bound) (Value, error) {
	method := str(a.get(1, String("common")))
	if method != "common" && method != "ceil" && method != "floor" {
		return Value{}, newErr(ErrRuntime, "FilterArgumentError", "method must be common, ceil or floor")
	}
	p := a.get(0, Int(0))
	if !p.isIntLike() {
		return Value{}, typeErr("'%s' object cannot be interpreted as an integer", typeName(p))
	}
	if v.kind == KindUndefined {
		return Value{}, v.undefinedError()
	}
	if !v.isNumber() {
		return Value{}, typeErr("type %s doesn't define __round__ method", typeName(v))
	}
	prec := max(min(p.n, 400), -400)
	if method != "common" {
		scale := math.Pow(10, float64(prec))
		f := v.asFloat() * scale
		if method == "ceil" {
			f = math.Ceil(f)
		} else {
			f = math.Floor(f)
		}
		return Float(f / scale), nil
	}
	if v.isIntLike() {
		if prec >= 0 {
			return Int(v.n), nil
		}
		scale := math.Pow(10, float64(-prec))
		return Int(int64(math.RoundToEven(float64(v.n)/scale) * scale)), nil
	}
	return Float(roundFloat(v.f, int(prec))), nil
}

// roundFloat is Python's round(f, n): correctly rounded, ties to even.
func roundFloat(f float64, n int) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	if n < 0 {
		scale := math.Pow(10, float64(-n))
		return math.RoundToEven(f/scale) * scale
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', n, 64), 64)
	if err != nil {
		return f
	}
	return r
}

func filterFilesize(r *renderer, v Value, a bound) (Value, error) {
	var size float64
	switch {
	case v.isNumber():
		size = v.asFloat()
	case v.kind == KindString:
		f, ok := parsePyFloat(v.s)
		if !ok {
			return Value{}, valueErr("could not convert string to float: %s", quote(v.s))
		}
		size = f
	default:
		return Value{}, typeErr("float() argument must be a string or a real number, not '%s'", typeName(v))
	}
	binary := truth(a.get(0, Bool(false)))
	base := 1000.0
	prefixes := []string{"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"}
	if binary {
		base = 1024
		prefixes = []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	}
	switch {
	case size == 1:
		return String("1 Byte"), nil
	case size < base:
		n, err := toInt(Float(size))
		if err != nil {
			return Value{}, err
		}
		return String(strconv.FormatInt(n, 10) + " Bytes"), nil
	}
	unit := 0.0
	for i, p := range prefixes {
		unit = math.Pow(base, float64(i+2))
		if size < unit || i == len(prefixes)-1 {
			return String(strconv.FormatFloat(base*size/unit, 'f', 1, 64) + " " + p), nil
		}
	}
	return String(""), nil
}
