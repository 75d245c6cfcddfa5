package info

import (
	"strconv"

	"github.com/mlxrun/mlx/models/config"
)

// Generation holds the sampling defaults the model's authors chose, from
// generation_config.json or the GGUF general.sampling.* keys. A key is left
// out of the JSON when the model does not set it.
type Generation struct {
	Temperature       *float64 `json:"temperature,omitempty"`
	TopP              *float64 `json:"top_p,omitempty"`
	TopK              *int     `json:"top_k,omitempty"`
	MinP              *float64 `json:"min_p,omitempty"`
	RepetitionPenalty *float64 `json:"repetition_penalty,omitempty"`
	DoSample          *bool    `json:"do_sample,omitempty"`
	MaxNewTokens      *int     `json:"max_new_tokens,omitempty"`
	BOS               *int     `json:"bos_token_id,omitempty"`
	EOS               []int    `json:"eos_token_ids,omitempty"`
}

func generationOf(g config.Generation) Generation {
	return Generation{Temperature: tidy(g.Temperature), TopP: tidy(g.TopP), TopK: g.TopK, MinP: tidy(g.MinP),
		RepetitionPenalty: tidy(g.RepetitionPenalty), DoSample: g.DoSample, MaxNewTokens: g.MaxNewTokens,
		BOS: g.BOS, EOS: g.EOS}
}

// tidy turns a value that came from a float32 (GGUF stores them so) into the
// float64 of its shortest decimal form: 0.6, not 0.6000000238418579.
func tidy(p *float64) *float64 {
	if p == nil || float64(float32(*p)) != *p {
		return p
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(*p, 'g', -1, 32), 64)
	if err != nil {
		return p
	}
	return &v
}

// Empty reports whether the model sets no generation default.
func (g Generation) Empty() bool {
	return g.Temperature == nil && g.TopP == nil && g.TopK == nil && g.MinP == nil &&
		g.RepetitionPenalty == nil && g.DoSample == nil && g.MaxNewTokens == nil && g.BOS == nil && g.EOS == nil
}
