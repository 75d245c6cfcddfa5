package server

import (
	"context"
	"slices"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// chatGen is the chat completions encoder of a plan's stream: it turns
// the parsed output of each choice into chunks.
type chatGen struct {
	id, model, fingerprint string
	created                int64
	req                    *openai.ChatRequest
	st                     *genStream
	choices                []*chatChoice
	out                    delivery[openai.ChatCompletion]
	tokens                 *tokenTexts
	includeUsage           bool
	continuous             bool
	promptLP               openai.PromptLogprobs // prompt_logprobs, set by open
}

// chatChoice is the state of one choice.
type chatChoice struct {
	index      int
	started    bool
	calls      int
	pendingLP  []openai.TokenLogprob
	stopReason any // set at the end
}

func (g *chatGen) chunk(ch *chatChoice, delta *openai.ChatMessage) *openai.ChatCompletion {
	c := &openai.ChatCompletion{ID: g.id, Object: openai.ObjectChatChunk, Created: g.created, Model: g.model,
		SystemFingerprint: g.fingerprint, Choices: []openai.ChatChoice{{Index: ch.index, Delta: delta}}}
	if g.continuous {
		u := g.usage()
		c.Usage = &u
	}
	return c
}

// begin sends the first chunk of a choice, which carries the role.
func (g *chatGen) begin(ch *chatChoice) error {
	if ch.started {
		return nil
	}
	ch.started = true
	empty := ""
	return g.out.send(g.chunk(ch, &openai.ChatMessage{Role: openai.RoleAssistant, Content: &empty}))
}

// open implements generation: it measures the prompt's
// log-probabilities for prompt_logprobs.
func (g *chatGen) open(ctx context.Context, out delivery[openai.ChatCompletion]) error {
	g.out = out
	if err := g.st.open(ctx); err != nil {
		return err
	}
	if k := g.st.plan.promptLogprobs; k != nil {
		g.promptLP = g.tokens.promptLogprobs(g.st.promptLP, *k)
	}
	return nil
}

// encodeDelta implements encoder.
func (g *chatGen) encodeDelta(i int, d toolparse.Delta, ev runtime.Event) error {
	ch := g.choices[i]
	if err := g.begin(ch); err != nil {
		return err
	}
	if g.req.Logprobs {
		for _, lp := range ev.Logprobs {
			ch.pendingLP = append(ch.pendingLP, g.tokens.chatLogprob(lp))
		}
	}
	if err := g.delta(ch, d, nil); err != nil {
		return err
	}
	if g.req.Annotate(openai.AnnotationTokenIDs) && len(ev.Tokens) > 0 {
		return g.out.annotate(annotation{Index: ch.index, TokenIDs: ev.Tokens})
	}
	return nil
}

// delta sends what the parser gave, with the pending log-probabilities;
// finish ends the choice.
func (g *chatGen) delta(ch *chatChoice, d toolparse.Delta, finish *string) error {
	if d.Empty() && finish == nil {
		return nil
	}
	msg := &openai.ChatMessage{}
	if d.Content != "" {
		msg.Content = &d.Content
	}
	if d.Reasoning != "" {
		msg.ReasoningContent = &d.Reasoning
	}
	for _, call := range d.Calls {
		idx := ch.calls
		ch.calls++
		msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{Index: &idx, ID: newID("call_", 24), Type: "function",
			Function: openai.FunctionCall{Name: call.Name, Arguments: call.Arguments}})
	}
	c := g.chunk(ch, msg)
	if len(ch.pendingLP) > 0 {
		c.Choices[0].Logprobs = &openai.ChatLogprobs{Content: ch.pendingLP}
		ch.pendingLP = nil
	}
	if finish != nil {
		c.Choices[0].FinishReason, c.Choices[0].StopReason = finish, ch.stopReason
	}
	return g.out.send(c)
}

// encodeEnd implements encoder.
func (g *chatGen) encodeEnd(i int, res runtime.Result) error {
	ch := g.choices[i]
	reason := finishReason(res.Finish, ch.calls > 0)
	ch.stopReason = stopReason(res, g.st.reqs[0].Params.StopTokenIDs)
	if err := g.delta(ch, toolparse.Delta{}, &reason); err != nil {
		return err
	}
	if g.req.Annotate(openai.AnnotationTiming) {
		return g.out.annotate(annotation{Index: ch.index, Timing: timing(res)})
	}
	return nil
}

// encodeFinish implements encoder: the usage chunk after every choice
// ended.
func (g *chatGen) encodeFinish() error {
	if !g.includeUsage {
		return nil
	}
	u := g.usage()
	return g.out.send(&openai.ChatCompletion{ID: g.id, Object: openai.ObjectChatChunk, Created: g.created, Model: g.model,
		SystemFingerprint: g.fingerprint, Choices: []openai.ChatChoice{}, Usage: &u})
}

// usage counts the prompt once and the tokens of every choice so far.
func (g *chatGen) usage() openai.Usage {
	t := g.st.usage()
	return openai.Usage{PromptTokens: t.prompt, CompletionTokens: t.completion, TotalTokens: t.prompt + t.completion,
		PromptTokensDetails:     &openai.PromptTokensDetails{CachedTokens: t.cached},
		CompletionTokensDetails: &openai.CompletionTokensDetails{ReasoningTokens: t.reasoning}}
}

// finishReason maps the engine's reason to the API's.
func finishReason(f runtime.FinishReason, calledTools bool) string {
	switch {
	case f == runtime.FinishLength:
		return "length"
	case calledTools:
		return "tool_calls"
	}
	return "stop"
}

// stopReason is the stop string or stop token id (of stop_token_ids) that
// ended a sequence, as vLLM reports it; nil for EOS and the length limit.
func stopReason(res runtime.Result, stopIDs []int32) any {
	if res.StopString != "" {
		return res.StopString
	}
	if res.StopToken >= 0 && slices.Contains(stopIDs, res.StopToken) {
		return res.StopToken
	}
	return nil
}

func timing(res runtime.Result) *timingSummary {
	t := res.Timings
	ms := func(d interface{ Seconds() float64 }) float64 { return d.Seconds() * 1000 }
	return &timingSummary{QueueMS: ms(t.Queue), TTFTMS: ms(t.TTFT), PrefillMS: ms(t.Prefill), DecodeMS: ms(t.Decode),
		PrefillRate: t.PrefillRate(), DecodeRate: t.DecodeRate(), CachedTokens: res.Usage.Cached}
}

func (g *chatGen) requestID() string                            { return g.id }
func (g *chatGen) requests() []runtime.Request                  { return g.st.reqs }
func (g *chatGen) event(i int, ev runtime.Event) error          { return g.st.event(i, ev) }
func (g *chatGen) end(i int, r runtime.Result, err error) error { return g.st.end(i, r, err) }
func (g *chatGen) finish() error                                { return g.encodeFinish() }
