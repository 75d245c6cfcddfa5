package jsonschema

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxBound is the largest magnitude of a bound handled exactly.
const maxBound = 1e15

// maxDigits bounds the digits of an unbounded integer part.
const maxDigits = 16

// bound is an integer bound, or none (inf).
type bound struct {
	v   int64
	inf bool
}

// genNumber makes an integer or a number within minimum and maximum
// (exclusive forms included). Bounds that are not integers are rounded
// inward; bounded numbers get no exponent.
func (c *converter) genNumber(s *object, integer bool, hint string) (string, error) {
	lo, hi, err := intBounds(s, hint)
	if err != nil {
		return "", err
	}
	if lo.inf && hi.inf {
		if integer {
			return c.primitive("int"), nil
		}
		return c.primitive("number"), nil
	}
	if !lo.inf && !hi.inf && lo.v > hi.v {
		return "", fmt.Errorf("%w: no integer within the bounds at %s", ErrUnsupported, hint)
	}
	alts := []string{intRange(lo, hi)}
	if !integer {
		frac := `"." [0-9]{1,16}`
		// I.F lies in [I, I+1): I from max(lo, 0) to hi-1.
		plo := bound{v: max(lo.v, 0)}
		if lo.inf {
			plo = bound{}
		}
		phi := bound{v: hi.v - 1, inf: hi.inf}
		if phi.inf || phi.v >= plo.v {
			alts = append(alts, fmt.Sprintf("( %s ) %s", natRange(plo, phi), frac))
		}
		// -I.F lies in (-(I+1), -I]: I from max(-hi, 0) to -lo-1.
		nlo := bound{v: 0}
		if !hi.inf {
			nlo.v = max(-hi.v, 0)
		}
		nhi := bound{v: -lo.v - 1, inf: lo.inf}
		if nhi.inf || nhi.v >= nlo.v {
			alts = append(alts, fmt.Sprintf(`"-" ( %s ) %s`, natRange(nlo, nhi), frac))
		}
	}
	return c.rule(hint+"-number", strings.Join(alts, " | "))
}

// intBounds returns the smallest and largest integers the bounds allow.
func intBounds(s *object, hint string) (lo, hi bound, err error) {
	lo, hi = bound{inf: true}, bound{inf: true}
	read := func(key string) (float64, bool, error) {
		v, ok := s.get(key)
		if !ok {
			return 0, false, nil
		}
		if b, isBool := v.(bool); isBool { // draft 4: exclusive flags
			return 0, b, nil
		}
		n, isNum := v.(json.Number)
		f, err := n.Float64()
		if !isNum || err != nil || math.Abs(f) > maxBound {
			return 0, false, fmt.Errorf("%w: %s at %s must be a number within ±1e15", ErrUnsupported, key, hint)
		}
		return f, true, nil
	}
	apply := func(key, exKey string, lower bool) error {
		f, ok, err := read(key)
		if err != nil {
			return err
		}
		if ok {
			ex, _ := s.get(exKey)
			exclusive := ex == true
			setBound(&lo, &hi, f, exclusive, lower)
		}
		if _, isBool := s.vals[exKey].(bool); !isBool {
			ef, ok, err := read(exKey)
			if err != nil {
				return err
			}
			if ok {
				setBound(&lo, &hi, ef, true, lower)
			}
		}
		return nil
	}
	if err := apply("minimum", "exclusiveMinimum", true); err != nil {
		return lo, hi, err
	}
	err = apply("maximum", "exclusiveMaximum", false)
	return lo, hi, err
}

// setBound tightens lo or hi with a limit f.
func setBound(lo, hi *bound, f float64, exclusive, lower bool) {
	if lower {
		v := math.Ceil(f)
		if exclusive && v == f {
			v++
		}
		if lo.inf || int64(v) > lo.v {
			*lo = bound{v: int64(v)}
		}
		return
	}
	v := math.Floor(f)
	if exclusive && v == f {
		v--
	}
	if hi.inf || int64(v) < hi.v {
		*hi = bound{v: int64(v)}
	}
}

// intRange returns the expression of the integers in [lo, hi].
func intRange(lo, hi bound) string {
	var alts []string
	if lo.inf || lo.v < 0 {
		// negative part: -m for m in [max(-hi, 1), -lo]
		mlo := int64(1)
		if !hi.inf && hi.v < 0 {
			mlo = -hi.v
		}
		alts = append(alts, fmt.Sprintf(`"-" ( %s )`, natRange(bound{v: mlo}, bound{v: -lo.v, inf: lo.inf})))
	}
	if hi.inf || hi.v >= 0 {
		alts = append(alts, natRange(bound{v: max(lo.v, 0)}, hi))
	}
	return strings.Join(alts, " | ")
}

// natRange returns the expression of the natural numbers in [lo, hi]
// (hi may be unbounded), without leading zeros.
func natRange(lo, hi bound) string {
	if lo.v == 0 && hi.inf {
		return fmt.Sprintf(`"0" | [1-9] [0-9]{0,%d}`, maxDigits-1)
	}
	var alts []string
	dl := len(strconv.FormatInt(lo.v, 10))
	dh := maxDigits
	if !hi.inf {
		dh = len(strconv.FormatInt(hi.v, 10))
	}
	for d := dl; d <= dh; d++ {
		a, b := lo.v, int64(math.Pow10(d))-1
		if d > dl {
			a = int64(math.Pow10(d - 1))
		}
		if !hi.inf && hi.v < b {
			b = hi.v
		}
		if a > b {
			continue
		}
		alts = append(alts, sameLength(strconv.FormatInt(a, 10), strconv.FormatInt(b, 10)))
	}
	return strings.Join(alts, " | ")
}

// sameLength returns the expression of the numbers from lo to hi, two
// digit strings of equal length.
func sameLength(lo, hi string) string {
	n := len(lo)
	if n == 0 {
		return `""`
	}
	if lo == hi {
		return `"` + lo + `"`
	}
	if lo[0] == hi[0] {
		return fmt.Sprintf(`"%c" ( %s )`, lo[0], sameLength(lo[1:], hi[1:]))
	}
	zeros, nines := strings.Repeat("0", n-1), strings.Repeat("9", n-1)
	var alts []string
	first, last := lo[0], hi[0]
	if lo[1:] != zeros {
		alts = append(alts, fmt.Sprintf(`"%c" ( %s )`, lo[0], sameLength(lo[1:], nines)))
		first++
	}
	if hi[1:] != nines {
		last--
	}
	if first <= last {
		alts = append(alts, fmt.Sprintf(`[%c-%c] [0-9]{%d}`, first, last, n-1))
	}
	if hi[1:] != nines {
		alts = append(alts, fmt.Sprintf(`"%c" ( %s )`, hi[0], sameLength(zeros, hi[1:])))
	}
	return strings.Join(alts, " | ")
}

// asInt reads an integral JSON number.
func asInt(v any) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("not a number")
	}
	if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return i, nil
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt64/2 {
		return 0, fmt.Errorf("not an integer")
	}
	return int64(f), nil
}
