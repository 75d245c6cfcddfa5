package server

import (
	"strings"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/toolparse"
)

// ollamaGen is the Ollama encoder of a plan's stream: objects sent one
// by one (send set), or gathered into one answer.
type ollamaGen struct {
	model string
	chat  bool
	st    *genStream
	send  func(any) error // nil: gather
	load  time.Duration   // getting the model
	start time.Time       // the request's arrival

	content, thinking strings.Builder
	calls             []ollama.ToolCall
	final             any // the last object, once the sequence ended
}

// encodeDelta implements encoder: it sends or gathers what the parser
// gave.
func (g *ollamaGen) encodeDelta(_ int, d toolparse.Delta, _ runtime.Event) error {
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

// encodeEnd implements encoder: the last object carries the reason and
// the counts and durations.
func (g *ollamaGen) encodeEnd(_ int, res runtime.Result) error {
	reason := "stop"
	if res.Finish == runtime.FinishLength {
		reason = "length"
	}
	m := ollama.Metrics{TotalDuration: int64(time.Since(g.start)), LoadDuration: int64(g.load),
		PromptEvalCount: max(res.Usage.Prompt, g.st.usage().prompt), PromptEvalDuration: int64(res.Timings.Prefill),
		EvalCount: res.Usage.Completion, EvalDuration: int64(res.Timings.Decode)}
	if g.send != nil {
		return g.send(g.object("", "", nil, true, reason, m))
	}
	g.final = g.object(g.content.String(), g.thinking.String(), g.calls, true, reason, m)
	return nil
}

// encodeFinish implements encoder: encodeEnd made the last object.
func (g *ollamaGen) encodeFinish() error { return nil }

// result is the gathered answer.
func (g *ollamaGen) result() any { return g.final }
