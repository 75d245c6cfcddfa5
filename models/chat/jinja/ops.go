package jinja

import "math"

func unsupported(op string, a, b Value) *Error {
	return typeErr("unsupported operand type(s) for %s: '%s' and '%s'", op, typeName(a), typeName(b))
}

func undefinedOperand(a, b Value) error {
	if a.kind == KindUndefined {
		return a.undefinedError()
	}
	if b.kind == KindUndefined {
		return b.undefinedError()
	}
	return nil
}

// binop applies an arithmetic operator with Python semantics.
func (r *renderer) binop(op string, a, b Value) (Value, error) {
	if err := undefinedOperand(a, b); err != nil {
		return Value{}, err
	}
	switch op {
	case "+":
		return r.add(a, b)
	case "*":
		return r.mul(a, b)
	case "%":
		if a.kind == KindString {
			return r.percentFormat(a, b)
		}
	}
	if !a.isNumber() || !b.isNumber() {
		return Value{}, unsupported(op, a, b)
	}
	if a.isIntLike() && b.isIntLike() {
		return intOp(op, a.n, b.n)
	}
	return floatOp(op, a.asFloat(), b.asFloat())
}

var errOverflow = newErr(ErrRuntime, "OverflowError", "integer result does not fit in 64 bits")

func intOp(op string, x, y int64) (Value, error) {
	switch op {
	case "+":
		s := x + y
		if (s > x) != (y > 0) {
			return Value{}, errOverflow
		}
		return Int(s), nil
	case "-":
		s := x - y
		if (s < x) != (y > 0) {
			return Value{}, errOverflow
		}
		return Int(s), nil
	case "*":
		p := x * y
		if x != 0 && (p/x != y || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64)) {
			return Value{}, errOverflow
		}
		return Int(p), nil
	case "/":
		if y == 0 {
			return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "division by zero")
		}
		return Float(float64(x) / float64(y)), nil
	case "//", "%":
		if y == 0 && op == "%" {
			return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "integer modulo by zero")
		}
		if y == 0 {
			return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "integer division or modulo by zero")
		}
		if x == math.MinInt64 && y == -1 {
			return Value{}, errOverflow
		}
		q, m := x/y, x%y
		if m != 0 && (m < 0) != (y < 0) {
			q--
			m += y
		}
		if op == "%" {
			return Int(m), nil
		}
		return Int(q), nil
	case "**":
		if y < 0 {
			if x == 0 {
				return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "0.0 cannot be raised to a negative power")
			}
			return Float(math.Pow(float64(x), float64(y))), nil
		}
		return intPow(x, y)
	}
	return Value{}, runtimeErr("unknown operator %s", op)
}

func intPow(x, y int64) (Value, error) {
	result := int64(1)
	for y > 0 {
		if y&1 == 1 {
			v, err := intOp("*", result, x)
			if err != nil {
				return Value{}, err
			}
			result = v.n
		}
		y >>= 1
		if y > 0 {
			v, err := intOp("*", x, x)
			if err != nil {
				return Value{}, err
			}
			x = v.n
		}
	}
	return Int(result), nil
}

func floatOp(op string, x, y float64) (Value, error) {
	switch op {
	case "+":
		return Float(x + y), nil
	case "-":
		return Float(x - y), nil
	case "*":
		return Float(x * y), nil
	case "/":
		if y == 0 {
			return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "float division by zero")
		}
		return Float(x / y), nil
	case "//", "%":
		if y == 0 && op == "%" {
			return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "float modulo")
		}
		if y == 0 {
			return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "float floor division by zero")
		}
		div, mod := floatDivMod(x, y)
		if op == "%" {
			return Float(mod), nil
		}
		return Float(div), nil
	case "**":
		if x == 0 && y < 0 {
			return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "0.0 cannot be raised to a negative power")
		}
		if x < 0 && y != math.Trunc(y) {
			return Value{}, valueErr("complex results are not supported")
		}
		return Float(math.Pow(x, y)), nil
	}
	return Value{}, runtimeErr("unknown operator %s", op)
}

// floatDivMod is CPython's float floor division and modulo.
func floatDivMod(vx, wx float64) (float64, float64) {
	mod := math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return floordiv, mod
}

func (r *renderer) add(a, b Value) (Value, error) {
	switch {
	case a.isNumber() && b.isNumber():
		if a.isIntLike() && b.isIntLike() {
			return intOp("+", a.n, b.n)
		}
		return Float(a.asFloat() + b.asFloat()), nil
	case a.kind == KindString && b.kind == KindString:
		if err := r.checkLen(len(a.s) + len(b.s)); err != nil {
			return Value{}, err
		}
		if a.safe || b.safe {
			return Markup(markupText(a) + markupText(b)), nil
		}
		return String(a.s + b.s), nil
	case a.kind == KindList && b.kind == KindList, a.kind == KindTuple && b.kind == KindTuple:
		if err := r.checkItems(len(a.items) + len(b.items)); err != nil {
			return Value{}, err
		}
		items := make([]Value, 0, len(a.items)+len(b.items))
		items = append(append(items, a.items...), b.items...)
		return Value{kind: a.kind, items: items}, nil
	case a.kind == KindString && !a.safe, a.kind == KindList, a.kind == KindTuple:
		return Value{}, typeErr("can only concatenate %s (not \"%s\") to %s", typeName(a), typeName(b), typeName(a))
	}
	return Value{}, unsupported("+", a, b)
}

// markupText is the text of s as part of a Markup result: escaped unless
// it is Markup already.
func markupText(s Value) string {
	if s.safe {
		return s.s
	}
	return htmlEscape(s.s)
}

func (r *renderer) mul(a, b Value) (Value, error) {
	if a.isNumber() && b.isNumber() {
		if a.isIntLike() && b.isIntLike() {
			return intOp("*", a.n, b.n)
		}
		return Float(a.asFloat() * b.asFloat()), nil
	}
	seq, n := a, b
	if b.kind == KindString || b.kind == KindList || b.kind == KindTuple {
		seq, n = b, a
	}
	switch seq.kind {
	case KindString, KindList, KindTuple:
	default:
		return Value{}, unsupported("*", a, b)
	}
	if !n.isIntLike() {
		return Value{}, typeErr("can't multiply sequence by non-int of type '%s'", typeName(n))
	}
	count := max(n.n, 0)
	size := int64(len(seq.s) + len(seq.items))
	if size > 0 && count > int64(r.maxOutput)/size+1 {
		return Value{}, limitErr("repeated sequence would exceed %d bytes or items", r.maxOutput)
	}
	check := r.checkItems
	if seq.kind == KindString {
		check = r.checkLen
	}
	if err := check(int(size * count)); err != nil {
		return Value{}, err
	}
	if seq.kind == KindString {
		return Value{kind: KindString, s: repeatString(seq.s, int(count)), safe: seq.safe}, nil
	}
	items := make([]Value, 0, int(size*count))
	for range count {
		items = append(items, seq.items...)
	}
	return Value{kind: seq.kind, items: items}, nil
}

func repeatString(s string, n int) string {
	if n <= 0 || s == "" {
		return ""
	}
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

func negate(v Value) (Value, error) {
	switch v.kind {
	case KindUndefined:
		return Value{}, v.undefinedError()
	case KindBool, KindInt:
		if v.n == math.MinInt64 {
			return Value{}, errOverflow
		}
		return Int(-v.n), nil
	case KindFloat:
		return Float(-v.f), nil
	}
	return Value{}, typeErr("bad operand type for unary -: '%s'", typeName(v))
}
