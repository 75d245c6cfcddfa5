package chat

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/chat/jinja"
	"github.com/mlxrun/mlx/models/fixture"
)

// fixtureFile is one testdata/templates/<id>.json.
type fixtureFile struct {
	ID             string                     `json:"id"`
	Template       string                     `json:"template"`
	SpecialTokens  map[string]json.RawMessage `json:"special_tokens"`
	TemplateKwargs map[string]json.RawMessage `json:"template_kwargs"`
	FixedNow       string                     `json:"fixed_now"`
	Cases          []fixtureCase              `json:"cases"`
}

type fixtureCase struct {
	Scenario string `json:"scenario"`
	Input    struct {
		Messages            json.RawMessage            `json:"messages"`
		Tools               json.RawMessage            `json:"tools"`
		AddGenerationPrompt bool                       `json:"add_generation_prompt"`
		Kwargs              map[string]json.RawMessage `json:"kwargs"`
	} `json:"input"`
	ExpectedOutput *string `json:"expected_output"`
	ExpectedError  *string `json:"expected_error"`
	ErrorSource    string  `json:"error_source"`
}

// loadFixtures reads the shared template fixture and this package's own
// testdata/templates, which holds the templates of families the shared
// fixture lacks in the same format (testdata/templates_render.py made them).
func loadFixtures(t *testing.T) []fixtureFile {
	t.Helper()
	dir := fixture.Path(t, "templates")
	var paths []string
	for _, d := range []string{dir, filepath.Join("testdata", "templates")} {
		found, err := filepath.Glob(filepath.Join(d, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, found...)
	}
	var out []fixtureFile
	for _, p := range paths {
		if filepath.Base(p) == "scenarios.json" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f fixtureFile
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		t.Fatalf("no template fixtures in %s", dir)
	}
	return out
}

// fixtureInput builds the input exactly as the fixture README describes
// transformers' context.
func fixtureInput(t *testing.T, f *fixtureFile, c *fixtureCase) Input {
	t.Helper()
	msgs, err := ParseMessages(c.Input.Messages)
	if err != nil {
		t.Fatal(err)
	}
	var tools []json.RawMessage
	if len(c.Input.Tools) > 0 && string(c.Input.Tools) != "null" {
		if err := json.Unmarshal(c.Input.Tools, &tools); err != nil {
			t.Fatal(err)
		}
	}
	tokens, err := tokensFromConfig(f.SpecialTokens)
	if err != nil {
		t.Fatal(err)
	}
	now, err := time.Parse("2006-01-02T15:04:05", f.FixedNow)
	if err != nil {
		t.Fatal(err)
	}
	kwargs := map[string]any{}
	for _, m := range []map[string]json.RawMessage{f.TemplateKwargs, c.Input.Kwargs} {
		for k, v := range m {
			kwargs[k] = v
		}
	}
	return Input{Messages: msgs, Tools: tools, AddGenerationPrompt: c.Input.AddGenerationPrompt,
		Tokens: tokens, Kwargs: kwargs, Now: func() time.Time { return now }}
}

// TestFixtureTemplates renders every fixture case and compares it byte for
// byte with Python's jinja2, or checks that it fails as Python did.
func TestFixtureTemplates(t *testing.T) {
	files := loadFixtures(t)
	cases, passed, templates, fullyPassing, sameMsg, errCases := 0, 0, 0, 0, 0, 0
	for i := range files {
		f := &files[i]
		templates++
		ok := true
		t.Run(f.ID, func(t *testing.T) {
			tpl, err := Compile(f.Template, f.ID)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			for j := range f.Cases {
				c := &f.Cases[j]
				cases++
				switch checkCase(t, tpl, f, c) {
				case caseFailed:
					ok = false
				case caseRaisedSame:
					sameMsg++
					fallthrough
				case caseRaised:
					errCases++
					passed++
				default:
					passed++
				}
			}
		})
		if ok {
			fullyPassing++
		}
	}
	t.Logf("cases passed %d/%d; templates fully passing %d/%d; error messages identical to Python %d/%d",
		passed, cases, fullyPassing, templates, sameMsg, errCases)
}

// caseResult is how a fixture case went.
type caseResult int

const (
	casePassed     caseResult = iota // rendered as expected
	caseRaised                       // failed as expected, with another message
	caseRaisedSame                   // failed as expected, with Python's message
	caseFailed
)

// checkCase renders one fixture case and compares it byte for byte with
// Python's jinja2, or checks that it fails as Python did (with exactly the
// message of a raise_exception).
func checkCase(t *testing.T, tpl *Template, f *fixtureFile, c *fixtureCase) caseResult {
	t.Helper()
	out, err := tpl.Render(context.Background(), fixtureInput(t, f, c))
	switch {
	case c.ExpectedOutput != nil && err != nil:
		t.Errorf("%s: unexpected error: %v", c.Scenario, err)
	case c.ExpectedOutput != nil && out != *c.ExpectedOutput:
		t.Errorf("%s: output differs\n got: %q\nwant: %q", c.Scenario, out, *c.ExpectedOutput)
	case c.ExpectedError != nil && err == nil:
		t.Errorf("%s: rendered %q, want error %q", c.Scenario, out, *c.ExpectedError)
	case c.ExpectedError != nil:
		var je *jinja.Error
		if !errors.As(err, &je) || !errors.Is(err, ErrTemplate) {
			t.Errorf("%s: error %v is not a template error", c.Scenario, err)
			break
		}
		if c.ErrorSource == "raise_exception" && (je.Msg != *c.ExpectedError || !errors.Is(err, jinja.ErrRaised)) {
			t.Errorf("%s: raised %q, want exactly %q", c.Scenario, je.Msg, *c.ExpectedError)
			break
		}
		if je.Msg == *c.ExpectedError {
			return caseRaisedSame
		}
		return caseRaised
	default:
		return casePassed
	}
	return caseFailed
}

// TestFixtureRaiseMessage checks that a raised error reads exactly as the
// template worded it, through every wrapping layer.
func TestFixtureRaiseMessage(t *testing.T) {
	raised := 0
	for _, f := range loadFixtures(t) {
		tpl, err := Compile(f.Template, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range f.Cases {
			if c.ErrorSource != "raise_exception" {
				continue
			}
			raised++
			_, err = tpl.Render(context.Background(), fixtureInput(t, &f, &c))
			if msg, ok := RaisedMessage(err); !ok || msg != *c.ExpectedError {
				t.Errorf("%s/%s: RaisedMessage = %q, %v; want %q", f.ID, c.Scenario, msg, ok, *c.ExpectedError)
			}
			if err == nil || !strings.Contains(err.Error(), *c.ExpectedError) {
				t.Errorf("%s/%s: error text %v lacks the message", f.ID, c.Scenario, err)
			}
		}
	}
	if raised == 0 {
		t.Fatal("no raise_exception case in the fixtures")
	}
}
