package runtime

import (
	"testing"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/grammar/jsonschema"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// TestConstraint generates from the tiny model (random weights) under
// grammars, greedy and sampled, and checks that every output is a complete
// match that ended the sequence.
func TestConstraint(t *testing.T) {
	e := loadEngine(t, kvcache.F32, "gguf", "llama-tiny-F32.gguf")
	schema, err := jsonschema.Compile([]byte(`{"type": "object", "properties": {
		"answer": {"enum": ["yes", "no"]}, "n": {"type": "integer", "minimum": 0, "maximum": 99}},
		"required": ["answer", "n"], "additionalProperties": false}`), jsonschema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gbnf, err := grammar.Parse(`root ::= ("yes" | "no") "."`)
	if err != nil {
		t.Fatal(err)
	}
	prompt := e.Tokenizer().Encode("Answer in JSON:", false)
	for _, g := range []*grammar.Grammar{schema, gbnf} {
		for _, temp := range []float64{0, 1} {
			p := greedy(200)
			p.Temperature = temp
			seed := int64(7)
			p.Seed = &seed
			_, text, _, res := collect(t, e, Request{Prompt: prompt, Params: p, Constraint: g})
			t.Logf("temperature %v: %q", temp, text)
			if res.Finish != FinishStop {
				t.Errorf("temperature %v: finish %q after %q", temp, res.Finish, text)
			}
			if !matches(t, g, text) {
				t.Errorf("temperature %v: output %q does not match the grammar", temp, text)
			}
		}
	}
}

// matches reports whether text is a complete match of g.
func matches(t *testing.T, g *grammar.Grammar, text string) bool {
	t.Helper()
	ok, err := g.Match(text)
	if err != nil {
		t.Fatalf("match %q: %v", text, err)
	}
	return ok
}
