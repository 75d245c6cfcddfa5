package server

import (
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

func (g *completionGen) chunk(i int, text string, lp *openai.CompletionLogprobs, finish *string) *openai.Completion {
	c := &openai.Completion{ID: g.id, Object: openai.ObjectCompletion, Created: g.created, Model: g.model, SystemFingerprint: g.fingerprint,
		Choices: []openai.CompletionChoice{{Index: i, Text: text, Logprobs: lp, FinishReason: finish}}}
	if g.continuous {
		u := g.usage()
		c.Usage = &u
	}
	return c
}

// begin sends the echoed prompt of sequence i before its first token.
func (g *completionGen) begin(i int) error {
	sq := g.seqs[i]
	if sq.started {
		return nil
	}
	sq.started = true
	if !g.req.Echo {
		return nil
	}
	cp := g.prompts[sq.prompt]
	var lp *openai.CompletionLogprobs
	if g.req.Logprobs != nil {
		lp = g.tokens.completionLogprobs(cp.ids, trimTop(cp.logprobs, *g.req.Logprobs), 0)
	}
	sq.offset = len(cp.text)
	return g.out.send(g.chunk(i, cp.text, lp, nil))
}

// encodeDelta implements encoder: the stream gives a completion's text
// as it is.
func (g *completionGen) encodeDelta(i int, _ toolparse.Delta, ev runtime.Event) error {
	sq := g.seqs[i]
	if err := g.begin(i); err != nil {
		return err
	}
	var lp *openai.CompletionLogprobs
	if len(ev.Logprobs) > 0 {
		lps := make([]*runtime.Logprob, len(ev.Logprobs))
		ids := make([]int32, len(ev.Logprobs))
		for k := range ev.Logprobs {
			lps[k], ids[k] = &ev.Logprobs[k], ev.Logprobs[k].ID
			sq.score += float64(ev.Logprobs[k].Logprob)
		}
		lp = g.tokens.completionLogprobs(ids, lps, sq.offset)
	}
	sq.offset += len(ev.Text)
	if ev.Text == "" && lp == nil {
		return nil
	}
	if err := g.out.send(g.chunk(i, ev.Text, lp, nil)); err != nil {
		return err
	}
	if g.req.Annotate(openai.AnnotationTokenIDs) && len(ev.Tokens) > 0 {
		return g.out.annotate(annotation{Index: i, TokenIDs: ev.Tokens})
	}
	return nil
}

// encodeEnd implements encoder.
func (g *completionGen) encodeEnd(i int, res runtime.Result) error {
	sq := g.seqs[i]
	sq.score += float64(res.StopLogprob) // the stop token counts in the cumulative logprob
	reason := finishReason(res.Finish, false)
	sq.finish = &reason
	c := g.chunk(i, "", nil, &reason)
	c.Choices[0].StopReason = stopReason(res, g.st.reqs[0].Params.StopTokenIDs)
	if err := g.out.send(c); err != nil {
		return err
	}
	if g.req.Annotate(openai.AnnotationTiming) {
		return g.out.annotate(annotation{Index: i, Timing: timing(res)})
	}
	return nil
}

// encodeFinish implements encoder: the usage chunk after every sequence
// ended.
func (g *completionGen) encodeFinish() error {
	if !g.includeUsage {
		return nil
	}
	u := g.usage()
	return g.out.send(&openai.Completion{ID: g.id, Object: openai.ObjectCompletion, Created: g.created, Model: g.model,
		SystemFingerprint: g.fingerprint, Choices: []openai.CompletionChoice{}, Usage: &u})
}

// usage counts each prompt once and every sequence's tokens.
func (g *completionGen) usage() openai.Usage {
	t := g.st.usage()
	return openai.Usage{PromptTokens: t.prompt, CompletionTokens: t.completion, TotalTokens: t.prompt + t.completion,
		PromptTokensDetails: &openai.PromptTokensDetails{CachedTokens: t.cached}}
}

func (g *completionGen) requestID() string                            { return g.id }
func (g *completionGen) requests() []runtime.Request                  { return g.st.reqs }
func (g *completionGen) event(i int, ev runtime.Event) error          { return g.st.event(i, ev) }
func (g *completionGen) end(i int, r runtime.Result, err error) error { return g.st.end(i, r, err) }
func (g *completionGen) finish() error                                { return g.encodeFinish() }
