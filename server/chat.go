package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/constrain"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// handleChat serves POST /v1/chat/completions.
func (s *Server) handleChat(c *call) {
	req, perr := openai.ParseChat(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	serveGeneration(s, c, req.Model, req.Stream, func(ctx context.Context, m Model) (generation[openai.ChatCompletion], aggregator[openai.ChatCompletion], error) {
		g, err := s.newChatGen(ctx, m, req)
		return g, &chatAggregator{logprobs: req.Logprobs, gen: g}, chatNames.openai(err)
	})
}

// acquire gets the request's model and its id (the metrics label),
// watching the client while it loads. An unknown model is a 404 that says
// nothing of why: no file name, no hint of what exists on the disk.
func (s *Server) acquire(c *call, model string) (Model, string, func(), error) {
	m, id, release, err := s.acquireModel(c, model)
	if err != nil {
		return nil, "", nil, err
	}
	if a, ok := m.(Admitter); ok {
		ctx, stop := watchClient(s.base, c.rc.Conn())
		defer stop()
		place, err := a.Reserve(ctx)
		if err != nil {
			release()
			return nil, "", nil, err
		}
		c.place = place
		unload := release
		release = func() {
			place.Release()
			unload()
		}
	}
	return m, id, release, nil
}

// acquireModel is acquire without the queue place, for requests that do
// not generate.
func (s *Server) acquireModel(c *call, model string) (Model, string, func(), error) {
	ctx, stop := watchClient(s.base, c.rc.Conn())
	defer stop()
	if rm, ok := s.upstreamModel(ctx, model); ok {
		return rm, model, func() {}, nil
	}
	id, err := s.models.resolve(model)
	if err != nil {
		return nil, "", nil, modelNotFound(model, err)
	}
	m, release, err := s.models.acquire(ctx, id, false)
	if err != nil {
		return nil, "", nil, modelNotFound(model, err)
	}
	return m, id, release, nil
}

// modelNotFound turns an error wrapping runtime.ErrModelNotFound into the
// 404 of model; other errors pass.
func modelNotFound(model string, err error) error {
	if !errors.Is(err, runtime.ErrModelNotFound) {
		return err
	}
	nf := openai.NotFound(model)
	nf.Message += " GET /v1/models lists the models this server loads."
	return nf
}

// newChatGen prepares the plan of a request, with the chat completions
// encoder of its stream.
func (s *Server) newChatGen(ctx context.Context, m Model, req *openai.ChatRequest) (*chatGen, error) {
	g := &chatGen{id: newID("chatcmpl-", 29), created: time.Now().Unix(), model: req.Model, fingerprint: s.opt.Fingerprint,
		req: req, tokens: newTokenTexts(m)}
	st, err := s.prepare(ctx, m, chatPlan(req), g)
	if err != nil {
		return nil, err
	}
	g.st = st
	for i := range st.choices {
		g.choices = append(g.choices, &chatChoice{index: i})
	}
	g.includeUsage = !req.Stream || (req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
	g.continuous = req.Stream && req.StreamOptions != nil && req.StreamOptions.ContinuousUsageStats
	return g, nil
}

// parseOptions returns the options of the parser of an output that
// follows the prompt text (with the schemas of the tools spec may call),
// and sets how a constrained output may begin with reasoning.
func parseOptions(text string, format toolparse.Format, kwargs map[string]any, spec *constrain.Spec) toolparse.Options {
	popt := toolparse.Options{Format: format, Reasoning: true,
		InReasoning: strings.HasSuffix(strings.TrimRight(text, " \t\r\n"), toolparse.ThinkOpen), Schemas: toolSchemas(spec.Tools)}
	spec.Think = thinkMode(popt.InReasoning, kwargs)
	if format == toolparse.FormatHarmony {
		// A Harmony model reasons in its analysis channel before any
		// answer, whatever enable_thinking says.
		spec.Syntax, spec.Think = format, constrain.ThinkOptional
	}
	return popt
}

// toolSyntax is the tool call syntax to parse (and force) under a
// tool_choice mode: the template's, Hermes when the template teaches none,
// and none when tools are off, except for Harmony, which is the syntax of
// every answer (its channels hold the reasoning and the text).
func toolSyntax(mode string, template toolparse.Format) toolparse.Format {
	switch {
	case template == toolparse.FormatHarmony:
		return template
	case mode == openai.ToolChoiceNone:
		return toolparse.FormatNone
	case template == toolparse.FormatNone:
		return toolparse.FormatHermes
	}
	return template
}

// truncate applies truncate_prompt_tokens (keep the last k tokens; -1:
// as many as the context holds with room for one token) and checks that
// the prompt, the plan parameter key, fits the context.
func truncate(ids []int32, k *int, ctxLen int, key string) ([]int32, error) {
	if k != nil {
		keep := *k
		if keep == -1 {
			keep = ctxLen - 1
		}
		if keep > 0 && len(ids) > keep {
			ids = ids[len(ids)-keep:]
		}
	}
	if len(ids) == 0 {
		return nil, planErr(key, openai.CodeInvalidValue, "The prompt is empty: it has no tokens.")
	}
	if ctxLen > 0 && len(ids) >= ctxLen {
		return nil, planErr(key, openai.CodeContextLength,
			"This model's maximum context length is %d tokens. However, your prompt has %d tokens, which leaves no room for the answer.",
			ctxLen, len(ids))
	}
	return ids, nil
}

// templateMessage converts a request message for the chat template.
func templateMessage(m openai.Message) ChatMessage {
	out := ChatMessage{Role: m.Role, Content: m.Content, Name: m.Name, ToolCallID: m.ToolCallID, ReasoningContent: m.ReasoningContent}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, TemplateToolCall{ID: tc.ID, Type: "function",
			Function: TemplateFunctionCall{Name: tc.Function.Name, Arguments: jsonText(tc.Function.Arguments)}})
	}
	return out
}

// harmonyThinking gives a message's reasoning to a Harmony template,
// which reads it from "thinking" and keeps it (as the analysis before a
// tool call) only while the call awaits its answer. Such a template
// refuses a tool call message with both content and thinking; the
// reasoning is what it wants there, so the content is left out.
func harmonyThinking(m *ChatMessage) {
	if m.ReasoningContent == "" {
		return
	}
	m.Thinking = m.ReasoningContent
	if len(m.ToolCalls) > 0 {
		m.Content = ""
	}
}

// jsonText is text as a JSON value: itself when it is JSON, else a JSON
// string that holds it.
func jsonText(text string) json.RawMessage {
	if json.Valid([]byte(text)) {
		return json.RawMessage(text)
	}
	b, _ := json.Marshal(text) // a string always encodes
	return b
}

// jsonObject encodes v, a JSON object of a request (a tool), for a
// template; nil when it does not encode.
func jsonObject(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// toolDecl is the declaration of a function tool as chat templates take
// it: {"type": "function", "function": {name, description, parameters}}.
func toolDecl(name, description string, parameters json.RawMessage, strict *bool) json.RawMessage {
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters,omitempty"`
		Strict      *bool           `json:"strict,omitempty"`
	}
	return jsonObject(struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}{"function", function{name, description, parameters, strict}})
}
