package server

import (
	"context"
	"encoding/json"

	"github.com/mlxrun/mlx/server/llamacpp"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/sse"
)

// handleInfill serves POST /infill, llama-server's fill-in-the-middle for
// editors (llama.vscode, llama.vim): a completion of the prompt that
// fimPrompt builds, answered in llama-server's completion shape, whose
// stream is one {"content"} event per piece and a last one with "stop".
func (s *Server) handleInfill(c *call) {
	name, body, ok := s.llamaBody(c)
	if !ok {
		return
	}
	req, perr := llamacpp.ParseInfill(body)
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	in := fimInput{prefix: *req.InputPrefix, suffix: *req.InputSuffix, extra: req.Extra, prompt: deref(req.Prompt), param: "input_suffix"}
	if req.NoTokens() {
		// Editors send these to warm the server up: nothing to generate.
		s.answerWith(c, name, func(_ context.Context, m Model) (any, error) {
			ids, err := fimPrompt(m, in, m.Info().Context, 0)
			return llamacpp.Completion{Stop: true, Model: name, StopType: "limit", TokensEvaluated: len(ids)}, err
		})
		return
	}
	limit := req.Limit()
	cr := &openai.CompletionRequest{Sampling: req.Sampling, Ext: req.Ext}
	cr.MaxTokens = &limit
	if req.Stream {
		cr.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	gen, agg, release, ok := startGeneration(s, c, name, func(ctx context.Context, m Model) (generation[openai.Completion], aggregator[openai.Completion], error) {
		g, err := s.newFillGen(ctx, m, cr, in)
		return g, &infillAggregator{completionAggregator: completionAggregator{gen: g}}, err
	})
	if !ok {
		return
	}
	if !req.Stream {
		respondWhole(s, c, release, func(ctx context.Context) error { return gen(ctx, agg) }, agg.result, writeAPIError)
		return
	}
	streamSSE(s, c, release, func(ctx context.Context, w *sse.Writer) error {
		st := &infillStream{w: w, model: name}
		if err := gen(ctx, st); err != nil {
			return err
		}
		return st.end()
	})
}

// newFillGen prepares a completion whose prompt is the fill-in-the-middle
// prompt of in.
func (s *Server) newFillGen(ctx context.Context, m Model, req *openai.CompletionRequest, in fimInput) (*completionGen, error) {
	req.Prompts, req.Suffix = []openai.Prompt{{Text: in.prefix, Param: "input_prefix"}}, &in.suffix
	if err := fillPrompts(m, req, in.extra, in.prompt, "input_suffix"); err != nil {
		return nil, err
	}
	return s.newCompletionGen(ctx, m, req)
}

// fillPrompts makes the prompts of a completions request with a suffix
// fill-in-the-middle prompts, each prompt the text before the middle, and
// stops the sequences at the tokens fimStops names too.
func fillPrompts(m Model, req *openai.CompletionRequest, extra []llamacpp.Chunk, middle, param string) error {
	for i, p := range req.Prompts {
		if p.IDs != nil {
			return openai.Invalid(p.Param, openai.CodeUnsupported, "With suffix, %s must be text: the fill-in-the-middle prompt is built from the texts before and after the middle.", p.Param)
		}
		in := fimInput{prefix: p.Text, suffix: *req.Suffix, extra: extra, prompt: middle, param: param}
		ids, err := fimPrompt(m, in, m.Info().Context, req.Limit())
		if err != nil {
			return err
		}
		req.Prompts[i] = openai.Prompt{IDs: ids, Param: p.Param}
	}
	req.StopTokenIDs = append(req.StopTokenIDs, fimStops(m)...)
	return nil
}

// infillAggregator builds the llama-server completion of a non-streamed
// /infill from its chunks.
type infillAggregator struct {
	completionAggregator
}

func (a *infillAggregator) result() any {
	out := a.completionAggregator.result().(completionResponse)
	res := llamacpp.Completion{Stop: true, Model: out.Model}
	if len(out.Choices) > 0 {
		ch := out.Choices[0]
		res.Content = ch.Text
		res.StopType, res.StoppingWord = stopType(ch.FinishReason, ch.StopReason)
	}
	if u := out.Usage; u != nil {
		res.TokensPredicted, res.TokensEvaluated = u.CompletionTokens, u.PromptTokens
		if u.PromptTokensDetails != nil {
			res.TokensCached = u.PromptTokensDetails.CachedTokens
		}
	}
	return res
}

// stopType names how a completion ended as llama-server does: "limit",
// "word" (a stop string, given back) or "eos".
func stopType(finish *string, reason any) (string, string) {
	switch {
	case finish == nil:
		return "", ""
	case *finish == "length":
		return "limit", ""
	}
	if w, ok := reason.(string); ok {
		return "word", w
	}
	return "eos", ""
}

// infillStream writes the chunks of a streamed /infill as llama-server's
// events.
type infillStream struct {
	w     *sse.Writer
	model string
	last  llamacpp.Completion
}

func (st *infillStream) send(c *openai.Completion) error {
	for _, ch := range c.Choices {
		if ch.Text != "" {
			if err := st.write(llamacpp.Completion{Content: ch.Text}); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil {
			st.last.StopType, st.last.StoppingWord = stopType(ch.FinishReason, ch.StopReason)
		}
	}
	if u := c.Usage; u != nil {
		st.last.TokensPredicted, st.last.TokensEvaluated = u.CompletionTokens, u.PromptTokens
		if u.PromptTokensDetails != nil {
			st.last.TokensCached = u.PromptTokensDetails.CachedTokens
		}
	}
	return nil
}

func (st *infillStream) annotate(annotation) error { return nil }

// end writes the last event, which says how the completion ended.
func (st *infillStream) end() error {
	st.last.Stop, st.last.Model = true, st.model
	return st.write(st.last)
}

func (st *infillStream) write(c llamacpp.Completion) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return st.w.Data(b)
}
