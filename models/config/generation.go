package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// Generation holds a model's default sampling settings, from
// generation_config.json (or GGUF general.sampling.* keys). A nil field was
// not set.
type Generation struct {
	Temperature       *float64
	TopP              *float64
	TopK              *int
	MinP              *float64
	RepetitionPenalty *float64
	DoSample          *bool
	MaxNewTokens      *int
	BOS               *int
	EOS               []int // nil when not set
}

// LoadGeneration reads dir/generation_config.json. A missing file gives the
// zero Generation and no error.
func LoadGeneration(dir string) (Generation, error) {
	path := filepath.Join(dir, "generation_config.json")
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Generation{}, nil
	}
	if err != nil {
		return Generation{}, fmt.Errorf("config: %w", err)
	}
	g, err := parseGeneration(data)
	if err != nil {
		return Generation{}, fmt.Errorf("config: %s: %w", path, err)
	}
	return g, nil
}

// ParseGeneration reads the text of a generation_config.json.
func ParseGeneration(data []byte) (Generation, error) {
	g, err := parseGeneration(data)
	if err != nil {
		return Generation{}, fmt.Errorf("config: generation config: %w", err)
	}
	return g, nil
}

func parseGeneration(data []byte) (Generation, error) {
	var f fields
	if err := json.Unmarshal(data, &f); err != nil || f == nil {
		return Generation{}, fmt.Errorf("%w: not a JSON object", ErrInvalid)
	}
	r := &reader{f: f}
	g := Generation{
		Temperature:       optFloat(r, "temperature"),
		TopP:              optFloat(r, "top_p"),
		TopK:              optInt(r, "top_k"),
		MinP:              optFloat(r, "min_p"),
		RepetitionPenalty: optFloat(r, "repetition_penalty"),
		MaxNewTokens:      optInt(r, "max_new_tokens"),
		EOS:               r.ids("eos_token_id"),
	}
	if r.has("do_sample") {
		v := r.bool("do_sample", false)
		g.DoSample = &v
	}
	if ids := r.ids("bos_token_id"); len(ids) == 1 {
		g.BOS = &ids[0]
	} else if ids != nil {
		r.fail("bos_token_id", "want one token id, got %d", len(ids))
	}
	if r.err != nil {
		return Generation{}, r.err
	}
	return g, g.Validate()
}

func optFloat(r *reader, key string) *float64 {
	if !r.has(key) {
		return nil
	}
	v := r.float(key, 0)
	return &v
}

func optInt(r *reader, key string) *int {
	if !r.has(key) {
		return nil
	}
	v := r.int(key, 0)
	return &v
}

// Validate checks that every value that is set is in the range the
// sampler accepts (SamplingRange); a top_p of 0 is taken as not set.
func (g *Generation) Validate() error {
	checks := []struct {
		name string
		v    *float64
	}{
		{"temperature", g.Temperature},
		{"top_p", g.TopP},
		{"min_p", g.MinP},
		{"repetition_penalty", g.RepetitionPenalty},
	}
	for _, c := range checks {
		r, _ := SamplingRange(c.name)
		if c.v != nil && !r.Contains(*c.v) && !(c.name == "top_p" && *c.v == 0) {
			return fmt.Errorf("%w: %s %v is not in %v", ErrInvalid, c.name, *c.v, r)
		}
	}
	if g.TopK != nil && (*g.TopK < 0 || *g.TopK > maxVocab) {
		return fmt.Errorf("%w: top_k %d out of range [0, %d]", ErrInvalid, *g.TopK, maxVocab)
	}
	if g.MaxNewTokens != nil && (*g.MaxNewTokens < 0 || *g.MaxNewTokens > maxContext) {
		return fmt.Errorf("%w: max_new_tokens %d out of range [0, %d]", ErrInvalid, *g.MaxNewTokens, maxContext)
	}
	if g.BOS != nil && (*g.BOS < 0 || *g.BOS >= maxVocab) {
		return fmt.Errorf("%w: bos_token_id %d out of range", ErrInvalid, *g.BOS)
	}
	for _, id := range g.EOS {
		if id < 0 || id >= maxVocab {
			return fmt.Errorf("%w: eos_token_id %d out of range", ErrInvalid, id)
		}
	}
	return nil
}
