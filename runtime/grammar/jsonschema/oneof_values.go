package jsonschema

import (
	"encoding/json"
	"math"
	"slices"
)

// rejects reports whether value x is invalid against schema v (false when
// unsure).
func (c *converter) rejects(v, x any, depth int) bool {
	v, err := c.deref(v)
	if err != nil || depth > maxExcludeDepth {
		return false
	}
	if v == false {
		return true
	}
	vs, ok := v.(*object)
	if !ok || composite(vs) {
		return false
	}
	if vals, ok := values(vs); ok {
		return !slices.ContainsFunc(vals, func(y any) bool { return same(x, y) })
	}
	if _, ok := vs.get("type"); ok {
		vt, err := schemaTypes(vs, "")
		if err == nil && !slices.ContainsFunc(vt, func(t string) bool { return isType(x, t) }) {
			return true
		}
	}
	xo, ok := x.(*object)
	if !ok {
		return false
	}
	vp, err := objectProperties(vs, "")
	if err != nil {
		return false
	}
	if lacksRequired(vp, xo) {
		return true
	}
	for _, k := range xo.keys {
		if c.rejects(memberSchema(vs, vp, k), xo.vals[k], depth+1) {
			return true
		}
	}
	return false
}

// mayGenerate reports whether schema g may generate value x (true when
// unsure): false when x's type is not one g generates, or when x is an
// object that lacks a key g always writes or has one g never writes.
func (c *converter) mayGenerate(g *object, x any) bool {
	if composite(g) {
		return true
	}
	gt, err := schemaTypes(g, "")
	if err != nil || slices.Contains(gt, "any") {
		return true
	}
	if !slices.ContainsFunc(gt, func(t string) bool { return isType(x, t) }) {
		return false
	}
	xo, ok := x.(*object)
	if !ok {
		return true
	}
	gp, err := objectProperties(g, "")
	if err != nil {
		return true
	}
	if lacksRequired(gp, xo) {
		return false
	}
	if c.extra(g) == false {
		for _, k := range xo.keys {
			if !slices.ContainsFunc(gp, func(q property) bool { return q.key == k }) {
				return false
			}
		}
	}
	return true
}

// memberSchema returns the schema of member key of an object schema s
// with properties props.
func memberSchema(s *object, props []property, key string) any {
	if i := slices.IndexFunc(props, func(q property) bool { return q.key == key }); i >= 0 {
		return props[i].schema
	}
	if ap, ok := s.get("additionalProperties"); ok {
		return ap
	}
	return true
}

// lacksRequired reports whether object x lacks a required property.
func lacksRequired(props []property, x *object) bool {
	return slices.ContainsFunc(props, func(p property) bool { return p.required && !slices.Contains(x.keys, p.key) })
}

// values returns the values a schema allows when it lists them (const or
// enum).
func values(s *object) ([]any, bool) {
	if v, ok := s.get("const"); ok {
		return []any{v}, true
	}
	if v, ok := s.get("enum"); ok {
		list, ok := v.([]any)
		return list, ok
	}
	return nil, false
}

// composite reports keywords whose effect excludes does not follow.
func composite(s *object) bool {
	for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref", "not", "if"} {
		if _, ok := s.get(k); ok {
			return true
		}
	}
	return false
}

// overlap reports whether two schema types share values.
func overlap(a, b string) bool {
	num := func(t string) bool { return t == "number" || t == "integer" }
	return a == b || num(a) && num(b) || a == "any" || b == "any"
}

// isType is hasType with the validators' notion of an integer: any number
// with a zero fractional part (1.0 included).
func isType(x any, t string) bool {
	if n, ok := x.(json.Number); ok && t == "integer" {
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	}
	return hasType(x, t)
}
