package jsonschema

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime/grammar"
)

// accepts reports whether the grammar matches exactly text.
func accepts(t *testing.T, g *grammar.Grammar, text string) bool {
	t.Helper()
	ok, err := g.Match(text)
	if err != nil {
		t.Fatalf("match %q: %v", text, err)
	}
	return ok
}

func mustCompile(t *testing.T, schema string, opts Options) *grammar.Grammar {
	t.Helper()
	g, err := Compile([]byte(schema), opts)
	if err != nil {
		t.Fatalf("compile %s: %v", schema, err)
	}
	return g
}

func TestSchemaFeatures(t *testing.T) {
	tests := []struct {
		name, schema string
		opts         Options
		good, bad    []string
	}{
		{"required and optional in order", `{"properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "boolean"}}, "required": ["b"]}`, Options{},
			[]string{`{"b":"x"}`, `{"a":1,"b":"x"}`, `{"a":1,"b":"x","c":true}`, `{ "b": "x" }`, "{\n  \"b\": \"x\"\n}"},
			[]string{`{}`, `{"a":1}`, `{"b":"x","a":1}`, `{"b":"x","d":1}`, `{"b":1}`, `{"b":"x"} `}},
		{"extra properties", `{"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "null"}}`, Options{},
			[]string{`{}`, `{"a":1}`, `{"a":1,"z":null}`, `{"z":null,"y":null}`, `{"ab":null}`, `{"":null}`},
			[]string{`{"z":1}`, `{"a":null}`, `{"z":null,"a":1}`, `{"z\u0041":null}`}},
		{"extras by option", `{"properties": {"a": {"type": "integer"}}}`, Options{ExtraProperties: true},
			[]string{`{"a":1,"b":[1,{"c":"d"}]}`}, []string{`{"a":"x"}`}},
		{"no extras by default", `{"properties": {"a": {"type": "integer"}}}`, Options{},
			[]string{`{"a":1}`}, []string{`{"a":1,"b":2}`}},
		{"required without property", `{"required": ["k"]}`, Options{},
			[]string{`{"k":[]}`}, []string{`{}`}},
		{"enum and const", `{"enum": ["a", 1, null, {"x": [true]}]}`, Options{},
			[]string{`"a"`, `1`, `null`, `{"x":[true]}`}, []string{`"b"`, `2`, `{"x": [true]}`}},
		{"type list", `{"type": ["integer", "null"]}`, Options{},
			[]string{`-3`, `null`}, []string{`1.5`, `"1"`}},
		{"array bounds", `{"items": {"type": "integer"}, "minItems": 2, "maxItems": 3}`, Options{},
			[]string{`[1,2]`, `[1, 2, 3]`}, []string{`[1]`, `[1,2,3,4]`, `[]`}},
		{"tuple", `{"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}`, Options{},
			[]string{`[]`, `["a"]`, `["a",1]`}, []string{`[1]`, `["a",1,2]`}},
		{"tuple then items", `{"prefixItems": [{"const": 0}], "items": {"type": "boolean"}, "minItems": 2}`, Options{},
			[]string{`[0,true]`, `[0,false,true]`}, []string{`[0]`, `[true,true]`}},
		{"ref cycle", `{"$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}}}, "$ref": "#/$defs/n"}`, Options{},
			[]string{`{}`, `{"next":{"next":{}}}`}, []string{`{"next":1}`}},
		{"root ref", `{"type": "array", "items": {"$ref": "#"}, "maxItems": 2}`, Options{},
			[]string{`[]`, `[[],[[]]]`}, []string{`[1]`}},
		{"allOf merge", `{"allOf": [{"properties": {"a": {"type": "integer", "minimum": 0}}, "required": ["a"]}, {"properties": {"a": {"maximum": 5}, "b": {"type": "null"}}}]}`, Options{},
			[]string{`{"a":5}`, `{"a":0,"b":null}`}, []string{`{"a":6}`, `{"b":null}`}},
		{"anyOf with siblings", `{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}`, Options{},
			[]string{`{"a":1}`, `{"b":1}`, `{"a":1,"b":2}`}, []string{`{}`}},
		{"oneOf narrowed by required", `{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}`, Options{},
			[]string{`{"a":1}`, `{"b":1}`}, []string{`{"a":1,"b":2}`, `{}`}},
		{"oneOf by discriminator", `{"oneOf": [{"properties": {"k": {"const": "x"}, "v": {"type": "integer"}}, "required": ["k"]}, {"properties": {"k": {"enum": ["y", "z"]}, "v": {"type": "string"}}, "required": ["k"]}]}`, Options{},
			[]string{`{"k":"x","v":1}`, `{"k":"z"}`, `{"k":"y","v":"s"}`}, []string{`{"k":"x","v":"s"}`, `{"v":1}`}},
		{"oneOf by type", `{"oneOf": [{"type": "string"}, {"type": "integer"}, {"const": null}]}`, Options{},
			[]string{`"a"`, `3`, `null`}, []string{`1.5`, `true`}},
		{"oneOf not told apart is anyOf", `{"oneOf": [{"type": "integer"}, {"type": "number"}]}`, Options{},
			[]string{`1`, `1.5`}, []string{`"1"`}},
		{"string lengths", `{"type": "string", "minLength": 2, "maxLength": 3}`, Options{},
			[]string{`"ab"`, `"a\u00e9c"`, `"日本"`, `"\n\t"`}, []string{`"a"`, `"abcd"`, `"\ud800x"`}},
		{"boolean schema", `true`, Options{},
			[]string{`1`, `"x"`, `[{}]`}, []string{`x`}},
		{"number", `{"type": "number"}`, Options{},
			[]string{`0`, `-1.25e-7`, `3E+10`}, []string{`01`, `1.`, `.5`, `1e`, `+1`}},
		{"number bounds", `{"type": "number", "minimum": -1.5, "maximum": 2}`, Options{},
			[]string{`-1`, `-0.99`, `0`, `1.999`, `2`}, []string{`-2`, `2.5`, `3`, `1e0`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustCompile(t, tt.schema, tt.opts)
			for _, s := range tt.good {
				if !accepts(t, g, s) {
					t.Errorf("should accept %s", s)
				}
			}
			for _, s := range tt.bad {
				if accepts(t, g, s) {
					t.Errorf("should reject %s", s)
				}
			}
		})
	}
}

// TestIntegerRanges checks that every integer near the bounds is accepted
// exactly when it is within them.
func TestIntegerRanges(t *testing.T) {
	tests := []struct {
		schema string
		lo, hi int
		in     func(int) bool
	}{
		{`{"type": "integer", "minimum": -5, "maximum": 120}`, -200, 300, func(n int) bool { return n >= -5 && n <= 120 }},
		{`{"type": "integer", "minimum": 1000, "maximum": 1234}`, 900, 1400, func(n int) bool { return n >= 1000 && n <= 1234 }},
		{`{"type": "integer", "maximum": -10}`, -300, 50, func(n int) bool { return n <= -10 }},
		{`{"type": "integer", "exclusiveMinimum": 7}`, -50, 300, func(n int) bool { return n > 7 }},
		{`{"type": "integer", "minimum": -99, "exclusiveMaximum": -3}`, -150, 20, func(n int) bool { return n >= -99 && n < -3 }},
		{`{"type": "integer", "minimum": 0.5, "maximum": 9.5}`, -5, 20, func(n int) bool { return n >= 1 && n <= 9 }},
		{`{"type": "integer", "minimum": 5, "exclusiveMinimum": true}`, 0, 20, func(n int) bool { return n > 5 }},
	}
	for _, tt := range tests {
		g := mustCompile(t, tt.schema, Options{})
		for n := tt.lo; n <= tt.hi; n++ {
			if got := accepts(t, g, fmt.Sprint(n)); got != tt.in(n) {
				t.Errorf("%s: %d accepted=%v", tt.schema, n, got)
			}
		}
		if accepts(t, g, "-0") && !tt.in(0) {
			t.Errorf("%s: -0 accepted", tt.schema)
		}
	}
}

// TestDateFormat compares the date grammar with time.Parse over every
// month and day text of leap and common years.
func TestDateFormat(t *testing.T) {
	g := mustCompile(t, `{"type": "string", "format": "date"}`, Options{})
	for _, y := range []string{"1900", "2000", "2023", "2024", "0000"} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				s := fmt.Sprintf("%s-%02d-%02d", y, m, d)
				_, err := time.Parse("2006-01-02", s)
				if got := accepts(t, g, `"`+s+`"`); got != (err == nil) {
					t.Errorf("%s: accepted=%v, time.Parse error %v", s, got, err)
				}
			}
		}
	}
}

func TestFormats(t *testing.T) {
	tests := []struct {
		format    string
		good, bad []string
	}{
		{"time", []string{"00:00:00Z", "23:59:59.123456+05:30", "12:00:00-23:59"}, []string{"24:00:00Z", "12:60:00Z", "12:00:00", "12:00:60Z"}},
		{"date-time", []string{"2024-02-29T10:00:00Z"}, []string{"2023-02-29T10:00:00Z", "2024-01-01 10:00:00Z"}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000"}, []string{"123e4567e89b12d3a456426614174000", "g23e4567-e89b-12d3-a456-426614174000"}},
		{"email", []string{"a.b+c@example.com", "x@y.z.io", "k@my-site.example.jp"}, []string{"@example.com", "a..b@x.com", "a@b", "a@-b.com", "a@b-.com"}},
	}
	for _, tt := range tests {
		g := mustCompile(t, fmt.Sprintf(`{"type": "string", "format": %q}`, tt.format), Options{})
		for _, s := range tt.good {
			if !accepts(t, g, `"`+s+`"`) {
				t.Errorf("%s should accept %s", tt.format, s)
			}
		}
		for _, s := range tt.bad {
			if accepts(t, g, `"`+s+`"`) {
				t.Errorf("%s should reject %s", tt.format, s)
			}
		}
	}
}

// TestPatterns checks each pattern grammar against Go's regexp on sample
// strings: what the grammar accepts must match, and for these patterns
// (no control characters) everything that matches must be accepted.
func TestPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		samples []string
	}{
		{`^[A-Z]{2,3}-\d{2,4}$`, []string{"AB-12", "ABC-1234", "A-12", "ABCD-12", "AB-1", "ab-12", "AB-12345"}},
		{`ab+c`, []string{"abc", "xxabbbcyy", "ac", "", "abbx"}},
		{`^(?:yes|no)$`, []string{"yes", "no", "yesno", "maybe", ""}},
		{`^[^a-c"]*$`, []string{"xyz", "dé", "abc", `x"y`, ""}},
		{`^\w+(\s\w+)*$`, []string{"hello world", "one", "two  spaces", " lead", "tab\tsep"}},
		{`^a.c$`, []string{"abc", "a c", "a\nc", "ac", "a日c"}},
		{`^[\\"]+$`, []string{`\`, `"`, `\"\`, "x"}},
		{`^x{2}y{1,}z?$`, []string{"xxy", "xxyyyz", "xy", "xxz"}},
		{`^(a|bc)*?d$`, []string{"d", "abcad", "bd", "aad"}},
		{`^\.\$\x41$`, []string{".$A", "x$A"}},
	}
	for _, tt := range tests {
		g := mustCompile(t, fmt.Sprintf(`{"type": "string", "pattern": %q}`, tt.pattern), Options{})
		re := regexp.MustCompile(tt.pattern)
		for _, s := range tt.samples {
			enc := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s)
			if got, want := accepts(t, g, `"`+enc+`"`), re.MatchString(s); got != want {
				t.Errorf("pattern %q on %q: grammar %v, regexp %v", tt.pattern, s, got, want)
			}
		}
	}
}

func TestSchemaErrors(t *testing.T) {
	tests := []struct {
		name, schema string
		want         error
	}{
		{"not json", `{"type": `, ErrSchema},
		{"trailing data", `{} {}`, ErrSchema},
		{"not a schema", `[1]`, ErrSchema},
		{"unknown type", `{"type": "decimal"}`, ErrSchema},
		{"bad type list", `{"type": [1]}`, ErrSchema},
		{"false", `false`, ErrUnsupported},
		{"uniqueItems", `{"type": "array", "uniqueItems": true}`, ErrUnsupported},
		{"multipleOf", `{"type": "integer", "multipleOf": 3}`, ErrUnsupported},
		{"not", `{"not": {"type": "string"}}`, ErrUnsupported},
		{"if", `{"if": {}, "then": {}}`, ErrUnsupported},
		{"patternProperties", `{"patternProperties": {"^a": {}}}`, ErrUnsupported},
		{"remote ref", `{"$ref": "http://example.com/s.json"}`, ErrUnsupported},
		{"missing ref", `{"$ref": "#/$defs/none"}`, ErrSchema},
		{"items list", `{"items": [{}]}`, ErrUnsupported},
		{"empty enum", `{"enum": []}`, ErrSchema},
		{"enum of wrong type", `{"type": "string", "enum": [1]}`, ErrUnsupported},
		{"min over max items", `{"minItems": 3, "maxItems": 2}`, ErrUnsupported},
		{"min over max length", `{"type": "string", "minLength": 3, "maxLength": 2}`, ErrUnsupported},
		{"huge maxLength", `{"type": "string", "maxLength": 100000}`, ErrUnsupported},
		{"huge minItems", `{"minItems": 100000}`, ErrUnsupported},
		{"negative count", `{"maxLength": -1}`, ErrSchema},
		{"no integer in range", `{"type": "integer", "minimum": 1.2, "maximum": 1.8}`, ErrUnsupported},
		{"huge bound", `{"type": "integer", "minimum": 1e300}`, ErrUnsupported},
		{"backreference", `{"pattern": "(a)\\1"}`, ErrUnsupported},
		{"lookahead", `{"pattern": "a(?=b)"}`, ErrUnsupported},
		{"word boundary", `{"pattern": "\\bword"}`, ErrUnsupported},
		{"inner anchor", `{"pattern": "a^b"}`, ErrUnsupported},
		{"unclosed group", `{"pattern": "(ab"}`, ErrUnsupported},
		{"pattern with length", `{"pattern": "^a+$", "maxLength": 3}`, ErrUnsupported},
		{"allOf conflict", `{"allOf": [{"type": "string"}, {"type": "integer"}]}`, ErrUnsupported},
		{"allOf closed object", `{"allOf": [{"properties": {"a": {}}, "additionalProperties": false}, {"required": ["b"]}]}`, ErrUnsupported},
		{"required but closed", `{"required": ["a"], "additionalProperties": false}`, ErrUnsupported},
		{"deep nesting", strings.Repeat(`{"items":`, 200) + `{}` + strings.Repeat(`}`, 200), ErrSchema},
		{"ref loop", `{"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`, ErrUnsupported},
		{"too large", `"` + strings.Repeat("x", maxSchemaSize) + `"`, ErrSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile([]byte(tt.schema), Options{})
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestGBNFReadable(t *testing.T) {
	src, err := GBNF([]byte(`{"type": "object", "properties": {"my key!": {"type": "string"}}, "required": ["my key!"]}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(src, "root ::= ") || !strings.Contains(src, `"\"my key!\""`) {
		t.Errorf("unexpected grammar:\n%s", src)
	}
}
