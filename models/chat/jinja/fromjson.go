package jinja

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// ErrInput marks a value that cannot be turned into a template value.
var ErrInput = errors.New("invalid template input")

// maxJSONDepth bounds the nesting of JSON input.
const maxJSONDepth = maxReprDepth

// FromJSON parses JSON into a template value the way Python's json.loads
// does: objects become dicts that keep their key order (a repeated key keeps
// its first position and its last value), integers become int and numbers
// with a fraction or exponent become float. Integers beyond 64 bits become
// float.
func FromJSON(data []byte) (Value, error) {
	p := &jsonParser{data: data}
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	if p.space(); p.pos != len(data) {
		return Value{}, p.fail("trailing data after the JSON value")
	}
	return v, nil
}

func jsonNumber(s string) (Value, error) {
	if !strings.ContainsAny(s, ".eE") {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return Int(n), nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Value{}, fmt.Errorf("%w: bad number %q", ErrInput, s)
	}
	return Float(f), nil
}

// FromGo converts a Go value: nil, bool, integers, floats, string,
// json.RawMessage and json.Number, slices and arrays, maps with string keys
// (in sorted key order, Go maps having none), *Dict and Value itself.
func FromGo(x any) (Value, error) { return fromGo(reflect.ValueOf(x), 0) }

func fromGo(rv reflect.Value, depth int) (Value, error) {
	if depth > maxJSONDepth {
		return Value{}, fmt.Errorf("%w: value nested deeper than %d levels", ErrInput, maxJSONDepth)
	}
	if !rv.IsValid() {
		return None(), nil
	}
	switch x := rv.Interface().(type) {
	case Value:
		return x, nil
	case *Dict:
		if x == nil {
			return None(), nil
		}
		return x.Value(), nil
	case json.RawMessage:
		if x == nil {
			return None(), nil
		}
		return FromJSON(x)
	case json.Number:
		return jsonNumber(string(x))
	}
	switch rv.Kind() {
	case reflect.Bool:
		return Bool(rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return Float(float64(u)), nil
		}
		return Int(int64(u)), nil
	case reflect.Float32, reflect.Float64:
		return Float(rv.Float()), nil
	case reflect.String:
		return String(rv.String()), nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return None(), nil
		}
		return fromGo(rv.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return None(), nil
		}
		items := make([]Value, rv.Len())
		for i := range items {
			it, err := fromGo(rv.Index(i), depth+1)
			if err != nil {
				return Value{}, err
			}
			items[i] = it
		}
		return List(items...), nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return Value{}, fmt.Errorf("%w: map key type %s is not string", ErrInput, rv.Type().Key())
		}
		if rv.IsNil() {
			return None(), nil
		}
		keys := rv.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		d := NewDict()
		for _, k := range keys {
			it, err := fromGo(rv.MapIndex(k), depth+1)
			if err != nil {
				return Value{}, err
			}
			d.Set(k.String(), it)
		}
		return d.Value(), nil
	}
	return Value{}, fmt.Errorf("%w: unsupported Go type %s", ErrInput, rv.Type())
}
