package chat

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// writeFiles creates a model directory with the given files.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFindTemplatesPrecedence(t *testing.T) {
	listConfig := `{"chat_template": [{"name": "default", "template": "D"}, {"name": "tool_use", "template": "T"}]}`
	cases := []struct {
		name    string
		files   map[string]string
		want    map[string]string // template name -> text
		origin  string            // base name of the default's origin file
		wantErr error
	}{
		{"tokenizer_config string", map[string]string{"tokenizer_config.json": `{"chat_template": "TC"}`},
			map[string]string{"default": "TC"}, "tokenizer_config.json", nil},
		{"tokenizer_config list", map[string]string{"tokenizer_config.json": listConfig},
			map[string]string{"default": "D", "tool_use": "T"}, "tokenizer_config.json (default)", nil},
		{"chat_template.json wins", map[string]string{"tokenizer_config.json": `{"chat_template": "TC"}`,
			"chat_template.json": `{"chat_template": "CJ"}`}, map[string]string{"default": "CJ"}, "chat_template.json", nil},
		{"chat_template.jinja wins", map[string]string{"tokenizer_config.json": listConfig,
			"chat_template.json": `{"chat_template": "CJ"}`, "chat_template.jinja": "JINJA",
			"additional_chat_templates/tool_use.jinja": "EXTRA"},
			map[string]string{"default": "JINJA", "tool_use": "EXTRA"}, "chat_template.jinja", nil},
		{"config without template", map[string]string{"tokenizer_config.json": `{"bos_token": "<s>"}`,
			"chat_template.json": `{"chat_template": "CJ"}`}, map[string]string{"default": "CJ"}, "chat_template.json", nil},
		{"null template", map[string]string{"tokenizer_config.json": `{"chat_template": null}`}, nil, "", ErrNoTemplate},
		{"no files", map[string]string{"config.json": `{}`}, nil, "", ErrNoTemplate},
		{"bad JSON", map[string]string{"tokenizer_config.json": `{"chat_template": `}, nil, "", ErrInput},
		{"list entry without name", map[string]string{"tokenizer_config.json": `{"chat_template": [{"template": "x"}]}`},
			nil, "", ErrInput},
		{"template of wrong type", map[string]string{"tokenizer_config.json": `{"chat_template": 5}`}, nil, "", ErrInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			got, err := FindTemplates(dir)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("got %v, want %v", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %d templates, want %d", len(got), len(c.want))
			}
			for _, s := range got {
				if c.want[s.Name] != s.Text {
					t.Errorf("template %s = %q, want %q", s.Name, s.Text, c.want[s.Name])
				}
			}
			src, origin, err := FindTemplate(dir)
			if err != nil || src != c.want["default"] || filepath.Base(origin) != c.origin {
				t.Errorf("FindTemplate = %q, %q, %v", src, origin, err)
			}
		})
	}
}

func TestFindTemplateInFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"tokenizer_config.json": `{"chat_template": "TC"}`, "x.jinja": "RAW"})
	for file, want := range map[string]string{"tokenizer_config.json": "TC", "x.jinja": "RAW"} {
		src, _, err := FindTemplate(filepath.Join(dir, file))
		if err != nil || src != want {
			t.Errorf("%s: got %q, %v", file, src, err)
		}
	}
	if _, _, err := FindTemplate(filepath.Join(dir, "missing.json")); !errors.Is(err, ErrNoTemplate) {
		t.Errorf("missing file: %v", err)
	}
}

func TestLoadTokens(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"tokenizer_config.json": `{"bos_token": "<s>", "eos_token": {"__type": "AddedToken", "content": "</s>"},
			"pad_token": null, "unk_token": "<unk>", "additional_special_tokens": ["<a>", {"content": "<b>"}]}`,
		"special_tokens_map.json": `{"eos_token": {"content": "<|end|>", "lstrip": false}}`,
	})
	got, err := LoadTokens(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.BOS != "<s>" || got.EOS != "<|end|>" || got.PAD != "" || got.UNK != "<unk>" ||
		len(got.Additional) != 2 || got.Additional[1] != "<b>" {
		t.Errorf("tokens %+v", got)
	}
	bad := writeFiles(t, map[string]string{"tokenizer_config.json": `{"bos_token": 5}`})
	if _, err := LoadTokens(bad); !errors.Is(err, ErrInput) {
		t.Errorf("bad token: %v", err)
	}
}

func TestSelect(t *testing.T) {
	ts, err := CompileAll([]Source{{Name: "default", Text: "D"}, {Name: "tool_use", Text: "T"}, {Name: "rag", Text: "R"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		tools bool
		want  string
	}{{"", false, "D"}, {"", true, "T"}, {"rag", true, "R"}, {"default", true, "D"}}
	for _, c := range cases {
		tpl, err := ts.Select(c.name, c.tools)
		if err != nil || tpl.Source != c.want {
			t.Errorf("Select(%q, %v) = %v, %v; want %s", c.name, c.tools, tpl, err, c.want)
		}
	}
	if _, err := ts.Select("nope", false); !errors.Is(err, ErrNoTemplate) {
		t.Errorf("unknown name: %v", err)
	}
	named, _ := CompileAll([]Source{{Name: "tool_use", Text: "T"}})
	if _, err := named.Select("", false); !errors.Is(err, ErrNoTemplate) {
		t.Errorf("no default: %v", err)
	}
}

// referenceChat is the "chat" case of a llama.cpp reference file: its
// messages and the prompt the model's template made of them.
func referenceChat(t *testing.T, name string) ([]Message, string) {
	t.Helper()
	data, err := os.ReadFile(fixture.Path(t, "reference", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Runs []struct {
			Cases []struct {
				Name       string          `json:"name"`
				PromptText string          `json:"prompt_text"`
				Messages   json.RawMessage `json:"messages"`
			} `json:"cases"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	for _, c := range ref.Runs[0].Cases {
		if c.Name == "chat" {
			msgs, err := ParseMessages(c.Messages)
			if err != nil {
				t.Fatal(err)
			}
			return msgs, c.PromptText
		}
	}
	t.Fatalf("%s has no chat case", name)
	return nil, ""
}

// TestFixtureModels loads the templates of the test models (directories
// and GGUF files) and renders the reference conversation.
func TestFixtureModels(t *testing.T) {
	cases := []struct {
		path []string
		ref  string
	}{
		{[]string{"models", "qwen3-tiny"}, "qwen3-tiny-F16"},
		{[]string{"gguf", "qwen3-tiny-F16.gguf"}, "qwen3-tiny-F16"},
		{[]string{"models", "llama-tiny"}, "llama-tiny-F32"},
		{[]string{"models", "llama-tiny", "tokenizer_config.json"}, "llama-tiny-F32"},
		{[]string{"gguf", "llama-tiny-Q8_0.gguf"}, "llama-tiny-Q8_0"},
	}
	for _, c := range cases {
		t.Run(filepath.Join(c.path...), func(t *testing.T) {
			ts, err := Load(fixture.Path(t, c.path...))
			if err != nil {
				t.Fatal(err)
			}
			msgs, want := referenceChat(t, c.ref)
			got, err := ts.Render(context.Background(), Input{Messages: msgs, AddGenerationPrompt: true})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("got %q\nwant %q", got, want)
			}
		})
	}
}

// TestGGUFInDirectory finds the template of a directory holding only a
// GGUF file, as a downloaded GGUF repository is.
func TestGGUFInDirectory(t *testing.T) {
	src := fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf")
	dir := t.TempDir()
	if err := os.Symlink(src, filepath.Join(dir, "model.gguf")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	text, origin, err := FindTemplate(dir)
	if err != nil || text == "" || filepath.Base(origin) != "model.gguf (tokenizer.chat_template)" {
		t.Fatalf("got %d bytes from %q, %v", len(text), origin, err)
	}
	tokens, err := LoadTokens(src)
	if err != nil || tokens.EOS == "" {
		t.Errorf("GGUF tokens %+v, %v", tokens, err)
	}
}

// TestFindTemplatesGlobCharacters finds the additional templates of a
// model folder whose name holds glob metacharacters.
func TestFindTemplatesGlobCharacters(t *testing.T) {
	parent := writeFiles(t, map[string]string{"[m]*?/chat_template.jinja": "JINJA",
		"[m]*?/additional_chat_templates/tool_use.jinja": "EXTRA"})
	got, err := FindTemplates(filepath.Join(parent, "[m]*?"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Text != "JINJA" || got[1].Name != "tool_use" || got[1].Text != "EXTRA" {
		t.Fatalf("templates %+v, want the default and tool_use", got)
	}
}
