package server

import (
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
)

// tokenTexts decodes single tokens for log-probabilities, with a cache:
// the same alternatives come back often.
type tokenTexts struct {
	m     Model
	cache map[int32]string
}

func newTokenTexts(m Model) *tokenTexts { return &tokenTexts{m: m, cache: map[int32]string{}} }

// text returns the text of token id, special tokens included.
func (t *tokenTexts) text(id int32) string {
	if s, ok := t.cache[id]; ok {
		return s
	}
	s := t.m.Detokenize([]int32{id}, false)
	if len(t.cache) < 1<<16 {
		t.cache[id] = s
	}
	return s
}

// chatLogprob converts a token's log-probability to the chat format.
func (t *tokenTexts) chatLogprob(lp runtime.Logprob) openai.TokenLogprob {
	text, b, v := t.entry(lp.ID, lp.Logprob)
	out := openai.TokenLogprob{Token: text, Bytes: b, Logprob: v, TopLogprobs: make([]openai.TokenLogprob, 0, len(lp.Top))}
	for _, alt := range lp.Top {
		text, b, v := t.entry(alt.ID, alt.Logprob)
		out.TopLogprobs = append(out.TopLogprobs, openai.TokenLogprob{Token: text, Bytes: b, Logprob: v})
	}
	return out
}

// responseLogprob converts a token's log-probability to the Responses
// format.
func (t *tokenTexts) responseLogprob(lp runtime.Logprob) openai.Logprob {
	text, b, v := t.entry(lp.ID, lp.Logprob)
	out := openai.Logprob{Token: text, Bytes: b, Logprob: v, TopLogprobs: make([]openai.TopLogprob, 0, len(lp.Top))}
	for _, alt := range lp.Top {
		text, b, v := t.entry(alt.ID, alt.Logprob)
		out.TopLogprobs = append(out.TopLogprobs, openai.TopLogprob{Token: text, Bytes: b, Logprob: v})
	}
	return out
}

// entry is the text of token id, its bytes and its finite log-probability.
func (t *tokenTexts) entry(id int32, logprob float32) (string, []int, float64) {
	s := t.text(id)
	raw := s
	if p, ok := t.m.(Piecer); ok {
		if piece := p.TokenPiece(id); piece != "" {
			raw = piece
		}
	}
	b := make([]int, len(raw))
	for i := range len(raw) {
		b[i] = int(raw[i])
	}
	return s, b, finite(logprob)
}

// completionLogprobs converts log-probabilities to the legacy format;
// offset is the text offset of the first token. A nil entry (the first
// prompt token, which nothing predicts) has a null logprob.
func (t *tokenTexts) completionLogprobs(ids []int32, lps []*runtime.Logprob, offset int) *openai.CompletionLogprobs {
	out := &openai.CompletionLogprobs{}
	for i, id := range ids {
		s := t.text(id)
		out.Tokens = append(out.Tokens, s)
		out.TextOffset = append(out.TextOffset, offset)
		offset += len(s)
		if lps[i] == nil {
			out.TokenLogprobs = append(out.TokenLogprobs, nil)
			out.TopLogprobs = append(out.TopLogprobs, nil)
			continue
		}
		v := finite(lps[i].Logprob)
		out.TokenLogprobs = append(out.TokenLogprobs, &v)
		top := make(map[string]float64, len(lps[i].Top))
		for _, alt := range lps[i].Top {
			k := t.text(alt.ID)
			if _, dup := top[k]; !dup {
				top[k] = finite(alt.Logprob)
			}
		}
		out.TopLogprobs = append(out.TopLogprobs, top)
	}
	return out
}

// finite returns v as a float64, with −Inf and NaN (JSON holds neither)
// as -9999, the value OpenAI reports for impossible tokens.
func finite(v float32) float64 {
	f := float64(v)
	if f < -9999 || f != f {
		return -9999
	}
	return f
}
