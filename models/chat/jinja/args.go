package jinja

// bound holds call arguments matched to a signature; absent parameters
// are reported by has.
type bound struct {
	vals []Value
	set  []bool
}

// has reports whether parameter i was passed.
func (b bound) has(i int) bool { return b.set[i] }

// get returns parameter i, or def when it was not passed.
func (b bound) get(i int, def Value) Value {
	if b.set[i] {
		return b.vals[i]
	}
	return def
}

// bind matches positional and keyword arguments to params as a Python
// function with those parameter names (all with defaults) would.
func bind(fname string, params []string, args []Value, kw []Kwarg) (bound, error) {
	b := bound{vals: make([]Value, len(params)), set: make([]bool, len(params))}
	if len(args) > len(params) {
		return b, typeErr("%s() takes at most %d positional arguments (%d given)", fname, len(params), len(args))
	}
	for i, a := range args {
		b.vals[i], b.set[i] = a, true
	}
	for _, k := range kw {
		found := false
		for i, p := range params {
			if p == k.Name {
				if b.set[i] {
					return b, typeErr("%s() got multiple values for argument '%s'", fname, k.Name)
				}
				b.vals[i], b.set[i], found = k.Value, true, true
				break
			}
		}
		if !found {
			return b, typeErr("%s() got an unexpected keyword argument '%s'", fname, k.Name)
		}
	}
	return b, nil
}

// bindArgs is bind returning the values, undefined where absent.
func bindArgs(fname string, params []string, args []Value, kw []Kwarg) ([]Value, error) {
	b, err := bind(fname, params, args, kw)
	return b.vals, err
}

// required reports a missing required argument.
func required(fname, param string) error {
	return typeErr("%s() missing 1 required positional argument: '%s'", fname, param)
}
