package jsonschema

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// maxGenDepth bounds the nesting of subschemas followed at once (merges of
// references included).
const maxGenDepth = 64

// Keywords that constrain values but are not implemented: a schema using
// them is refused rather than risk invalid output.
var unsupported = []string{
	"uniqueItems", "multipleOf", "not", "if", "then", "else", "patternProperties",
	"propertyNames", "minProperties", "maxProperties", "dependentRequired",
	"dependentSchemas", "dependencies", "contains", "minContains", "maxContains",
	"unevaluatedProperties", "unevaluatedItems", "additionalItems", "$dynamicRef",
	"$recursiveRef",
}

// Keywords that do not constrain values.
var annotations = []string{
	"title", "description", "default", "examples", "$schema", "$id", "$comment",
	"deprecated", "readOnly", "writeOnly", "contentEncoding", "contentMediaType",
	"$defs", "definitions", "$anchor", "nullable", "discriminator", "example",
}

// gen returns a grammar expression for a schema.
func (c *converter) gen(s any, hint string) (string, error) {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxGenDepth {
		return "", fmt.Errorf("%w: subschemas nested deeper than %d at %s", ErrUnsupported, maxGenDepth, hint)
	}
	if c.calls++; c.calls > maxGenCalls {
		return "", fmt.Errorf("%w: schema needs more than %d subschema conversions", ErrUnsupported, maxGenCalls)
	}
	switch x := s.(type) {
	case bool:
		if !x {
			return "", fmt.Errorf("%w: schema false at %s allows no value", ErrUnsupported, hint)
		}
		return c.primitive("json-value"), nil
	case *object:
		return c.genObjectSchema(x, hint)
	}
	return "", fmt.Errorf("%w: schema at %s is not an object or boolean", ErrSchema, hint)
}

func (c *converter) genObjectSchema(s *object, hint string) (string, error) {
	for _, k := range unsupported {
		if v, ok := s.get(k); ok && !(k == "uniqueItems" && v == false) {
			return "", fmt.Errorf("%w: keyword %q at %s", ErrUnsupported, k, hint)
		}
	}
	if ref, ok := s.get("$ref"); ok {
		r, ok := ref.(string)
		if !ok {
			return "", fmt.Errorf("%w: $ref at %s is not a string", ErrSchema, hint)
		}
		if !hasConstraints(s, "$ref") {
			return c.refRule(r)
		}
		target, err := c.resolve(r)
		if err != nil {
			return "", err
		}
		merged, err := c.merge(withoutKeys(s, "$ref"), target)
		if err != nil {
			return "", fmt.Errorf("%s: %w", hint, err)
		}
		return c.gen(merged, hint)
	}
	if all, ok := s.get("allOf"); ok {
		merged, err := c.mergeAllOf(s, all, hint)
		if err != nil {
			return "", err
		}
		return c.gen(merged, hint)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if v, ok := s.get(k); ok {
			return c.genAnyOf(s, k, v, hint)
		}
	}
	if v, ok := s.get("const"); ok {
		return literal(v), nil
	}
	if v, ok := s.get("enum"); ok {
		return c.genEnum(s, v, hint)
	}
	types, err := schemaTypes(s, hint)
	if err != nil {
		return "", err
	}
	var alts []string
	for _, t := range types {
		e, err := c.genType(s, t, hint)
		if err != nil {
			return "", err
		}
		alts = append(alts, e)
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return c.rule(hint, strings.Join(alts, " | "))
}

// hasConstraints reports whether a schema has keywords other than
// annotations and the given ones.
func hasConstraints(s *object, except ...string) bool {
	for _, k := range s.keys {
		if !slices.Contains(annotations, k) && !slices.Contains(except, k) {
			return true
		}
	}
	return false
}

func withoutKeys(s *object, drop ...string) *object {
	o := &object{vals: map[string]any{}}
	for _, k := range s.keys {
		if !slices.Contains(drop, k) {
			o.keys = append(o.keys, k)
			o.vals[k] = s.vals[k]
		}
	}
	return o
}

// schemaTypes returns the types a schema allows, inferred from its
// keywords when "type" is absent.
func schemaTypes(s *object, hint string) ([]string, error) {
	if t, ok := s.get("type"); ok {
		switch x := t.(type) {
		case string:
			return []string{x}, nil
		case []any:
			var out []string
			for _, e := range x {
				str, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("%w: type list at %s holds a non-string", ErrSchema, hint)
				}
				out = append(out, str)
			}
			if len(out) == 0 {
				return nil, fmt.Errorf("%w: empty type list at %s", ErrSchema, hint)
			}
			return out, nil
		}
		return nil, fmt.Errorf("%w: type at %s is neither a string nor a list", ErrSchema, hint)
	}
	has := func(keys ...string) bool {
		return slices.ContainsFunc(keys, func(k string) bool { _, ok := s.get(k); return ok })
	}
	switch {
	case has("properties", "required", "additionalProperties"):
		return []string{"object"}, nil
	case has("items", "prefixItems", "minItems", "maxItems"):
		return []string{"array"}, nil
	case has("minLength", "maxLength", "pattern", "format"):
		return []string{"string"}, nil
	case has("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
		return []string{"number"}, nil
	}
	return []string{"any"}, nil
}

func (c *converter) genType(s *object, t, hint string) (string, error) {
	switch t {
	case "object":
		return c.genObject(s, hint)
	case "array":
		return c.genArray(s, hint)
	case "string":
		return c.genString(s, hint)
	case "number", "integer":
		return c.genNumber(s, t == "integer", hint)
	case "boolean":
		return c.primitive("boolean"), nil
	case "null":
		return c.primitive("null"), nil
	case "any":
		return c.primitive("json-value"), nil
	}
	return "", fmt.Errorf("%w: unknown type %q at %s", ErrSchema, t, hint)
}

// genAnyOf makes an alternation of the branches, each merged with the
// schema's other constraints; for oneOf, branches are first narrowed to
// be exclusive where they can be (oneOfBranches).
func (c *converter) genAnyOf(s *object, key string, v any, hint string) (string, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return "", fmt.Errorf("%w: %s at %s is not a non-empty list", ErrSchema, key, hint)
	}
	rest := withoutKeys(s, key)
	var narrowed []any
	if key == "oneOf" {
		var err error
		if narrowed, err = c.oneOfBranches(rest, list); err != nil {
			return "", fmt.Errorf("%s: %w", hint, err)
		}
	}
	var alts []string
	for i, b := range list {
		sub := b
		switch {
		case narrowed != nil && narrowed[i] != nil:
			sub = narrowed[i]
		case hasConstraints(rest):
			bs, err := c.deref(b)
			if err != nil {
				return "", err
			}
			if sub, err = c.merge(rest, bs); err != nil {
				return "", fmt.Errorf("%s: %w", hint, err)
			}
		}
		e, err := c.gen(sub, fmt.Sprintf("%s-%d", hint, i))
		if err != nil {
			return "", err
		}
		alts = append(alts, e)
	}
	return c.rule(hint, strings.Join(alts, " | "))
}

// genEnum makes an alternation of the values (those of the schema's type,
// when it has one).
func (c *converter) genEnum(s *object, v any, hint string) (string, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return "", fmt.Errorf("%w: enum at %s is not a non-empty list", ErrSchema, hint)
	}
	var types []string
	if _, ok := s.get("type"); ok {
		var err error
		if types, err = schemaTypes(s, hint); err != nil {
			return "", err
		}
	}
	var alts []string
	for _, e := range list {
		if types == nil || slices.ContainsFunc(types, func(t string) bool { return hasType(e, t) }) {
			alts = append(alts, literal(e))
		}
	}
	if len(alts) == 0 {
		return "", fmt.Errorf("%w: no enum value at %s has the schema's type", ErrUnsupported, hint)
	}
	return c.rule(hint, strings.Join(alts, " | "))
}

// literal returns the grammar literal of a JSON value in compact form.
func literal(v any) string {
	var buf bytes.Buffer
	encode(&buf, v)
	return quote(buf.String())
}

// quote returns s as a GBNF string literal.
func quote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r < 0x20 || r == 0x7F:
			fmt.Fprintf(&sb, `\x%02X`, r)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
