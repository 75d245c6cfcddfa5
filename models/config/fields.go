package config

import (
	"encoding/json"
	"fmt"
	"math"
)

// fields is a JSON object read key by key. A key holding null counts as
// absent, as it does for transformers.
type fields map[string]json.RawMessage

// reader reads typed values from fields and keeps the first error, so that a
// run of reads can be checked once.
type reader struct {
	f      fields
	prefix string  // prepended to keys in errors, e.g. "rope_scaling."
	parent *reader // the reader of the enclosing object, which keeps the error
	err    error   // the first error, kept by the outermost reader
}

// root returns the outermost reader.
func (r *reader) root() *reader {
	for r.parent != nil {
		r = r.parent
	}
	return r
}

// setErr records err unless an error is already recorded.
func (r *reader) setErr(err error) {
	if root := r.root(); root.err == nil {
		root.err = err
	}
}

// sub returns a reader of the object under key, nil when absent.
func (r *reader) sub(key string) *reader {
	o := r.object(key)
	if o == nil {
		return nil
	}
	return &reader{f: o, prefix: r.prefix + key + ".", parent: r}
}

// null reports whether key is present with the value null, which in a
// transformers config means "none" rather than "the default".
func (r *reader) null(key string) bool {
	v, ok := r.f[key]
	return ok && string(v) == "null"
}

// has reports whether key is present and not null.
func (r *reader) has(key string) bool {
	v, ok := r.f[key]
	return ok && string(v) != "null"
}

// fail records an error about key unless one is already recorded.
func (r *reader) fail(key, format string, args ...any) {
	r.setErr(fmt.Errorf("%w: %s%s: %s", ErrInvalid, r.prefix, key, fmt.Sprintf(format, args...)))
}

// decode unmarshals key into v, reporting whether the key was present.
func (r *reader) decode(key string, v any, want string) bool {
	if !r.has(key) {
		return false
	}
	if err := json.Unmarshal(r.f[key], v); err != nil {
		r.fail(key, "want %s, got %.40s", want, r.f[key])
		return false
	}
	return true
}

// float returns a number, or def when the key is absent.
func (r *reader) float(key string, def float64) float64 {
	var v float64
	if !r.decode(key, &v, "a number") {
		return def
	}
	return v
}

// int returns an integer (an integral float such as 8192.0 is accepted), or
// def when the key is absent.
func (r *reader) int(key string, def int) int {
	var v float64
	if !r.decode(key, &v, "an integer") {
		return def
	}
	if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
		r.fail(key, "want an integer, got %v", v)
		return def
	}
	return int(v)
}

// bool returns a boolean, or def when the key is absent.
func (r *reader) bool(key string, def bool) bool {
	v := def
	r.decode(key, &v, "true or false")
	return v
}

// str returns a string, or def when the key is absent.
func (r *reader) str(key, def string) string {
	v := def
	r.decode(key, &v, "a string")
	return v
}

// ids returns a token id list given as one integer or an array of integers;
// nil when the key is absent.
func (r *reader) ids(key string) []int {
	if !r.has(key) {
		return nil
	}
	raw := r.f[key]
	var one float64
	if json.Unmarshal(raw, &one) == nil {
		return []int{r.int(key, 0)}
	}
	var many []float64
	if err := json.Unmarshal(raw, &many); err != nil || len(many) > maxTokenIDs {
		r.fail(key, "want a token id or a list of at most %d ids, got %.40s", maxTokenIDs, raw)
		return nil
	}
	out := make([]int, len(many))
	for i, v := range many {
		if v != math.Trunc(v) || v < 0 || v > math.MaxInt32 {
			r.fail(key, "token id %v is not a non-negative integer", v)
			return nil
		}
		out[i] = int(v)
	}
	return out
}

// object returns the object stored under key, nil when absent.
func (r *reader) object(key string) fields {
	var v fields
	if !r.decode(key, &v, "an object") {
		return nil
	}
	return v
}

// floats returns an array of numbers of at most max values, nil when absent.
func (r *reader) floats(key string, max int) []float32 {
	var v []float64
	if !r.decode(key, &v, "an array of numbers") {
		return nil
	}
	if len(v) > max {
		r.fail(key, "has %d values, more than %d", len(v), max)
		return nil
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}
