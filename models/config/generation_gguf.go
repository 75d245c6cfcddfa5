package config

import (
	"fmt"

	"github.com/mlxrun/mlx/models/gguf"
)

// GenerationFromGGUF reads the recommended sampling settings a GGUF file may
// carry (general.sampling.temp, top_k, top_p, min_p, penalty_repeat) and its
// BOS/EOS ids. Keys that are absent stay nil.
func GenerationFromGGUF(f *gguf.File) (Generation, error) {
	var g Generation
	for _, o := range []struct {
		key string
		dst **float64
	}{
		{"general.sampling.temp", &g.Temperature},
		{"general.sampling.top_p", &g.TopP},
		{"general.sampling.min_p", &g.MinP},
		{"general.sampling.penalty_repeat", &g.RepetitionPenalty},
	} {
		if v, ok := f.Float(o.key); ok {
			*o.dst = &v
		}
	}
	if v, ok := f.Int("general.sampling.top_k"); ok {
		if v < 0 || v > maxVocab {
			return Generation{}, fmt.Errorf("config: %s: %w: general.sampling.top_k %d out of range [0, %d]", f.Path, ErrInvalid, v, maxVocab)
		}
		k := int(v)
		g.TopK = &k
	}
	vocab := tokenCount(f)
	if vocab == 0 { // no token list: the ids are checked against the model later
		vocab = maxVocab
	}
	bos, eos := ggufTokens(f, vocab)
	if bos >= 0 {
		g.BOS = &bos
	}
	g.EOS = eos
	if err := g.Validate(); err != nil {
		return Generation{}, fmt.Errorf("config: %s: %w", f.Path, err)
	}
	return g, nil
}
