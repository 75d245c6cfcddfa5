package server

import (
	"context"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// handleCompletions serves POST /v1/completions.
func (s *Server) handleCompletions(c *call) {
	req, perr := openai.ParseCompletion(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	serveGeneration(s, c, req.Model, req.Stream, func(m Model) (generation[openai.Completion], aggregator[openai.Completion], error) {
		if req.Suffix != nil && *req.Suffix != "" {
			if err := fillPrompts(m, req, nil, "", "suffix"); err != nil {
				return nil, nil, err
			}
		}
		g, err := s.newCompletionGen(m, req)
		return g, &completionAggregator{gen: g}, chatNames.openai(err)
	})
}

// compPrompt is one prompt of a completions request.
type compPrompt struct {
	ids      []int32
	text     string             // for echo
	logprobs []*runtime.Logprob // for echo with logprobs: one per id, the first nil
}

// compSeq is the state of one sequence.
type compSeq struct {
	prompt     int // index into prompts
	started    bool
	offset     int     // text offset of the next token
	score      float64 // sum of the generated tokens' logprobs, the stop token's included (best_of)
	completion int
	finish     *string
}

// completionGen turns the sequences of a completions request into chunks.
type completionGen struct {
	id, model, fingerprint string
	created                int64
	m                      Model
	req                    *openai.CompletionRequest
	prompts                []compPrompt
	reqs                   []runtime.Request
	seqs                   []*compSeq
	best, n                int
	out                    delivery[openai.Completion]
	tokens                 *tokenTexts
	includeUsage           bool
	continuous             bool
	cached                 int
}

func (s *Server) newCompletionGen(m Model, req *openai.CompletionRequest) (*completionGen, error) {
	info := m.Info()
	if rm, ok := m.(*remoteModel); ok {
		return nil, openai.Invalid("model", openai.CodeInvalidValue,
			"%s is served by the upstream %s: /v1/completions is not forwarded; use /v1/chat/completions.", rm.id, rm.up.Name())
	}
	if err := checkScorer(m, req.PromptLogprobs); err != nil {
		return nil, err
	}
	g := &completionGen{id: newID("cmpl-", 29), created: time.Now().Unix(), model: req.Model, fingerprint: s.opt.Fingerprint,
		m: m, req: req, best: req.BestOfCount(), n: req.Choices(), tokens: newTokenTexts(m)}
	for _, p := range req.Prompts {
		param := p.Param
		cp, err := completionPrompt(m, p, param, openai.Flag(req.SkipSpecialTokens, true))
		if err != nil {
			return nil, err
		}
		if cp.ids, err = truncate(cp.ids, req.TruncatePromptTokens, info.Context, param); err != nil {
			return nil, err
		}
		g.prompts = append(g.prompts, cp)
	}
	wantLP := req.Logprobs != nil
	top := 0
	if wantLP {
		top = *req.Logprobs
	}
	pl := &plan{sampling: openaiSampling(&req.Sampling, req.Limit()), logprobs: wantLP || g.best > g.n, topLogprobs: top,
		format: responseFormat(req.ResponseFormat), choice: openai.ToolChoiceNone}
	extSampling(&pl.sampling, &req.Ext)
	pl.format.grammar = deref(req.Grammar)
	p, err := params(pl, info)
	if err != nil {
		return nil, err
	}
	spec, err := pl.constraint(toolparse.FormatNone)
	if err != nil {
		return nil, err
	}
	constraint, err := s.compileSpec(&spec, pl)
	if err != nil {
		return nil, err
	}
	for pi, cp := range g.prompts {
		for j := range g.best {
			g.reqs = append(g.reqs, runtime.Request{Prompt: cp.ids, Params: withSeed(p, j), KeepSpecial: !openai.Flag(req.SkipSpecialTokens, true),
				Constraint: constraint, Spec: speculation(&req.Ext)})
			g.seqs = append(g.seqs, &compSeq{prompt: pi})
		}
	}
	if err := g.useBeams(constraint != nil); err != nil {
		return nil, err
	}
	g.includeUsage = !req.Stream || (req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
	g.continuous = req.Stream && req.StreamOptions != nil && req.StreamOptions.ContinuousUsageStats
	return g, nil
}

// completionPrompt tokenizes a prompt given as text, or checks one given
// as token ids against the vocabulary.
func completionPrompt(m Model, p openai.Prompt, param string, skipSpecial bool) (compPrompt, error) {
	if p.IDs == nil {
		return compPrompt{ids: m.EncodePrompt(p.Text), text: p.Text}, nil
	}
	vocab := m.Info().VocabSize
	for i, id := range p.IDs {
		if id < 0 || (vocab > 0 && int(id) >= vocab) {
			return compPrompt{}, openai.Invalid(param, openai.CodeInvalidValue, "%s[%d] is token id %d, outside the vocabulary of %d tokens.", param, i, id, vocab)
		}
	}
	return compPrompt{ids: p.IDs, text: m.Detokenize(p.IDs, false)}, nil
}

// open implements generation: it measures the prompts' log-probabilities
// for echo with logprobs (when the model can) and for prompt_logprobs.
func (g *completionGen) open(ctx context.Context, out delivery[openai.Completion]) error {
	g.out = out
	top := -1
	if g.req.Echo && g.req.Logprobs != nil {
		top = *g.req.Logprobs
	}
	if g.req.PromptLogprobs != nil {
		top = max(top, *g.req.PromptLogprobs)
	}
	for i := range g.prompts {
		if top < 0 {
			break
		}
		cp := &g.prompts[i]
		var err error
		if cp.logprobs, err = scorePrompt(ctx, g.m, cp.ids, top); err != nil {
			return err
		}
	}
	return nil
}
