package server

import (
	"strings"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/toolparse"
)

// ollamaGen encodes the one sequence of an Ollama request: as objects
// sent one by one (send set), or gathered into one answer.
type ollamaGen struct {
	model        string
	chat         bool
	reqs         []runtime.Request
	parser       *toolparse.Parser
	send         func(any) error // nil: gather
	promptTokens int
	load         time.Duration // getting the model
	start        time.Time     // the request's arrival

	content, thinking strings.Builder
	calls             []ollama.ToolCall
	final             any // the last object, once the sequence ended
}

// event implements seqHandler.
func (g *ollamaGen) event(_ int, ev runtime.Event) error {
	return g.delta(g.parser.Feed(ev.Text))
}

// delta sends or gathers what the parser gave.
func (g *ollamaGen) delta(d toolparse.Delta) error {
	if d.Empty() {
		return nil
	}
	var calls []ollama.ToolCall
	for _, c := range d.Calls {
		calls = append(calls, ollama.ToolCall{Function: ollama.ToolCallFunction{Index: len(g.calls) + len(calls),
			Name: c.Name, Arguments: ollamaArguments(c.Arguments)}})
	}
	if g.send == nil {
		g.content.WriteString(d.Content)
		g.thinking.WriteString(d.Reasoning)
		g.calls = append(g.calls, calls...)
		return nil
	}
	g.calls = append(g.calls, calls...)
	return g.send(g.object(d.Content, d.Reasoning, calls, false, "", ollama.Metrics{}))
}

// object is one object of the answer.
func (g *ollamaGen) object(content, thinking string, calls []ollama.ToolCall, done bool, reason string, m ollama.Metrics) any {
	now := time.Now().UTC()
	if g.chat {
		return &ollama.ChatResponse{Model: g.model, CreatedAt: now, Done: done, DoneReason: reason, Metrics: m,
			Message: ollama.Message{Role: "assistant", Content: content, Thinking: thinking, ToolCalls: calls}}
	}
	return &ollama.GenerateResponse{Model: g.model, CreatedAt: now, Response: content, Thinking: thinking,
		Done: done, DoneReason: reason, Metrics: m}
}

// end implements seqHandler: the last object carries the reason and the
// counts and durations.
func (g *ollamaGen) end(_ int, res runtime.Result, err error) error {
	if err != nil {
		return err
	}
	if err := g.delta(g.parser.Flush()); err != nil {
		return err
	}
	reason := "stop"
	if res.Finish == runtime.FinishLength {
		reason = "length"
	}
	m := ollama.Metrics{TotalDuration: int64(time.Since(g.start)), LoadDuration: int64(g.load),
		PromptEvalCount: max(res.Usage.Prompt, g.promptTokens), PromptEvalDuration: int64(res.Timings.Prefill),
		EvalCount: res.Usage.Completion, EvalDuration: int64(res.Timings.Decode)}
	if g.send != nil {
		return g.send(g.object("", "", nil, true, reason, m))
	}
	g.final = g.object(g.content.String(), g.thinking.String(), g.calls, true, reason, m)
	return nil
}

// result is the gathered answer.
func (g *ollamaGen) result() any { return g.final }

// endsInThink reports whether a rendered prompt leaves a <think> block
// open, so that the output begins with reasoning.
func endsInThink(text string) bool {
	return strings.HasSuffix(strings.TrimRight(text, " \t\r\n"), toolparse.ThinkOpen)
}
