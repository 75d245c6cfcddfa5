package jinja

// Kind is the Python type of a Value.
type Kind uint8

// The kinds of values a template handles.
const (
	KindUndefined Kind = iota // jinja2's Undefined
	KindNone                  // None
	KindBool                  // bool
	KindInt                   // int (64-bit here)
	KindFloat                 // float
	KindString                // str, or markupsafe.Markup when marked safe
	KindList                  // list
	KindTuple                 // tuple
	KindDict                  // dict, insertion ordered
	KindIter                  // generators, iterators, dict views and ranges
	KindObject                // namespaces, loops, macros, functions, ...
)

// Value is a template value with Python semantics. The zero Value is
// undefined.
type Value struct {
	kind  Kind
	safe  bool // a Markup string
	n     int64
	f     float64
	s     string
	items []Value // list and tuple elements
	ref   any     // *Dict, *iterator, *undefined, object
}

// undefined carries what jinja2 needs to word the error raised when an
// undefined value is used.
type undefined struct {
	hint    string
	name    string
	objType string // "dict object", "None", ...; empty when there was no object
	item    bool   // looked up by a non-string key
	exc     string // Python exception type, "UndefinedError" by default
}

// None returns Python's None.
func None() Value { return Value{kind: KindNone} }

// Bool returns a bool value.
func Bool(b bool) Value {
	if b {
		return Value{kind: KindBool, n: 1}
	}
	return Value{kind: KindBool}
}

// Int returns an int value.
func Int(n int64) Value { return Value{kind: KindInt, n: n} }

// Float returns a float value.
func Float(f float64) Value { return Value{kind: KindFloat, f: f} }

// String returns a str value.
func String(s string) Value { return Value{kind: KindString, s: s} }

// Markup returns a string marked safe, as markupsafe.Markup.
func Markup(s string) Value { return Value{kind: KindString, s: s, safe: true} }

// List returns a list value holding items (not copied).
func List(items ...Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{kind: KindList, items: items}
}

// Tuple returns a tuple value holding items (not copied).
func Tuple(items ...Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{kind: KindTuple, items: items}
}

// Undefined returns an undefined value for the variable name.
func Undefined(name string) Value {
	return Value{kind: KindUndefined, ref: &undefined{name: name}}
}

func undefHint(hint string) Value {
	return Value{kind: KindUndefined, ref: &undefined{hint: hint}}
}

// undefAttr is the undefined value of a missing attribute or item of obj.
func undefAttr(obj Value, key Value) Value {
	u := &undefined{objType: objectTypeRepr(obj)}
	if key.kind == KindString {
		u.name = key.s
	} else {
		u.name = repr(key)
		u.item = true
	}
	return Value{kind: KindUndefined, ref: u}
}

func unsafeUndef(obj Value, attr string) Value {
	return Value{kind: KindUndefined, ref: &undefined{
		hint: "access to attribute '" + attr + "' of '" + typeName(obj) + "' object is unsafe.",
		name: attr, exc: "SecurityError",
	}}
}

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.kind == KindUndefined }

// String returns str(v) as Python would print it.
func (v Value) String() string { return str(v) }

// AsDict returns the dict held by v, if v is a dict.
func (v Value) AsDict() (*Dict, bool) {
	d, ok := v.ref.(*Dict)
	return d, ok && v.kind == KindDict
}

// Items returns the elements of a list or tuple (not copied).
func (v Value) Items() []Value { return v.items }

// undefinedError is the error raised when an undefined value is used.
func (v Value) undefinedError() *Error {
	u, _ := v.ref.(*undefined)
	if u == nil {
		u = &undefined{}
	}
	exc := u.exc
	if exc == "" {
		exc = "UndefinedError"
	}
	var msg string
	switch {
	case u.hint != "":
		msg = u.hint
	case u.objType == "":
		msg = "'" + u.name + "' is undefined"
	case u.item:
		msg = u.objType + " has no element " + u.name
	default:
		msg = "'" + u.objType + "' has no attribute '" + u.name + "'"
	}
	return newErr(ErrRuntime, exc, "%s", msg)
}

// isNumber reports bool, int and float (Python's numbers.Number).
func (v Value) isNumber() bool {
	return v.kind == KindBool || v.kind == KindInt || v.kind == KindFloat
}

// isIntLike reports bool and int.
func (v Value) isIntLike() bool { return v.kind == KindBool || v.kind == KindInt }

func (v Value) asFloat() float64 {
	if v.kind == KindFloat {
		return v.f
	}
	return float64(v.n)
}

// truth is Python's bool(v).
func truth(v Value) bool {
	switch v.kind {
	case KindUndefined, KindNone:
		return false
	case KindBool, KindInt:
		return v.n != 0
	case KindFloat:
		return v.f != 0
	case KindString:
		return v.s != ""
	case KindList, KindTuple:
		return len(v.items) > 0
	case KindDict:
		return v.ref.(*Dict).Len() > 0
	case KindIter:
		it := v.ref.(*iterator)
		if it.sized {
			return len(it.items) > 0
		}
		return true
	}
	return true
}

// typeName is type(v).__name__.
func typeName(v Value) string {
	switch v.kind {
	case KindUndefined:
		return "Undefined"
	case KindNone:
		return "NoneType"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindString:
		if v.safe {
			return "Markup"
		}
		return "str"
	case KindList:
		return "list"
	case KindTuple:
		return "tuple"
	case KindDict:
		return "dict"
	case KindIter:
		return v.ref.(*iterator).typ
	case KindObject:
		return v.ref.(object).typeName()
	}
	return "object"
}

// objectTypeRepr is jinja2's object_type_repr, used in undefined messages.
func objectTypeRepr(v Value) string {
	switch v.kind {
	case KindNone:
		return "None"
	case KindString:
		if v.safe {
			return "markupsafe.Markup object"
		}
	case KindObject:
		if m := v.ref.(object).module(); m != "" {
			return m + "." + typeName(v) + " object"
		}
	}
	return typeName(v) + " object"
}

// object is a Python object other than the built-in containers.
type object interface {
	typeName() string
	module() string // "" for built-ins, else e.g. "jinja2.utils"
	repr() string
}
