package jsonschema

import (
	"fmt"
	"strings"
	"sync"

	"github.com/mlxrun/mlx/runtime/grammar"
)

// Compile converts a JSON schema into a grammar.
func Compile(schema []byte, opts Options) (*grammar.Grammar, error) {
	src, err := GBNF(schema, opts)
	if err != nil {
		return nil, err
	}
	return grammar.Parse(src)
}

// GBNF converts a JSON schema into grammar source, for inspection.
func GBNF(schema []byte, opts Options) (string, error) {
	root, err := decode(schema)
	if err != nil {
		return "", err
	}
	c := newConverter(root, opts)
	expr, err := c.gen(root, "root")
	if err != nil {
		return "", err
	}
	return c.source(expr), nil
}

var anyObject = sync.OnceValues(func() (*grammar.Grammar, error) {
	return Compile([]byte(`{"type": "object"}`), Options{ExtraProperties: true})
})

// AnyObject returns the grammar of any JSON object (the json_object
// response format).
func AnyObject() (*grammar.Grammar, error) { return anyObject() }

// Bounds on the work and output of one conversion.
const (
	maxRules    = 1 << 14 // rules a schema may produce
	maxGenCalls = 1 << 16 // subschemas converted, merges and repeats included
	maxSource   = 4 << 20 // bytes of rule bodies
)

// converter collects the rules of one schema.
type converter struct {
	opts   Options
	root   any
	names  map[string]bool   // rule names in use
	order  []string          // rule names in definition order
	bodies map[string]string // name -> body
	byBody map[string]string // body -> name, to share equal rules
	refs   map[string]string // $ref -> rule name
	depth  int               // nesting of gen calls
	calls  int               // gen calls so far, bounded by maxGenCalls
	size   int               // bytes of rule bodies so far, bounded by maxSource
}

func newConverter(root any, opts Options) *converter {
	return &converter{
		opts: opts, root: root,
		names: map[string]bool{}, bodies: map[string]string{},
		byBody: map[string]string{}, refs: map[string]string{},
	}
}

// source renders the rules, root first.
func (c *converter) source(rootExpr string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "root ::= %s\n", rootExpr)
	for _, n := range c.order {
		fmt.Fprintf(&sb, "%s ::= %s\n", n, c.bodies[n])
	}
	return sb.String()
}

// name reserves a fresh rule name built from a hint.
func (c *converter) name(hint string) (string, error) {
	if len(c.order) >= maxRules {
		return "", fmt.Errorf("%w: schema needs more than %d rules", ErrUnsupported, maxRules)
	}
	if c.size > maxSource {
		return "", fmt.Errorf("%w: schema needs more than %d bytes of grammar", ErrUnsupported, maxSource)
	}
	var sb strings.Builder
	for _, r := range hint {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
			sb.WriteRune(r)
		default:
			sb.WriteByte('-')
		}
		if sb.Len() >= 40 {
			break
		}
	}
	base := "s-" + sb.String()
	n := base
	for i := 2; c.names[n] || n == "root"; i++ {
		n = fmt.Sprintf("%s-%d", base, i)
	}
	c.names[n] = true
	return n, nil
}

// rule returns the name of a rule with this body, sharing equal bodies.
func (c *converter) rule(hint, body string) (string, error) {
	if n, ok := c.byBody[body]; ok {
		return n, nil
	}
	n, err := c.name(hint)
	if err != nil {
		return "", err
	}
	c.define(n, body)
	return n, nil
}

// define sets the body of a reserved name.
func (c *converter) define(name, body string) {
	c.order = append(c.order, name)
	c.bodies[name] = body
	c.byBody[body] = name
	c.size += len(name) + len(body)
}

// primitive returns the name of a shared rule of the fixed JSON grammar.
func (c *converter) primitive(name string) string {
	if _, ok := c.bodies[name]; ok {
		return name
	}
	c.names[name] = true
	c.order = append(c.order, name)
	c.bodies[name] = "" // placeholder while dependencies are added
	for _, dep := range primitiveDeps[name] {
		c.primitive(dep)
	}
	c.bodies[name] = primitives[name]
	return name
}

// The fixed rules: bounded whitespace, any JSON value, strings, numbers.
var primitives = map[string]string{
	"ws":          `( " " | "\n" [ \t]{0,20} )?`,
	"hex":         `[0-9a-fA-F]`,
	"json-esc":    `"\\" ( ["\\/bfnrt] | "u" ( [0-9a-cA-Ce-fE-F] hex{3} | [dD] [0-7] hex{2} ) )`,
	"json-char":   `[^"\\\x00-\x1F] | json-esc`,
	"string":      `"\"" ( [^"\\\x00-\x1F] | json-esc )* "\""`,
	"int":         `"-"? ( "0" | [1-9] [0-9]{0,15} )`,
	"number":      `int ( "." [0-9]{1,16} )? ( [eE] [-+]? [0-9]{1,2} )?`,
	"boolean":     `"true" | "false"`,
	"null":        `"null"`,
	"json-value":  `json-object | json-array | string | number | boolean | null`,
	"json-object": `"{" ws ( string ":" ws json-value ( "," ws string ":" ws json-value )* )? ws "}"`,
	"json-array":  `"[" ws ( json-value ( "," ws json-value )* )? ws "]"`,
}

var primitiveDeps = map[string][]string{
	"json-esc":    {"hex"},
	"json-char":   {"json-esc"},
	"string":      {"json-esc"},
	"number":      {"int"},
	"json-value":  {"json-object", "json-array", "string", "number", "boolean", "null"},
	"json-object": {"ws", "string", "json-value"},
	"json-array":  {"ws", "json-value"},
}
