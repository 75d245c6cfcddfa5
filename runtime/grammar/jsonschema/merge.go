package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// merge combines two schemas that must both hold (allOf). Objects merge
// key by key: properties and required are joined, bounds tightened, types
// and enums intersected; any other keyword must agree.
func (c *converter) merge(a, b any) (any, error) {
	if x, ok := a.(bool); ok {
		if !x {
			return nil, fmt.Errorf("%w: allOf with schema false", ErrUnsupported)
		}
		return b, nil
	}
	if x, ok := b.(bool); ok {
		if !x {
			return nil, fmt.Errorf("%w: allOf with schema false", ErrUnsupported)
		}
		return a, nil
	}
	oa, ok1 := a.(*object)
	ob, ok2 := b.(*object)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%w: allOf of non-schemas", ErrSchema)
	}
	out := withoutKeys(oa)
	for _, k := range ob.keys {
		bv := ob.vals[k]
		av, ok := out.get(k)
		if !ok {
			out.keys = append(out.keys, k)
			out.vals[k] = bv
			continue
		}
		v, err := c.mergeKeyword(k, av, bv)
		if err != nil {
			return nil, err
		}
		out.vals[k] = v
	}
	for _, side := range []*object{oa, ob} {
		if err := restrictProperties(out, side); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// restrictProperties keeps in the merged schema only the properties that a
// side with additionalProperties false declares: the others would make
// that side fail. A required one of them makes the merge unsatisfiable.
func restrictProperties(out, side *object) error {
	if ap, ok := side.get("additionalProperties"); !ok || ap != false {
		return nil
	}
	declared := map[string]bool{}
	if p, ok := side.get("properties"); ok {
		if po, ok := p.(*object); ok {
			for _, k := range po.keys {
				declared[k] = true
			}
		}
	}
	if p, ok := out.get("properties"); ok {
		if po, ok := p.(*object); ok {
			kept := withoutKeys(po)
			kept.keys = slices.DeleteFunc(kept.keys, func(k string) bool { return !declared[k] })
			out.vals["properties"] = kept
		}
	}
	if r, ok := out.get("required"); ok {
		list, _ := r.([]any)
		for _, e := range list {
			if name, _ := e.(string); !declared[name] {
				return fmt.Errorf("%w: allOf requires %q, which a branch with additionalProperties false does not declare", ErrUnsupported, name)
			}
		}
	}
	return nil
}

func (c *converter) mergeKeyword(k string, a, b any) (any, error) {
	if slices.Contains(annotations, k) || same(a, b) {
		return a, nil
	}
	switch k {
	case "properties":
		pa, ok1 := a.(*object)
		pb, ok2 := b.(*object)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%w: properties is not an object", ErrSchema)
		}
		out := withoutKeys(pa)
		for _, name := range pb.keys {
			if av, ok := out.get(name); ok {
				v, err := c.mergeSchemas(av, pb.vals[name])
				if err != nil {
					return nil, fmt.Errorf("property %q: %w", name, err)
				}
				out.vals[name] = v
				continue
			}
			out.keys = append(out.keys, name)
			out.vals[name] = pb.vals[name]
		}
		return out, nil
	case "required":
		ra, _ := a.([]any)
		rb, _ := b.([]any)
		out := slices.Clone(ra)
		for _, r := range rb {
			if !slices.ContainsFunc(out, func(x any) bool { return same(x, r) }) {
				out = append(out, r)
			}
		}
		return out, nil
	case "additionalProperties":
		if a == false || b == false {
			return false, nil
		}
		return c.mergeSchemas(a, b)
	case "type":
		return intersectTypes(a, b)
	case "enum":
		la, _ := a.([]any)
		lb, _ := b.([]any)
		var out []any
		for _, x := range la {
			if slices.ContainsFunc(lb, func(y any) bool { return same(x, y) }) {
				out = append(out, x)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: allOf enums have no common value", ErrUnsupported)
		}
		return out, nil
	case "minLength", "minItems", "minimum":
		return pickNumber(a, b, true)
	case "maxLength", "maxItems", "maximum":
		return pickNumber(a, b, false)
	}
	return nil, fmt.Errorf("%w: allOf cannot merge differing %q", ErrUnsupported, k)
}

// mergeSchemas merges two subschemas, following their references.
func (c *converter) mergeSchemas(a, b any) (any, error) {
	da, err := c.deref(a)
	if err != nil {
		return nil, err
	}
	db, err := c.deref(b)
	if err != nil {
		return nil, err
	}
	return c.merge(da, db)
}

func intersectTypes(a, b any) (any, error) {
	list := func(v any) []string {
		switch x := v.(type) {
		case string:
			return []string{x}
		case []any:
			var out []string
			for _, e := range x {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
		return nil
	}
	lb := list(b)
	var out []any
	for _, t := range list(a) {
		if slices.Contains(lb, t) || t == "number" && slices.Contains(lb, "integer") {
			if t == "number" && slices.Contains(lb, "integer") {
				t = "integer"
			}
			out = append(out, t)
		} else if t == "integer" && slices.Contains(lb, "number") {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: allOf types have nothing in common", ErrUnsupported)
	}
	return out, nil
}

func pickNumber(a, b any, larger bool) (any, error) {
	na, ok1 := a.(json.Number)
	nb, ok2 := b.(json.Number)
	fa, err1 := na.Float64()
	fb, err2 := nb.Float64()
	if !ok1 || !ok2 || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%w: bound is not a number", ErrSchema)
	}
	if fa > fb == larger {
		return a, nil
	}
	return b, nil
}

// same reports whether two JSON values are equal.
func same(a, b any) bool {
	var x, y bytes.Buffer
	encode(&x, a)
	encode(&y, b)
	return x.String() == y.String()
}
