package jsonschema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// maxRefHops bounds chains of references followed to merge schemas.
const maxRefHops = 32

// refRule returns the rule of a referenced schema, made once: recursion
// through references works because the name exists before the body.
func (c *converter) refRule(ref string) (string, error) {
	if n, ok := c.refs[ref]; ok {
		return n, nil
	}
	target, err := c.resolve(ref)
	if err != nil {
		return "", err
	}
	n, err := c.name("def-" + ref[strings.LastIndexByte(ref, '/')+1:])
	if err != nil {
		return "", err
	}
	c.refs[ref] = n
	expr, err := c.gen(target, n)
	if err != nil {
		return "", err
	}
	c.define(n, expr)
	return n, nil
}

// resolve follows a local reference: "#" or a JSON pointer "#/...".
func (c *converter) resolve(ref string) (any, error) {
	if ref == "#" {
		return c.root, nil
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("%w: non-local $ref %q", ErrUnsupported, ref)
	}
	cur := c.root
	for _, part := range strings.Split(ref[2:], "/") {
		if p, err := url.PathUnescape(part); err == nil {
			part = p
		}
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		switch x := cur.(type) {
		case *object:
			v, ok := x.get(part)
			if !ok {
				return nil, fmt.Errorf("%w: $ref %q: no %q", ErrSchema, ref, part)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("%w: $ref %q: bad index %q", ErrSchema, ref, part)
			}
			cur = x[i]
		default:
			return nil, fmt.Errorf("%w: $ref %q goes through a non-container", ErrSchema, ref)
		}
	}
	return cur, nil
}

// deref returns a schema with its top-level $ref and allOf merged in.
func (c *converter) deref(s any) (any, error) {
	for hop := 0; ; hop++ {
		o, ok := s.(*object)
		if !ok {
			return s, nil
		}
		if hop > maxRefHops {
			return nil, fmt.Errorf("%w: more than %d $ref hops to merge", ErrUnsupported, maxRefHops)
		}
		if all, ok := o.get("allOf"); ok {
			m, err := c.mergeAllOf(o, all, "allOf")
			if err != nil {
				return nil, err
			}
			s = m
			continue
		}
		ref, ok := o.get("$ref")
		if !ok {
			return s, nil
		}
		r, _ := ref.(string)
		target, err := c.resolve(r)
		if err != nil {
			return nil, err
		}
		if !hasConstraints(o, "$ref") {
			s = target
			continue
		}
		if s, err = c.merge(withoutKeys(o, "$ref"), target); err != nil {
			return nil, err
		}
	}
}

// mergeAllOf merges the subschemas of allOf with the rest of s.
func (c *converter) mergeAllOf(s *object, all any, hint string) (any, error) {
	list, ok := all.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("%w: allOf at %s is not a non-empty list", ErrSchema, hint)
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxGenDepth {
		return nil, fmt.Errorf("%w: allOf nested deeper than %d at %s", ErrUnsupported, maxGenDepth, hint)
	}
	var out any = withoutKeys(s, "allOf")
	for _, sub := range list {
		d, err := c.deref(sub)
		if err != nil {
			return nil, err
		}
		if out, err = c.merge(out, d); err != nil {
			return nil, fmt.Errorf("allOf at %s: %w", hint, err)
		}
	}
	return out, nil
}

// hasType reports whether a JSON value is of a schema type.
func hasType(v any, t string) bool {
	switch x := v.(type) {
	case string:
		return t == "string"
	case json.Number:
		if t == "number" {
			return true
		}
		_, err := strconv.ParseInt(x.String(), 10, 64)
		return t == "integer" && err == nil
	case bool:
		return t == "boolean"
	case nil:
		return t == "null"
	case *object:
		return t == "object"
	case []any:
		return t == "array"
	}
	return false
}
