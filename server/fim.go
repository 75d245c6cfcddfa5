package server

import (
	"github.com/mlxrun/mlx/server/llamacpp"
	"github.com/mlxrun/mlx/server/openai"
)

// FIMTokens are a model's fill-in-the-middle tokens; -1 marks one its
// vocabulary lacks.
type FIMTokens struct {
	Pre, Suf, Mid int32 // the prefix, suffix and middle markers
	Pad           int32
	Rep, Sep      int32 // repository name and file separator (repository-level prompts)
	BOS           int32 // the token a prompt starts with (-1: none)
}

// Filler is implemented by models that can tell their fill-in-the-middle
// tokens and tokenize plain text (TextTokenizer).
type Filler interface {
	TextTokenizer
	FIM() FIMTokens
}

// fimBatch is the batch of llama-server's default settings, which sizes
// how much of the prefix and suffix a fill-in-the-middle prompt keeps.
const fimBatch = 2048

// fimInput is what a fill-in-the-middle prompt is built from.
type fimInput struct {
	prefix, suffix string
	extra          []llamacpp.Chunk // other files, before the prefix
	prompt         string           // text the middle starts with
	param          string           // the parameter errors name: the suffix's
}

// fimPrompt builds the prompt of a fill-in-the-middle request as
// llama-server does: the extra files (as a repository when the vocabulary
// has the repository and file separator tokens), then
// PRE prefix prompt SUF suffix MID. The prefix keeps its end and the
// suffix its start, to fit a batch 3:1; the extra files keep their end,
// as much as the context has beside a batch, and less when the prompt
// would leave no room for maxTokens (0: one).
func fimPrompt(m Model, in fimInput, ctxLen, maxTokens int) ([]int32, error) {
	if !canFill(m) {
		return nil, openai.Invalid(in.param, openai.CodeUnsupported,
			"This model cannot fill in the middle: its vocabulary has no fill-in-the-middle tokens (such as <|fim_prefix|>, <|fim_suffix|> and <|fim_middle|>). Use a code model trained for it.")
	}
	fl := m.(Filler)
	f := fl.FIM()
	plain := func(s string) []int32 { return fl.TokenizeText(s, false, false) }
	var extra []int32
	if f.Rep >= 0 {
		extra = append(append(extra, f.Rep), plain("myproject\n")...)
	}
	for _, ch := range in.extra {
		if f.Sep >= 0 {
			extra = append(append(extra, f.Sep), plain(ch.Filename+"\n")...)
		} else {
			extra = append(extra, plain("\n\n--- snippet ---\n\n")...)
		}
		extra = append(extra, plain(ch.Text)...)
	}
	if f.Sep >= 0 {
		extra = append(append(extra, f.Sep), plain("filename\n")...)
	}
	prefix, suffix := plain(in.prefix), plain(in.suffix)
	prompt := fl.TokenizeText(in.prompt, false, true)
	batch := min(fimBatch, max(ctxLen/2, 4))
	takePrefix := min(len(prefix), 3*(batch/4))
	takeSuffix := min(len(suffix), max(0, batch/4-(2+len(prompt))))
	// llama-server sizes the extra files with its own n_predict, -1 by
	// default, whatever the request asks; they are cut further when the
	// prompt would leave no room for the tokens asked (at least one).
	takeExtra := min(max(0, ctxLen-batch+2), len(extra))
	rest := takePrefix + takeSuffix + len(prompt) + 3
	if f.BOS >= 0 {
		rest++
	}
	if room := ctxLen - max(maxTokens, 1) - rest; ctxLen > 0 && takeExtra > room {
		takeExtra = max(0, room)
	}

	ids := make([]int32, 0, takeExtra+takePrefix+takeSuffix+len(prompt)+4)
	ids = append(ids, extra[len(extra)-takeExtra:]...)
	if f.BOS >= 0 {
		ids = append(ids, f.BOS)
	}
	ids = append(ids, f.Pre)
	ids = append(ids, prefix[len(prefix)-takePrefix:]...)
	ids = append(ids, prompt...)
	ids = append(ids, f.Suf)
	ids = append(ids, suffix[:takeSuffix]...)
	return append(ids, f.Mid), nil
}

// canFill reports whether m has the tokens of a fill-in-the-middle
// prompt.
func canFill(m Model) bool {
	fl, ok := m.(Filler)
	if !ok {
		return false
	}
	f := fl.FIM()
	return f.Pre >= 0 && f.Suf >= 0 && f.Mid >= 0
}

// fimStops are the tokens that end a fill-in-the-middle generation
// besides the model's end of generation: padding and the separators that
// would begin another file, as llama.cpp treats them.
func fimStops(m Model) []int32 {
	fl, ok := m.(Filler)
	if !ok {
		return nil
	}
	f := fl.FIM()
	var out []int32
	for _, id := range []int32{f.Pad, f.Rep, f.Sep} {
		if id >= 0 {
			out = append(out, id)
		}
	}
	return out
}
