package jsonschema

import (
	"fmt"
	"math"
)

// maxArrayRules bounds the positions an array schema spells out.
const maxArrayRules = 1024

// maxRepeat is the largest bounded repetition the grammar takes.
const maxRepeat = 4096

// genArray makes "[" items "]" with prefixItems, items and the count
// bounds: positions before max(len(prefixItems), minItems) get a rule
// each; later ones repeat the items schema.
func (c *converter) genArray(s *object, hint string) (string, error) {
	var prefix []any
	if p, ok := s.get("prefixItems"); ok {
		list, ok := p.([]any)
		if !ok {
			return "", fmt.Errorf("%w: prefixItems at %s is not a list", ErrSchema, hint)
		}
		prefix = list
	}
	var items any = true
	if it, ok := s.get("items"); ok {
		if _, isList := it.([]any); isList {
			return "", fmt.Errorf("%w: items as a list at %s (use prefixItems)", ErrUnsupported, hint)
		}
		items = it
	}
	lo, err := count(s, "minItems", 0, hint)
	if err != nil {
		return "", err
	}
	hi, err := count(s, "maxItems", math.MaxInt, hint)
	if err != nil {
		return "", err
	}
	if items == false {
		hi = min(hi, len(prefix))
	}
	if lo > hi {
		return "", fmt.Errorf("%w: array at %s needs %d to %d items", ErrUnsupported, hint, lo, hi)
	}
	stable := max(len(prefix), lo)
	if stable > maxArrayRules {
		return "", fmt.Errorf("%w: array at %s spells out %d positions (at most %d)", ErrUnsupported, hint, stable, maxArrayRules)
	}
	ws := c.primitive("ws")
	// The items schema is converted once: positions past the prefix share
	// its expression, and converting it again at every nesting level
	// would take time exponential in the depth.
	itemExpr := ""
	el := func(j int) (string, error) {
		if j < len(prefix) {
			return c.gen(prefix[j], fmt.Sprintf("%s-%d", hint, j))
		}
		if itemExpr == "" {
			e, err := c.gen(items, hint+"-item")
			if err != nil {
				return "", err
			}
			itemExpr = e
		}
		return itemExpr, nil
	}
	// tail is the rule for the items from position j on, j >= 1.
	tail := ""
	start := min(stable, hi)
	if from := max(start, 1); from < hi {
		item, err := el(from)
		if err != nil {
			return "", err
		}
		more := "*"
		if hi != math.MaxInt {
			if hi-from > maxRepeat {
				return "", fmt.Errorf("%w: maxItems %d at %s", ErrUnsupported, hi, hint)
			}
			more = fmt.Sprintf("{0,%d}", hi-from)
		}
		tail = fmt.Sprintf(`( "," %s %s )%s`, ws, item, more)
	}
	for j := start - 1; j >= 1; j-- {
		e, err := el(j)
		if err != nil {
			return "", err
		}
		body := fmt.Sprintf(`"," %s %s %s`, ws, e, tail)
		if j >= lo {
			body = fmt.Sprintf(`( %s )?`, body)
		}
		if tail, err = c.rule(fmt.Sprintf("%s-from-%d", hint, j), body); err != nil {
			return "", err
		}
	}
	head := ""
	if hi > 0 {
		e, err := el(0)
		if err != nil {
			return "", err
		}
		head = fmt.Sprintf("%s %s", e, tail)
		if lo == 0 {
			head = fmt.Sprintf("( %s )?", head)
		}
	}
	return c.rule(hint, fmt.Sprintf(`"[" %s %s %s "]"`, ws, head, ws))
}

// count reads a non-negative integer keyword.
func count(s *object, key string, def int, hint string) (int, error) {
	v, ok := s.get(key)
	if !ok {
		return def, nil
	}
	n, err := asInt(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%w: %s at %s is not a non-negative integer", ErrSchema, key, hint)
	}
	return int(min(n, math.MaxInt32)), nil
}
