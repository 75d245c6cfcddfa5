package jsonschema

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sj "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mlxrun/mlx/runtime/grammar"
)

// seeds is the number of random generations per schema.
const seeds = 200

// TestRandomOutputsValidate generates, for every schema in testdata, texts
// made of random allowed tokens of a real vocabulary, and checks that each
// one parses as JSON and validates against the schema.
func TestRandomOutputsValidate(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in testdata: %v", err)
	}
	vocab := "smollm2"
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g, err := Compile(src, Options{})
			if err != nil {
				t.Fatalf("compile %s: %v", f, err)
			}
			checkWalks(t, g, validator(t, src), loadVocab(t, vocab), seeds)
		})
	}
	t.Run("json_object", func(t *testing.T) {
		g, err := AnyObject()
		if err != nil {
			t.Fatal(err)
		}
		checkWalks(t, g, validator(t, []byte(`{"type": "object"}`)), loadVocab(t, vocab), seeds)
	})
	t.Run("tool_call_qwen3", func(t *testing.T) {
		src, err := os.ReadFile(filepath.Join("testdata", "tool_call.json"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := Compile(src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkWalks(t, g, validator(t, src), loadVocab(t, "qwen3"), 50)
	})
}

// checkWalks runs n random walks and validates each output.
func checkWalks(t *testing.T, g *grammar.Grammar, sch *sj.Schema, wv *walkVocab, n int) {
	t.Helper()
	root, err := grammar.NewMatcher(g, wv.v)
	if err != nil {
		t.Fatal(err)
	}
	valid, shown := 0, 0
	for seed := range n {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		out, err := randomWalk(root.Clone(), wv, rng, 30, 1500)
		if err == nil {
			err = validate(sch, out)
		}
		if err != nil {
			if shown++; shown <= 3 {
				t.Errorf("seed %d: %v\noutput: %s", seed, err, out)
			}
			continue
		}
		valid++
	}
	t.Logf("%d/%d outputs valid", valid, n)
}

func validator(t *testing.T, src []byte) *sj.Schema {
	t.Helper()
	doc, err := sj.UnmarshalJSON(bytes.NewReader(src))
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

func validate(sch *sj.Schema, out string) error {
	if !json.Valid([]byte(out)) {
		return errInvalidJSON
	}
	v, err := sj.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

var errInvalidJSON = jsonError("not valid JSON")

type jsonError string

func (e jsonError) Error() string { return string(e) }
