package server

import (
	"context"
	"errors"
	"slices"

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
	prompts [][]int32 // one, or a completions request's
	// perPrompt is the number of choices of each prompt: choice i belongs
	// to prompt i/perPrompt.
	perPrompt int
	reqs      []runtime.Request
	choices   []*choiceState
	cached    int // prompt tokens read from the cache
	// promptLP are the log-probabilities of the prompt's tokens (the
	// first nil), measured by open when the plan asks for them.
	promptLP []*runtime.Logprob
	// remote is set when an upstream generates: it counts the prompt's
	// tokens (there are no ids here) and parses the output.
	remote       bool
	remotePrompt int
}

// outputParser splits the text of one choice into content, reasoning and
// tool calls: a toolparse.Parser, or an upstream that did it already.
type outputParser interface {
	Feed(text string) toolparse.Delta
	Flush() toolparse.Delta
	InReasoning() bool
}

// choiceState is what the stream knows of one choice.
type choiceState struct {
	parser     outputParser // nil: the text is taken as it is
	completion int          // tokens generated
	reasoning  int          // of which reasoning
	calls      int          // tool calls parsed
	// ids are the tokens generated, kept under a thinking budget to go
	// on after it.
	ids []int32
}

// open measures the prompt's log-probabilities when the plan asks for
// them, before the choices run.
func (st *genStream) open(ctx context.Context) error {
	k := st.plan.promptLogprobs
	if k == nil {
		return nil
	}
	var err error
	st.promptLP, err = scorePrompt(ctx, st.m, st.prompts[0], *k)
	return err
}

// run opens the stream, generates its choices with r and finishes the
// answer.
func (st *genStream) run(ctx context.Context, r *runner) error {
	if err := st.open(ctx); err != nil {
		return err
	}
	err := r.run(ctx, st.reqs, st)
	if errors.Is(err, errThinkingBudget) {
		err = st.closeThinking(ctx, r)
	}
	if err != nil {
		return err
	}
	return st.enc.encodeFinish()
}

// event implements seqHandler.
func (st *genStream) event(i int, ev runtime.Event) error {
	ch := st.choices[i]
	ch.completion += len(ev.Tokens)
	if ch.parser == nil {
		return st.enc.encodeDelta(i, toolparse.Delta{Content: ev.Text}, ev)
	}
	was := ch.parser.InReasoning()
	d := ch.parser.Feed(ev.Text)
	if was || ch.parser.InReasoning() {
		ch.reasoning += len(ev.Tokens)
	}
	ch.calls += len(d.Calls)
	if err := st.enc.encodeDelta(i, d, ev); err != nil {
		return err
	}
	if budget := st.plan.thinkBudget; budget > 0 && len(st.reqs) == 1 {
		ch.ids = append(ch.ids, ev.Tokens...)
		if ch.parser.InReasoning() && ch.reasoning >= budget {
			return errThinkingBudget
		}
	}
	return nil
}

// errThinkingBudget stops a sequence whose reasoning spent its budget.
var errThinkingBudget = errors.New("the thinking budget is spent")

// closeThinking goes on with the one choice whose reasoning spent the
// plan's budget, as llama-server does: the reasoning's end marker
// (</think>, or Harmony's switch to the final channel) follows as if
// generated, and generation resumes after it, from a prompt that holds
// what came before (the prefix cache has it), within what max_tokens and
// the context leave.
func (st *genStream) closeThinking(ctx context.Context, r *runner) error {
	ch := st.choices[0]
	end := "\n" + toolparse.ThinkClose + "\n\n"
	if st.m.Info().ToolFormat == toolparse.FormatHarmony {
		end = toolparse.HarmonyEnd + toolparse.HarmonyStart + "assistant" + toolparse.HarmonyChannel + "final" + toolparse.HarmonyMessage
	}
	ids := st.m.Tokenize(end, false)
	if err := st.event(0, runtime.Event{Tokens: ids, Text: end}); err != nil && !errors.Is(err, errThinkingBudget) {
		return err
	}
	req := st.reqs[0]
	req.Prompt = slices.Concat(req.Prompt, ch.ids)
	ch.ids = nil
	st.plan.thinkBudget = 0
	left := req.Params.MaxTokens - ch.completion // when max_tokens is set (> 0)
	if ctxLen := st.m.Info().Context; (req.Params.MaxTokens > 0 && left <= 0) || (ctxLen > 0 && len(req.Prompt) >= ctxLen) {
		return st.end(0, runtime.Result{Finish: runtime.FinishLength}, nil)
	}
	if req.Params.MaxTokens > 0 {
		req.Params.MaxTokens = left
	}
	return r.run(ctx, []runtime.Request{req}, st)
}

// end implements seqHandler.
func (st *genStream) end(i int, res runtime.Result, err error) error {
	if err != nil {
		return err
	}
	if len(res.Beams) > 0 {
		// Request i is the beam search of prompt i.
		return fanBeams(res, st.perPrompt, func(k int, ev runtime.Event, r runtime.Result) error {
			if err := st.event(i*st.perPrompt+k, ev); err != nil {
				return err
			}
			return st.end(i*st.perPrompt+k, r, nil)
		})
	}
	ch := st.choices[i]
	var d toolparse.Delta
	if ch.parser != nil {
		d = ch.parser.Flush()
		ch.calls += len(d.Calls)
	}
	if err := st.enc.encodeDelta(i, d, runtime.Event{}); err != nil {
		return err
	}
	if i == 0 && st.remote {
		st.remotePrompt, st.cached = res.Usage.Prompt, res.Usage.Cached
	} else if i == 0 {
		// After a thinking budget the cache also holds the first part.
		st.cached = min(res.Usage.Cached, len(st.prompts[0]))
	}
	// The stop token counts as generated (as OpenAI counts it).
	ch.completion = max(ch.completion, res.Usage.Completion)
	return st.enc.encodeEnd(i, res)
}

// usage is the token counts so far: each prompt once, and every choice's
// tokens.
func (st *genStream) usage() tokenUsage {
	u := tokenUsage{cached: st.cached}
	for _, ids := range st.prompts {
		u.prompt += len(ids)
	}
	u.prompt = max(u.prompt, st.remotePrompt)
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
