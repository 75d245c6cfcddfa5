package jinja

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

// toGo converts a value from FromJSON to what encoding/json decodes.
func toGo(v Value) any {
	switch v.kind {
	case KindNone:
		return nil
	case KindBool:
		return v.n != 0
	case KindInt:
		return float64(v.n)
	case KindFloat:
		return v.f
	case KindString:
		return v.s
	case KindList:
		out := make([]any, len(v.items))
		for i, it := range v.items {
			out[i] = toGo(it)
		}
		return out
	case KindDict:
		d := v.ref.(*Dict)
		out := make(map[string]any, d.Len())
		for i, k := range d.keys {
			out[k.s] = toGo(d.vals[i])
		}
		return out
	}
	return "unexpected kind"
}

func equalGo(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalGo(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if !equalGo(v, y[k]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.Abs(x-y) <= 1e-300)
	}
	return a == b
}

// checkJSON compares FromJSON with encoding/json on data.
func checkJSON(t *testing.T, data []byte) {
	t.Helper()
	v, err := FromJSON(data)
	var want any
	werr := json.Unmarshal(data, &want)
	var te *json.UnmarshalTypeError
	if errors.As(werr, &te) {
		return // a number beyond float64: Python (and FromJSON) take it, encoding/json does not
	}
	switch {
	case werr != nil && err == nil:
		t.Fatalf("%q: accepted, encoding/json says %v", data, werr)
	case werr == nil && err != nil:
		var se *json.SyntaxError
		if !errors.As(werr, &se) && !errors.Is(err, ErrInput) {
			t.Fatalf("%q: %v", data, err)
		}
		if depth := jsonDepth(data); depth <= maxJSONDepth {
			t.Fatalf("%q: rejected (%v), encoding/json accepts it", data, err)
		}
	case err == nil && !equalGo(toGo(v), want):
		t.Fatalf("%q: got %#v, want %#v", data, toGo(v), want)
	}
}

func jsonDepth(data []byte) int {
	depth, most := 0, 0
	for _, c := range data {
		switch c {
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			depth--
		}
	}
	return most
}

func TestFromJSON(t *testing.T) {
	for _, s := range []string{
		`{"a": [1, -2.5e3, 1E-2, 0, -0, 9223372036854775807, 9223372036854775808, true, false, null]}`,
		`"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 \ud800 x \udc00"`, `"\ud83d\u0041"`, "\"bad \xff utf8\"",
		`{"a": 1, "a": 2}`, `[]`, `{}`, ` [ 1 , [ ] , { } ] `, `"é中😀"`,
		`[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `+1`, `1e`, `"\x"`, `"\u12"`, "\"tab\tin\"", `[1 2]`, `{1: 2}`,
		`tru`, `nul`, `[`, `{"a"`, `"unterminated`, `1 2`, ``, `  `, `NaN`, `[1]x`,
	} {
		checkJSON(t, []byte(s))
	}
	v, err := FromJSON([]byte(`{"b": 1, "a": 2, "b": 3}`))
	if err != nil || repr(v) != "{'b': 3, 'a': 2}" {
		t.Errorf("duplicate key: %v, %v", repr(v), err)
	}
	if v, _ := FromJSON([]byte(`[3, 3.0, 1e2]`)); repr(v) != "[3, 3.0, 100.0]" {
		t.Errorf("numbers: %s", repr(v))
	}
}

func FuzzFromJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, "x\u00e9", null, true]}`, `[[[]]]`, `"\ud83d\ude00"`, `-0.0e+1`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkJSON(t, data) })
}
