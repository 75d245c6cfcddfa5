package chat

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mlxrun/mlx/models/gguf"
)

// templatesInGGUF reads the chat templates of the GGUF file at path.
func templatesInGGUF(path string) ([]Source, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return GGUFTemplates(f)
}

// GGUFTemplate returns the default chat template of an open GGUF file, as
// FindTemplate does for its path without parsing the file again.
func GGUFTemplate(f *gguf.File) (src, origin string, err error) {
	all, err := GGUFTemplates(f)
	if err != nil {
		return "", "", err
	}
	return defaultTemplate(f.Path, all)
}

// GGUFTemplates reads tokenizer.chat_template and the named templates
// tokenizer.chat_template.<name> of an open GGUF file.
func GGUFTemplates(f *gguf.File) ([]Source, error) {
	path := f.Path
	var all []Source
	if s, ok := f.String("tokenizer.chat_template"); ok {
		all = append(all, Source{Name: "default", Text: s, Origin: path + " (tokenizer.chat_template)"})
	}
	var named []Source
	for _, kv := range f.KV {
		name, ok := strings.CutPrefix(kv.Key, "tokenizer.chat_template.")
		if !ok {
			continue
		}
		if s, ok := f.String(kv.Key); ok {
			named = append(named, Source{Name: name, Text: s, Origin: path + " (" + kv.Key + ")"})
		}
	}
	sort.Slice(named, func(i, j int) bool { return named[i].Name < named[j].Name })
	all = append(all, named...)
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: %s has no tokenizer.chat_template", ErrNoTemplate, path)
	}
	return all, nil
}

// tokensInGGUF reads the special tokens of a GGUF vocabulary.
func tokensInGGUF(path string) (SpecialTokens, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return SpecialTokens{}, err
	}
	defer f.Close()
	return GGUFTokens(f), nil
}

// GGUFTokens returns the special tokens of an open GGUF file's vocabulary,
// as LoadTokens does for its path without parsing the file again.
func GGUFTokens(f *gguf.File) SpecialTokens {
	var t SpecialTokens
	vocab, ok := f.Strings("tokenizer.ggml.tokens")
	if !ok {
		return t
	}
	for _, id := range []struct {
		key string
		dst *string
	}{{"tokenizer.ggml.bos_token_id", &t.BOS}, {"tokenizer.ggml.eos_token_id", &t.EOS},
		{"tokenizer.ggml.unknown_token_id", &t.UNK}, {"tokenizer.ggml.seperator_token_id", &t.SEP},
		{"tokenizer.ggml.padding_token_id", &t.PAD}} {
		if n, ok := f.Uint(id.key); ok && n < uint64(len(vocab)) {
			*id.dst = vocab[n]
		}
	}
	return t
}
