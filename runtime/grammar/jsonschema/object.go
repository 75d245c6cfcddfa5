package jsonschema

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// property is one declared member of an object.
type property struct {
	key      string
	schema   any
	required bool
}

// genObject makes "{" members "}" with the declared properties in order
// (required ones present, optional ones optional) and, when allowed,
// other properties after them.
func (c *converter) genObject(s *object, hint string) (string, error) {
	props, err := objectProperties(s, hint)
	if err != nil {
		return "", err
	}
	var extra any = c.opts.ExtraProperties
	if v, ok := s.get("additionalProperties"); ok {
		extra = v
	}
	ws := c.primitive("ws")
	var kvs []string
	for _, p := range props {
		v, err := c.gen(p.schema, hint+"-"+p.key)
		if err != nil {
			return "", err
		}
		var key bytes.Buffer
		encodeString(&key, p.key)
		kvs = append(kvs, fmt.Sprintf("%s \":\" %s %s", quote(key.String()), ws, v))
	}
	// after: the members from i on when one was already written;
	// first: the same when none was.
	after, first := "", `""`
	if extra != false {
		kv, err := c.extraMember(s, props, extra, hint)
		if err != nil {
			return "", err
		}
		after = fmt.Sprintf(`( "," %s %s )*`, ws, kv)
		first = fmt.Sprintf(`( %s %s )?`, kv, after)
	}
	if after != "" {
		if after, err = c.rule(hint+"-rest", after); err != nil {
			return "", err
		}
		if first, err = c.rule(hint+"-extra", first); err != nil {
			return "", err
		}
	}
	for i := len(props) - 1; i >= 0; i-- {
		next := fmt.Sprintf(`"," %s %s %s`, ws, kvs[i], after)
		body := fmt.Sprintf("%s %s", kvs[i], after)
		if !props[i].required {
			next = fmt.Sprintf(`( "," %s %s )? %s`, ws, kvs[i], after)
			body = fmt.Sprintf("%s %s | %s", kvs[i], after, first)
		}
		if after, err = c.rule(hint+"-after-"+props[i].key, next); err != nil {
			return "", err
		}
		if first, err = c.rule(hint+"-from-"+props[i].key, body); err != nil {
			return "", err
		}
	}
	return c.rule(hint, fmt.Sprintf(`"{" %s %s %s "}"`, ws, first, ws))
}

// objectProperties lists the declared properties in order, then required
// names that no property declares.
func objectProperties(s *object, hint string) ([]property, error) {
	var required []string
	if r, ok := s.get("required"); ok {
		list, ok := r.([]any)
		if !ok {
			return nil, fmt.Errorf("%w: required at %s is not a list", ErrSchema, hint)
		}
		for _, e := range list {
			name, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%w: required at %s holds a non-string", ErrSchema, hint)
			}
			required = append(required, name)
		}
	}
	var props []property
	if p, ok := s.get("properties"); ok {
		po, ok := p.(*object)
		if !ok {
			return nil, fmt.Errorf("%w: properties at %s is not an object", ErrSchema, hint)
		}
		for _, k := range po.keys {
			props = append(props, property{key: k, schema: po.vals[k], required: slices.Contains(required, k)})
		}
	}
	for _, r := range required {
		if !slices.ContainsFunc(props, func(p property) bool { return p.key == r }) {
			var sch any = true
			if ap, ok := s.get("additionalProperties"); ok {
				if ap == false {
					return nil, fmt.Errorf("%w: required %q at %s is not a property and additionalProperties is false", ErrUnsupported, r, hint)
				}
				sch = ap
			}
			props = append(props, property{key: r, schema: sch, required: true})
		}
	}
	return props, nil
}

// extraMember makes a member with a key other than the declared ones (and
// written without escapes, so that it cannot spell one of them).
func (c *converter) extraMember(s *object, props []property, extra any, hint string) (string, error) {
	var keys []string
	for _, p := range props {
		keys = append(keys, p.key)
	}
	key, err := c.keyNotIn(keys, hint+"-key")
	if err != nil {
		return "", err
	}
	var sch any = true
	if extra != true {
		sch = extra
	}
	v, err := c.gen(sch, hint+"-value")
	if err != nil {
		return "", err
	}
	return c.rule(hint+"-member", fmt.Sprintf(`"\"" %s "\"" ":" %s %s`, key, c.primitive("ws"), v))
}

// keyNotIn returns the rule of key texts (between the quotes) different
// from every given key: a trie over the keys where each node allows to
// stop (unless a key ends there), to follow an edge, or to leave the trie
// with any other character.
func (c *converter) keyNotIn(keys []string, hint string) (string, error) {
	const keyChar = `[^"\\\x00-\x1F]`
	type trieNode struct {
		end  bool
		kids map[rune]*trieNode
	}
	root := &trieNode{kids: map[rune]*trieNode{}}
	for _, k := range keys {
		n := root
		for _, r := range k {
			if n.kids[r] == nil {
				n.kids[r] = &trieNode{kids: map[rune]*trieNode{}}
			}
			n = n.kids[r]
		}
		n.end = true
	}
	tail, err := c.rule("key-chars", keyChar+"*")
	if err != nil {
		return "", err
	}
	var build func(n *trieNode) (string, error)
	build = func(n *trieNode) (string, error) {
		var alts []string
		if !n.end {
			alts = append(alts, `""`)
		}
		var excl strings.Builder
		excl.WriteString(`[^"\\\x00-\x1F`)
		runes := make([]rune, 0, len(n.kids))
		for r := range n.kids {
			runes = append(runes, r)
		}
		slices.Sort(runes)
		for _, r := range runes {
			sub, err := build(n.kids[r])
			if err != nil {
				return "", err
			}
			alts = append(alts, quote(string(r))+" "+sub)
			fmt.Fprintf(&excl, `\U%08X`, r)
		}
		excl.WriteString("]")
		alts = append(alts, excl.String()+" "+tail)
		return c.rule(hint, strings.Join(alts, " | "))
	}
	return build(root)
}
