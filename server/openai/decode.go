package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// decode unmarshals data, a JSON object, into v and turns a syntax or type
// error into an *Error naming the field under prefix ("" at the top level,
// else e.g. "messages[2]").
func decode(data []byte, v any, prefix string) *Error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		if prefix == "" {
			return Invalid("", CodeInvalidJSON, "The request body must be a JSON object.")
		}
		return Invalid(prefix, CodeInvalidType, "%s must be an object.", prefix)
	}
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	if e := typeError(err, prefix); e != nil {
		return e
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return Invalid("", CodeInvalidJSON, "The request body is not valid JSON: %v (at byte %d).", se, se.Offset)
	}
	return Invalid(prefix, CodeInvalidJSON, "The request body could not be parsed: %v.", err)
}

// decodeValue unmarshals one JSON value into v, naming param on error.
func decodeValue(data json.RawMessage, v any, param string) *Error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	if e := typeError(err, param); e != nil {
		return e
	}
	return Invalid(param, CodeInvalidType, "Invalid value for '%s': %v.", param, err)
}

// typeError returns the *Error of a JSON type mismatch under prefix, nil
// for another error.
func typeError(err error, prefix string) *Error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return nil
	}
	p := join(prefix, te.Field)
	return Invalid(p, CodeInvalidType, "Invalid type for '%s': expected %s, but got %s.", p, typeName(te.Type), article(te.Value))
}

// join joins a prefix and a field path of encoding/json, leaving out the
// Go names of embedded structs (JSON names here are lower case).
func join(prefix, field string) string {
	parts := strings.Split(field, ".")
	kept := parts[:0]
	for _, p := range parts {
		if p != "" && !(p[0] >= 'A' && p[0] <= 'Z') {
			kept = append(kept, p)
		}
	}
	field = strings.Join(kept, ".")
	switch {
	case prefix == "":
		return field
	case field == "":
		return prefix
	}
	return prefix + "." + field
}

// isNull reports whether a raw value is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// kind returns the JSON kind of a raw value: "string", "number", "object",
// "array", "boolean" or "null".
func kind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "null"
	}
	switch t[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func typeName(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return typeName(t.Elem())
	}
	return "a " + t.String()
}

func article(jsonKind string) string {
	switch {
	case strings.HasPrefix(jsonKind, "number"):
		return "a number (" + jsonKind + ")"
	case jsonKind == "array", jsonKind == "object":
		return "an " + jsonKind
	case jsonKind == "":
		return "a value"
	}
	return fmt.Sprintf("a %s", jsonKind)
}
