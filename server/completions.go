package server

import (
	"context"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
)

// handleCompletions serves POST /v1/completions.
func (s *Server) handleCompletions(c *call) {
	req, perr := openai.ParseCompletion(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	serveGeneration(s, c, req.Model, req.Stream, func(ctx context.Context, m Model) (generation[openai.Completion], aggregator[openai.Completion], error) {
		if req.Suffix != nil && *req.Suffix != "" {
			if err := fillPrompts(m, req, nil, "", "suffix"); err != nil {
				return nil, nil, err
			}
		}
		g, err := s.newCompletionGen(ctx, m, req)
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
	prompt  int // index into prompts
	started bool
	offset  int     // text offset of the next token
	score   float64 // sum of the generated tokens' logprobs, the stop token's included (best_of)
	finish  *string
}

// completionGen is the completions encoder of a plan's stream: each
// sequence's text becomes chunks, after its prompt when echoed.
type completionGen struct {
	id, model, fingerprint string
	created                int64
	m                      Model
	req                    *openai.CompletionRequest
	prompts                []compPrompt
	st                     *genStream
	seqs                   []*compSeq
	best, n                int
	out                    delivery[openai.Completion]
	tokens                 *tokenTexts
	includeUsage           bool
	continuous             bool
}

// newCompletionGen decodes a completions request into a plan of its
// prompts and prepares it, with the completions encoder of its stream.
func (s *Server) newCompletionGen(ctx context.Context, m Model, req *openai.CompletionRequest) (*completionGen, error) {
	if rm, ok := m.(*remoteModel); ok {
		return nil, openai.Invalid("model", openai.CodeInvalidValue,
			"%s is served by the upstream %s: /v1/completions is not forwarded; use /v1/chat/completions.", rm.id, rm.up.Name())
	}
	g := &completionGen{id: newID("cmpl-", 29), created: time.Now().Unix(), model: req.Model, fingerprint: s.opt.Fingerprint,
		m: m, req: req, best: req.BestOfCount(), n: req.Choices(), tokens: newTokenTexts(m)}
	top := 0
	if req.Logprobs != nil {
		top = *req.Logprobs
	}
	p := &plan{n: g.best, sampling: openaiSampling(&req.Sampling, req.Limit()), logprobs: req.Logprobs != nil || g.best > g.n,
		topLogprobs: top, format: responseFormat(req.ResponseFormat), choice: openai.ToolChoiceNone,
		truncate: req.TruncatePromptTokens, promptLogprobs: req.PromptLogprobs, keepSpecial: !openai.Flag(req.SkipSpecialTokens, true),
		spec: speculation(&req.Ext), beam: beamSearch(&req.BeamParams, g.best, g.n)}
	extSampling(&p.sampling, &req.Ext)
	p.format.grammar = deref(req.Grammar)
	for _, rp := range req.Prompts {
		cp, err := completionPrompt(m, rp, rp.Param, openai.Flag(req.SkipSpecialTokens, true))
		if err != nil {
			return nil, err
		}
		g.prompts = append(g.prompts, cp)
		p.prompts = append(p.prompts, planPrompt{ids: cp.ids, key: rp.Param})
	}
	st, err := s.prepare(ctx, m, p, g)
	if err != nil {
		return nil, err
	}
	g.st = st
	for i := range g.prompts {
		g.prompts[i].ids = st.prompts[i] // as truncated
		for range st.perPrompt {
			g.seqs = append(g.seqs, &compSeq{prompt: i})
		}
	}
	g.best = st.perPrompt // a beam search returns its n choices ranked
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
