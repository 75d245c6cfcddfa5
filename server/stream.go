package server

import (
	"context"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/toolparse"
)

// encoder writes the parsed output of a plan's choices in one API's
// shape: chunks, events, objects, or the whole answer at the end.
type encoder interface {
	// encodeDelta takes what the parser of choice i made of the text of
	// ev, which also carries its tokens and log-probabilities; at the end
	// of the choice, what the parser still held, with an empty event.
	encodeDelta(i int, d toolparse.Delta, ev runtime.Event) error
	// encodeEnd takes the result of choice i, after its last delta.
	encodeEnd(i int, res runtime.Result) error
	// encodeFinish ends the answer once every choice ended.
	encodeFinish() error
}

// genStream is the one generation stream of a plan, whatever its API:
// the engine generates its choices, each event's text goes through the
// choice's output parser (reasoning, tool calls), the tokens are counted,
// and the encoder of the API writes the result.
type genStream struct {
	m       Model
	plan    *plan
	enc     encoder
	prompt  []int32
	reqs    []runtime.Request
	choices []*choiceState
	cached  int // prompt tokens read from the cache
	// promptLP are the log-probabilities of the prompt's tokens (the
	// first nil), measured by open when the plan asks for them.
	promptLP []*runtime.Logprob
}

// choiceState is what the stream knows of one choice.
type choiceState struct {
	parser     *toolparse.Parser
	completion int // tokens generated
	reasoning  int // of which reasoning
	calls      int // tool calls parsed
}

// open measures the prompt's log-probabilities when the plan asks for
// them, before the choices run.
func (st *genStream) open(ctx context.Context) error {
	k := st.plan.promptLogprobs
	if k == nil {
		return nil
	}
	var err error
	st.promptLP, err = scorePrompt(ctx, st.m, st.prompt, *k)
	return err
}

// run opens the stream, generates its choices with r and finishes the
// answer.
func (st *genStream) run(ctx context.Context, r *runner) error {
	if err := st.open(ctx); err != nil {
		return err
	}
	if err := r.run(ctx, st.reqs, st); err != nil {
		return err
	}
	return st.enc.encodeFinish()
}

// event implements seqHandler.
func (st *genStream) event(i int, ev runtime.Event) error {
	ch := st.choices[i]
	was := ch.parser.InReasoning()
	d := ch.parser.Feed(ev.Text)
	ch.completion += len(ev.Tokens)
	if was || ch.parser.InReasoning() {
		ch.reasoning += len(ev.Tokens)
	}
	ch.calls += len(d.Calls)
	return st.enc.encodeDelta(i, d, ev)
}

// end implements seqHandler.
func (st *genStream) end(i int, res runtime.Result, err error) error {
	if err != nil {
		return err
	}
	if len(res.Beams) > 0 {
		return fanBeams(res, len(st.choices), func(k int, ev runtime.Event, r runtime.Result) error {
			if err := st.event(k, ev); err != nil {
				return err
			}
			return st.end(k, r, nil)
		})
	}
	ch := st.choices[i]
	d := ch.parser.Flush()
	ch.calls += len(d.Calls)
	if err := st.enc.encodeDelta(i, d, runtime.Event{}); err != nil {
		return err
	}
	if i == 0 {
		st.cached = res.Usage.Cached
	}
	// The stop token counts as generated (as OpenAI counts it).
	ch.completion = max(ch.completion, res.Usage.Completion)
	return st.enc.encodeEnd(i, res)
}

// usage is the token counts so far: the prompt once, and every choice's
// tokens.
func (st *genStream) usage() tokenUsage {
	u := tokenUsage{prompt: len(st.prompt), cached: st.cached}
	for _, ch := range st.choices {
		u.completion += ch.completion
		u.reasoning += ch.reasoning
	}
	return u
}

// tokenUsage counts the tokens of an answer.
type tokenUsage struct {
	prompt, cached, completion, reasoning int
}
