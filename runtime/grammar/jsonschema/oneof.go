package jsonschema

import (
	"slices"
)

// oneOfBranches returns the branches of a oneOf that must be generated
// other than as written, each merged with the schema's other constraints
// and narrowed (nil for the others). A branch is exclusive when what it
// generates is valid against no other branch, which is shown by type, by
// const or enum, by a property another branch requires and this one
// never writes, or by a property both require with exclusive values.
// When a branch would write a property only as an optional one and
// another branch requires it, the branch stops writing it, which makes
// it exclusive. Branches still not shown exclusive are generated as for
// anyOf (see the package doc).
func (c *converter) oneOfBranches(rest *object, list []any) ([]any, error) {
	subs := make([]any, len(list))
	for i, b := range list {
		d, err := c.deref(b)
		if err != nil {
			return nil, err
		}
		if hasConstraints(rest) {
			if d, err = c.merge(rest, d); err != nil {
				return nil, err
			}
		}
		subs[i] = d
	}
	orig := slices.Clone(subs) // what the outputs are validated against
	out := make([]any, len(subs))
	for i := range subs {
		for j := range subs {
			if i == j || c.excludes(subs[i], orig[j], 0) {
				continue
			}
			if n := c.narrow(subs[i], orig[j]); n != nil && c.excludes(n, orig[j], 0) {
				subs[i], out[i] = n, n
			}
		}
		if hasConstraints(rest) {
			out[i] = subs[i]
		}
	}
	return out, nil
}

// maxExcludeDepth bounds the nesting that excludes follows.
const maxExcludeDepth = 8

// excludes reports whether no value that schema g generates is valid
// against schema v. It answers false when unsure.
func (c *converter) excludes(g, v any, depth int) bool {
	if depth > maxExcludeDepth {
		return false
	}
	var err error
	if g, err = c.deref(g); err != nil {
		return false
	}
	if v, err = c.deref(v); err != nil {
		return false
	}
	if v == false {
		return true
	}
	gs, ok := g.(*object)
	if !ok || g == true {
		return false
	}
	if vals, ok := values(gs); ok {
		for _, x := range vals {
			if !c.rejects(v, x, depth+1) {
				return false
			}
		}
		return true
	}
	vs, ok := v.(*object)
	if !ok {
		return false // v is true: everything is valid
	}
	if vals, ok := values(vs); ok {
		for _, x := range vals {
			if c.mayGenerate(gs, x) {
				return false
			}
		}
		return true
	}
	if composite(gs) || composite(vs) {
		return false
	}
	gt, err := schemaTypes(gs, "")
	if err != nil || slices.Contains(gt, "any") {
		return false
	}
	_, typed := vs.get("type")
	vt, err := schemaTypes(vs, "")
	if err != nil {
		return false
	}
	for _, t := range gt {
		if !typed && t != "object" {
			return false // object keywords do not constrain other types
		}
		if typed && !slices.ContainsFunc(vt, func(u string) bool { return overlap(t, u) }) {
			continue
		}
		if t != "object" || !c.objectExcludes(gs, vs, depth) {
			return false
		}
	}
	return true
}

// objectExcludes reports whether no object that g generates is valid
// against v: v requires a key g never writes, or a key g always writes
// has, in v, a schema that excludes what g writes for it.
func (c *converter) objectExcludes(g, v *object, depth int) bool {
	gp, err := objectProperties(g, "")
	if err != nil {
		return false
	}
	vp, err := objectProperties(v, "")
	if err != nil {
		return false
	}
	extra := c.extra(g)
	for _, p := range vp {
		if p.required && extra == false && !slices.ContainsFunc(gp, func(q property) bool { return q.key == p.key }) {
			return true
		}
	}
	for _, p := range gp {
		if !p.required {
			continue
		}
		if c.excludes(p.schema, memberSchema(v, vp, p.key), depth+1) {
			return true
		}
	}
	return false
}

// extra returns what an object schema generates besides its declared
// properties: false, true or a schema.
func (c *converter) extra(s *object) any {
	if v, ok := s.get("additionalProperties"); ok {
		return v
	}
	return c.opts.ExtraProperties
}

// narrow returns g without the optional properties that v requires, when
// g writes no other keys: its objects are then invalid against v. It
// returns nil when there are none.
func (c *converter) narrow(g, v any) *object {
	gs, ok := g.(*object)
	if !ok || c.extra(gs) != false {
		return nil
	}
	vs, ok := v.(*object)
	if !ok {
		return nil
	}
	gp, err := objectProperties(gs, "")
	if err != nil {
		return nil
	}
	vp, err := objectProperties(vs, "")
	if err != nil {
		return nil
	}
	var drop []string
	for _, p := range gp {
		if !p.required && slices.ContainsFunc(vp, func(q property) bool { return q.required && q.key == p.key }) {
			drop = append(drop, p.key)
		}
	}
	props, ok := gs.vals["properties"].(*object)
	if len(drop) == 0 || !ok {
		return nil
	}
	out := withoutKeys(gs)
	out.vals["properties"] = withoutKeys(props, drop...)
	return out
}
