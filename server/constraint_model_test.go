package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	sj "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mlxrun/mlx/server/openai"
)

// Schemas of the tests: every string, array and number is bounded so that
// any output ends. recordSchema exercises most of what the converter
// supports; pointSchema is smaller, for the many-seed runs.
const (
	recordSchema = `{"type":"object","properties":{
 "name":{"type":"string","minLength":1,"maxLength":12},
 "kind":{"enum":["a","b","c"]},
 "n":{"type":"integer","minimum":-5,"maximum":500},
 "x":{"type":"number","minimum":0,"maximum":1},
 "ok":{"type":"boolean"},
 "when":{"type":"string","format":"date"},
 "tags":{"type":"array","items":{"type":"string","maxLength":5},"minItems":1,"maxItems":3},
 "pos":{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat"],"additionalProperties":false},
 "alt":{"anyOf":[{"type":"null"},{"const":42}]}},
 "required":["name","kind","n","ok","tags"],"additionalProperties":false}`
	pointSchema = `{"type":"object","properties":{
 "label":{"type":"string","maxLength":6},
 "x":{"type":"integer","minimum":-9,"maximum":99},
 "on":{"anyOf":[{"type":"boolean"},{"enum":["auto"]}]},
 "tags":{"type":"array","items":{"enum":["a","b"]},"maxItems":2}},
 "required":["label","x"],"additionalProperties":false}`
)

// validator compiles a JSON schema for checking outputs.
func validator(t *testing.T, schema string) *sj.Schema {
	t.Helper()
	doc, err := sj.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := sj.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// valid checks that text is JSON valid against sch.
func valid(sch *sj.Schema, text string) error {
	v, err := sj.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return sch.Validate(v)
}

// tally counts the outputs checked and the failures, showing the first.
type tally struct {
	t            *testing.T
	total, fails int
}

func (c *tally) check(err error, what string) {
	c.t.Helper()
	c.total++
	if err != nil {
		if c.fails++; c.fails <= 3 {
			c.t.Errorf("%s: %v", what, err)
		}
	}
}

func (c *tally) report(name string) {
	c.t.Logf("%s: %d/%d valid and complete", name, c.total-c.fails, c.total)
}

// TestSchemaOutputsValid samples 200 chat answers of a random-weight model
// under a json_schema response format, plus some through completions and
// the Responses API: every one must end by itself and validate.
func TestSchemaOutputsValid(t *testing.T) {
	t.Parallel() // on its own engine
	m := loadEngine(t, "models", "llama-tiny")
	ts := startModels(t, modelLoader{"m": m})
	point, sch := validator(t, pointSchema), validator(t, recordSchema)
	c := &tally{t: t}
	n := min(25, seeds) // choices per request
	for first := 0; first < seeds; first += n {
		var resp openai.ChatCompletion
		ts.post(t, "/v1/chat/completions", fmt.Sprintf(`{"model":"m","seed":%d,"n":%d,"max_tokens":200,"messages":[{"role":"user","content":"A point."}],"response_format":%s}`,
			first, n, `{"type":"json_schema","json_schema":{"name":"point","strict":true,"schema":`+pointSchema+`}}`), http.StatusOK, &resp)
		for _, ch := range resp.Choices {
			text := deref(ch.Message.Content)
			c.check(finished(*ch.FinishReason, "stop", valid(point, text)), fmt.Sprintf("chat seed %d: %q", first+ch.Index, text))
		}
	}
	c.report("chat json_schema")
	format := `{"type":"json_schema","json_schema":{"name":"record","schema":` + recordSchema + `}}`
	var comp openai.Completion
	ts.post(t, "/v1/completions", fmt.Sprintf(`{"model":"m","seed":7,"n":%d,"max_tokens":300,"prompt":"Record:","response_format":%s}`, max(1, seeds/20), format), http.StatusOK, &comp)
	cc := &tally{t: t}
	for _, ch := range comp.Choices {
		cc.check(finished(*ch.FinishReason, "stop", valid(sch, ch.Text)), fmt.Sprintf("completion %d: %q", ch.Index, ch.Text))
	}
	cc.report("completions response_format")
	rc := &tally{t: t}
	for seed := range max(1, seeds/40) {
		var r openai.Response
		ts.post(t, "/v1/responses", fmt.Sprintf(`{"model":"m","input":"A record.","max_output_tokens":300,"temperature":1,"text":{"format":{"type":"json_schema","name":"record","schema":%s}},"seed":%d}`, recordSchema, seed), http.StatusOK, &r)
		rc.check(finished(r.Status, openai.StatusCompleted, valid(sch, outputText(r))), fmt.Sprintf("response %d: %q", seed, outputText(r)))
	}
	rc.report("responses text.format")
}

// finished returns err, or an error when the output was cut short.
func finished(got, want string, err error) error {
	if got != want {
		return fmt.Errorf("ended with %q, not %q (output error: %v)", got, want, err)
	}
	return err
}

// outputText joins the output text of a response.
func outputText(r openai.Response) string {
	var b strings.Builder
	for _, it := range r.Output {
		if it.Type == openai.ItemMessage {
			b.WriteString(openai.Text(it.Content))
		}
	}
	return b.String()
}

// TestGrammarOutputs checks a GBNF grammar given at the top level, in
// nvext, and on completions.
func TestGrammarOutputs(t *testing.T) {
	m := loadEngine(t, "models", "llama-tiny")
	ts := startModels(t, modelLoader{"m": m})
	gbnf, _ := json.Marshal("root ::= answer \", \" [0-9]{1,3} \".\"\nanswer ::= \"yes\" | \"no\"")
	re := func(s string) error {
		a, num, ok := strings.Cut(strings.TrimSuffix(s, "."), ", ")
		if !ok || (a != "yes" && a != "no") || len(num) < 1 || len(num) > 3 || strings.Trim(num, "0123456789") != "" || !strings.HasSuffix(s, ".") {
			return fmt.Errorf("%q does not match the grammar", s)
		}
		return nil
	}
	c := &tally{t: t}
	for _, field := range []string{`"grammar":` + string(gbnf), `"nvext":{"grammar":` + string(gbnf) + `}`} {
		var resp openai.ChatCompletion
		ts.post(t, "/v1/chat/completions", fmt.Sprintf(`{"model":"m","seed":1,"n":%d,"max_tokens":20,"messages":[{"role":"user","content":"Yes?"}],%s}`, max(1, seeds/20), field), http.StatusOK, &resp)
		for _, ch := range resp.Choices {
			c.check(finished(*ch.FinishReason, "stop", re(deref(ch.Message.Content))), field)
		}
	}
	var comp openai.Completion
	ts.post(t, "/v1/completions", fmt.Sprintf(`{"model":"m","seed":3,"n":%d,"max_tokens":20,"prompt":"Yes?","grammar":%s}`, max(1, seeds/20), gbnf), http.StatusOK, &comp)
	for _, ch := range comp.Choices {
		c.check(finished(*ch.FinishReason, "stop", re(ch.Text)), "completions")
	}
	c.report("grammar")
}
