package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/fixture"
)

// templateCase is what the command needs of one case of a template fixture.
type templateCase struct {
	Scenario string `json:"scenario"`
	Input    struct {
		Messages            json.RawMessage `json:"messages"`
		Tools               json.RawMessage `json:"tools"`
		AddGenerationPrompt bool            `json:"add_generation_prompt"`
		Kwargs              json.RawMessage `json:"kwargs"`
	} `json:"input"`
	ExpectedOutput *string `json:"expected_output"`
	ExpectedError  *string `json:"expected_error"`
	ErrorSource    string  `json:"error_source"`
}

type templateFixture struct {
	ID             string                     `json:"id"`
	Template       string                     `json:"template"`
	SpecialTokens  map[string]json.RawMessage `json:"special_tokens"`
	TemplateKwargs map[string]any             `json:"template_kwargs"`
	Cases          []templateCase             `json:"cases"`
}

func writeTemp(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// templateArgs builds the command line for one fixture case.
func templateArgs(t *testing.T, f *templateFixture, c *templateCase) []string {
	t.Helper()
	dir := t.TempDir()
	args := []string{"template", "render",
		"--template", writeTemp(t, dir, "t.jinja", []byte(f.Template)),
		"--messages", writeTemp(t, dir, "m.json", c.Input.Messages)}
	if len(c.Input.Tools) > 0 && string(c.Input.Tools) != "null" {
		args = append(args, "--tools", writeTemp(t, dir, "tools.json", c.Input.Tools))
	}
	kw := map[string]any{}
	for k, v := range f.TemplateKwargs {
		kw[k] = v
	}
	var caseKw map[string]any
	_ = json.Unmarshal(c.Input.Kwargs, &caseKw)
	for k, v := range caseKw {
		kw[k] = v
	}
	if len(kw) > 0 {
		data, err := json.Marshal(kw)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, "--kwargs", writeTemp(t, dir, "k.json", data))
	}
	if !c.Input.AddGenerationPrompt {
		args = append(args, "--no-generation-prompt")
	}
	for flag, key := range map[string]string{"--bos": "bos_token", "--eos": "eos_token"} {
		var tok *string
		if err := json.Unmarshal(f.SpecialTokens[key], &tok); err == nil && tok != nil {
			args = append(args, flag, *tok)
		}
	}
	return args
}

// usable reports whether the command can reproduce the fixture: its
// special tokens are only bos and eos, and it does not read the clock
// (the command uses the real one).
func usable(f *templateFixture) bool {
	for k, v := range f.SpecialTokens {
		if string(v) != "null" && k != "bos_token" && k != "eos_token" {
			return false
		}
	}
	return !strings.Contains(f.Template, "strftime_now")
}

// TestTemplateRenderFixtures runs "mlx template render" on the fixture
// cases it can reproduce and compares the output byte for byte.
func TestTemplateRenderFixtures(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixture.Path(t, "templates"), "*.json"))
	ran := 0
	for _, p := range paths {
		if filepath.Base(p) == "scenarios.json" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f templateFixture
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !usable(&f) {
			continue
		}
		for i := range f.Cases {
			c := &f.Cases[i]
			out, err := run(t, templateArgs(t, &f, c)...)
			ran++
			switch {
			case c.ExpectedOutput != nil && (err != nil || out != *c.ExpectedOutput):
				t.Errorf("%s/%s: got %q, %v\nwant %q", f.ID, c.Scenario, out, err, *c.ExpectedOutput)
			case c.ExpectedError != nil && err == nil:
				t.Errorf("%s/%s: no error, want %q", f.ID, c.Scenario, *c.ExpectedError)
			case c.ErrorSource == "raise_exception":
				if msg, ok := chat.RaisedMessage(err); !ok || msg != *c.ExpectedError {
					t.Errorf("%s/%s: error %v, want %q", f.ID, c.Scenario, err, *c.ExpectedError)
				}
			}
		}
	}
	if ran == 0 {
		t.Fatal("no usable template fixture")
	}
}

// TestTemplateRenderModel renders with a test model's own template and
// tokens, and shows that template.
func TestTemplateRenderModel(t *testing.T) {
	model := fixture.Path(t, "models", "qwen3-tiny")
	msgs := writeTemp(t, t.TempDir(), "m.json", []byte(`{"messages": [{"role": "user", "content": "Hi"}]}`))
	out, err := run(t, "template", "render", "--model", model, "--messages", msgs)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := chat.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := chat.ParseMessages([]byte(`[{"role": "user", "content": "Hi"}]`))
	want, err := ts.Render(t.Context(), chat.Input{Messages: m, AddGenerationPrompt: true})
	if err != nil || out != want {
		t.Errorf("got %q, %v\nwant %q", out, err, want)
	}
	shown, err := run(t, "template", "show", "--model", model)
	if err != nil || shown != ts.Default.Source {
		t.Errorf("show: %v", err)
	}
}

func TestTemplateRenderErrors(t *testing.T) {
	dir := t.TempDir()
	msgs := writeTemp(t, dir, "m.json", []byte(`[{"role": "user", "content": "Hi"}]`))
	badMsgs := writeTemp(t, dir, "bad.json", []byte(`{"role": `))
	tpl := writeTemp(t, dir, "t.jinja", []byte("{{ messages[0].content }}"))
	cases := [][]string{
		{"template", "render", "--messages", msgs},
		{"template", "render", "--template", tpl},
		{"template", "render", "--template", tpl, "--messages", badMsgs},
		{"template", "render", "--template", filepath.Join(dir, "none.jinja"), "--messages", msgs},
		{"template", "render", "--model", dir, "--messages", msgs},
		{"template", "render", "--template", tpl, "--messages", msgs, "--tools", badMsgs},
	}
	for _, args := range cases {
		if _, err := run(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	if out, err := run(t, "template", "render", "--template", tpl, "--messages", msgs); err != nil || out != "Hi" {
		t.Errorf("got %q, %v", out, err)
	}
}
