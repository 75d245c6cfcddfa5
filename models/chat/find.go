package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlxrun/mlx/models/bounded"
	"github.com/mlxrun/mlx/models/internal/folder"
)

// maxConfigBytes bounds the JSON and template files read here.
const maxConfigBytes = 64 << 20

// Source is the text of one chat template and where it was found.
type Source struct {
	Name   string // "default", or its name in a list of templates ("tool_use", "rag")
	Text   string
	Origin string // the file, and the key inside it
}

// FindTemplate returns the default chat template of a model; path is a
// model directory, a tokenizer_config.json (or chat_template.json /
// chat_template.jinja) file, or a .gguf file.
func FindTemplate(path string) (src, origin string, err error) {
	all, err := FindTemplates(path)
	if err != nil {
		return "", "", err
	}
	return defaultTemplate(path, all)
}

// defaultTemplate picks the template named default among all, those of path.
func defaultTemplate(path string, all []Source) (src, origin string, err error) {
	for _, s := range all {
		if s.Name == "default" {
			return s.Text, s.Origin, nil
		}
	}
	return "", "", fmt.Errorf("%w: %s has chat templates %s but none named default", ErrNoTemplate, path, names(all))
}

func names(all []Source) string {
	n := make([]string, len(all))
	for i, s := range all {
		n[i] = s.Name
	}
	return strings.Join(n, ", ")
}

// FindTemplates returns every chat template of a model, in this order of
// precedence: chat_template.jinja (with additional_chat_templates/*.jinja),
// chat_template.json, the chat_template of tokenizer_config.json (a string
// or a list of {name, template}), then the tokenizer.chat_template
// metadata of a GGUF file.
func FindTemplates(path string) ([]Source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoTemplate, err)
	}
	if !st.IsDir() {
		return templatesInFile(path)
	}
	for _, name := range []string{"chat_template.jinja", "chat_template.json", "tokenizer_config.json"} {
		p := filepath.Join(path, name)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		all, err := templatesInFile(p)
		if errors.Is(err, ErrNoTemplate) {
			continue
		}
		return all, err
	}
	ggufs := folder.WithSuffix(path, ".gguf")
	for _, p := range ggufs {
		if all, err := templatesInGGUF(p); err == nil {
			return all, nil
		}
	}
	return nil, fmt.Errorf("%w: %s has none (looked for chat_template.jinja, chat_template.json, "+
		"tokenizer_config.json and GGUF metadata)", ErrNoTemplate, path)
}

func templatesInFile(path string) ([]Source, error) {
	switch {
	case strings.HasSuffix(path, ".gguf"):
		return templatesInGGUF(path)
	case strings.HasSuffix(path, ".json"):
		return templatesInJSON(path)
	}
	text, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	all := []Source{{Name: "default", Text: string(text), Origin: path}}
	if filepath.Base(path) == "chat_template.jinja" {
		extra := folder.WithSuffix(filepath.Join(filepath.Dir(path), "additional_chat_templates"), ".jinja")
		for _, p := range extra {
			t, err := readLimited(p)
			if err != nil {
				return nil, err
			}
			all = append(all, Source{Name: strings.TrimSuffix(filepath.Base(p), ".jinja"), Text: string(t), Origin: p})
		}
	}
	return all, nil
}

func readLimited(path string) ([]byte, error) {
	data, err := bounded.ReadFile(path, maxConfigBytes)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	return data, err
}

// readConfig reads a JSON object file.
func readConfig(path string) (map[string]json.RawMessage, error) {
	data, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInput, path, err)
	}
	return cfg, nil
}

// templatesInJSON reads "chat_template" from tokenizer_config.json or
// chat_template.json: a string, or a list of {name, template}.
func templatesInJSON(path string) ([]Source, error) {
	cfg, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	raw, ok := cfg["chat_template"]
	if !ok || string(raw) == "null" {
		return nil, fmt.Errorf("%w: %s has no chat_template", ErrNoTemplate, path)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return []Source{{Name: "default", Text: s, Origin: path}}, nil
	}
	var list []struct {
		Name     *string `json:"name"`
		Template *string `json:"template"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("%w: %s: chat_template is neither a string nor a list of {name, template}", ErrInput, path)
	}
	var all []Source
	for i, e := range list {
		if e.Name == nil || e.Template == nil {
			return nil, fmt.Errorf("%w: %s: chat_template[%d] lacks a name or a template", ErrInput, path, i)
		}
		all = append(all, Source{Name: *e.Name, Text: *e.Template, Origin: path + " (" + *e.Name + ")"})
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: %s has an empty chat_template list", ErrNoTemplate, path)
	}
	return all, nil
}

// LoadTokens reads the special tokens of a model: tokenizer_config.json,
// overridden by special_tokens_map.json, or the token ids of a GGUF file.
// A model without them yields no tokens and no error.
func LoadTokens(path string) (SpecialTokens, error) {
	st, err := os.Stat(path)
	if err != nil {
		return SpecialTokens{}, err
	}
	if !st.IsDir() {
		if strings.HasSuffix(path, ".gguf") {
			return tokensInGGUF(path)
		}
		path = filepath.Dir(path)
	}
	var t SpecialTokens
	for _, name := range []string{"tokenizer_config.json", "special_tokens_map.json"} {
		p := filepath.Join(path, name)
		cfg, err := readConfig(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return t, err
		}
		more, err := tokensFromConfig(cfg)
		if err != nil {
			return t, fmt.Errorf("%w: %s: %w", ErrInput, p, err)
		}
		t = t.Merge(more)
	}
	return t, nil
}
