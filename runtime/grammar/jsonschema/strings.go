package jsonschema

import (
	"fmt"
	"math"
)

// Grammars of the supported formats, between the quotes. They are
// simplified: every string they make is valid, but not every valid
// string can be made (no leap seconds, a plain email address).
var formats = map[string]string{
	"date":      `year "-" ( ( "0" [13578] | "1" [02] ) "-" day31 | ( "0" [469] | "11" ) "-" day30 | "02-" day28 ) | leap-year "-02-29"`,
	"time":      `( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9] ":" [0-5] [0-9] ( "." [0-9]{1,6} )? ( "Z" | [-+] ( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9] )`,
	"date-time": `date "T" time`,
	"uuid":      `hex{8} "-" hex{4} "-" hex{4} "-" hex{4} "-" hex{12}`,
	"email":     `email-atom ( "." email-atom ){0,3} "@" email-label ( "." email-label ){1,3}`,
}

// Helper rules of the formats.
var formatHelpers = map[string]string{
	"year":        `[0-9]{4}`,
	"leap-year":   `[0-9] [0-9] ( [02468] [48] | [13579] [26] | [2468] "0" ) | ( [02468] [048] | [13579] [26] ) "00"`,
	"day28":       `"0" [1-9] | "1" [0-9] | "2" [0-8]`,
	"day30":       `day28 | "29" | "30"`,
	"day31":       `day30 | "31"`,
	"email-atom":  `[a-zA-Z0-9_+-]{1,15}`,
	"email-label": `[a-zA-Z0-9] ( [a-zA-Z0-9] | "-" [a-zA-Z0-9] ){0,11}`,
}

var formatDeps = map[string][]string{
	"date":        {"year", "day28", "day30", "day31", "leap-year"},
	"date-time":   {"date", "time"},
	"uuid":        {"hex"},
	"email":       {"email-atom", "email-label"},
	"day30":       {"day28"},
	"day31":       {"day30"},
	"leap-year":   {},
	"email-label": {},
}

// genString makes a string with its length bounds, format or pattern.
func (c *converter) genString(s *object, hint string) (string, error) {
	lo, err := count(s, "minLength", 0, hint)
	if err != nil {
		return "", err
	}
	hi, err := count(s, "maxLength", math.MaxInt, hint)
	if err != nil {
		return "", err
	}
	bounded := lo > 0 || hi != math.MaxInt
	if p, ok := s.get("pattern"); ok {
		if bounded {
			return "", fmt.Errorf("%w: pattern with minLength or maxLength at %s", ErrUnsupported, hint)
		}
		ps, ok := p.(string)
		if !ok {
			return "", fmt.Errorf("%w: pattern at %s is not a string", ErrSchema, hint)
		}
		return c.genPattern(ps, hint)
	}
	if f, ok := s.get("format"); ok {
		if name, ok := f.(string); ok && formats[name] != "" {
			if bounded {
				return "", fmt.Errorf("%w: format %q with minLength or maxLength at %s", ErrUnsupported, name, hint)
			}
			return c.rule("format-"+name, fmt.Sprintf(`"\"" %s "\""`, c.format(name)))
		}
		// Other formats are annotations for most validators: plain strings.
	}
	if !bounded {
		c.primitive("json-esc")
		return c.primitive("string"), nil
	}
	if lo > hi {
		return "", fmt.Errorf("%w: string at %s needs %d to %d characters", ErrUnsupported, hint, lo, hi)
	}
	rep := fmt.Sprintf("{%d,}", lo)
	if hi != math.MaxInt {
		if hi > maxRepeat {
			return "", fmt.Errorf("%w: maxLength %d at %s (at most %d)", ErrUnsupported, hi, hint, maxRepeat)
		}
		rep = fmt.Sprintf("{%d,%d}", lo, hi)
	}
	if lo > maxRepeat {
		return "", fmt.Errorf("%w: minLength %d at %s (at most %d)", ErrUnsupported, lo, hint, maxRepeat)
	}
	esc := c.primitive("json-esc")
	return c.rule(hint+"-string", fmt.Sprintf(`"\"" ( [^"\\\x00-\x1F] | %s )%s "\""`, esc, rep))
}

// format returns the rule of a format, adding its helpers.
func (c *converter) format(name string) string {
	if _, ok := c.bodies[name]; ok {
		return name
	}
	body := formats[name]
	if body == "" {
		body = formatHelpers[name]
	}
	c.names[name] = true
	c.order = append(c.order, name)
	c.bodies[name] = body
	for _, dep := range formatDeps[name] {
		if dep == "hex" {
			c.primitive(dep)
			continue
		}
		c.format(dep)
	}
	return name
}
