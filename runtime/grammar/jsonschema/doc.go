// Package jsonschema turns a JSON schema into a grammar whose every match
// is a JSON text valid against the schema, for constrained decoding.
//
// Supported: the types object, array, string, number, integer, boolean and
// null (and lists of them); properties, required (declared order kept,
// optional properties optional), additionalProperties (false, true or a
// schema); enum and const; items, prefixItems, minItems and maxItems;
// $ref to local $defs or definitions (recursion allowed); anyOf, oneOf
// and allOf (merged); minLength, maxLength, pattern (a regex
// subset) and the formats date, time, date-time, uuid and email
// (simplified: every output is valid, not every valid value is
// producible); minimum, maximum and their exclusive forms on integers and
// numbers. Keywords that would be ignored at the risk of invalid output
// (uniqueItems, multipleOf, not, if/then/else, patternProperties, ...)
// are refused with ErrUnsupported.
//
// oneOf is exclusive where its branches can be told apart: a branch's
// output is valid against no other branch when they differ by type (an
// integer is also a number), by const or enum values, by a property one
// requires and the other never writes (or does not allow), or by a
// property both require with exclusive values (a discriminator such as
// "kind": "circle" | "square"). A branch that would write as optional a
// property another branch requires stops writing it, so {"required":
// ["a"]} and {"required": ["b"]} over the same properties give {"a": ...}
// or {"b": ...}, never both. Branches that cannot be told apart this way
// (integer against number, a string against an enum of strings, overlapping
// ranges or patterns, extra properties allowed) are generated as for
// anyOf: their outputs are valid against at least one branch, and may be
// valid against several, which a context-free grammar could only exclude
// by subtracting one branch's language from another's (not done).
//
// Whitespace is bounded (one space, or one newline and up to 20 blanks,
// between tokens), numbers have at most 16 digits before and after the
// point, so a model cannot loop on them forever.
package jsonschema

import "errors"

// Errors returned (wrapped) by this package.
var (
	// ErrSchema reports a schema that is not valid JSON or not a schema.
	ErrSchema = errors.New("invalid JSON schema")
	// ErrUnsupported reports a schema feature the converter cannot honor.
	ErrUnsupported = errors.New("unsupported JSON schema feature")
)

// Options tune the conversion.
type Options struct {
	// ExtraProperties lets objects carry undeclared properties when the
	// schema does not say additionalProperties; by default they get only
	// the declared ones (still valid, and what strict tool calls expect).
	ExtraProperties bool
}
