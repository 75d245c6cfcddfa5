package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/openai"
)

// handleOllamaChat serves POST /api/chat.
func (s *Server) handleOllamaChat(c *call) {
	req, d, err := ollama.DecodeChat(c.rc.PostBody())
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	p := ollamaPlan(req.Options, d, req.Tools)
	for _, m := range req.Messages {
		p.msgs = append(p.msgs, ollamaMessage(m))
	}
	s.serveOllama(c, req.Model, true, d, p)
}

// handleOllamaGenerate serves POST /api/generate.
func (s *Server) handleOllamaGenerate(c *call) {
	req, d, err := ollama.DecodeGenerate(c.rc.PostBody())
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	if req.Prompt == "" {
		s.loadOnly(c, req.Model, d.KeepAlive)
		return
	}
	p := ollamaPlan(req.Options, d, nil)
	if req.System != "" {
		p.msgs = append(p.msgs, ChatMessage{Role: "system", Content: req.System})
	}
	p.msgs = append(p.msgs, ChatMessage{Role: "user", Content: req.Prompt})
	if req.Raw {
		p.raw = &req.Prompt
	}
	if req.Suffix != "" {
		// Code completion (Continue, and other editors): the text
		// between the prompt and the suffix.
		p.fill, p.mergeReasoning = &fimInput{prefix: req.Prompt, suffix: req.Suffix, param: "suffix"}, true
	}
	s.serveOllama(c, req.Model, false, d, p)
}

// ollamaPlan decodes what Ollama's chat and generate requests share into
// a plan: the options, the format, think, and the tools (called when the
// model wants).
func ollamaPlan(o ollama.Options, d ollama.Decoded, tools []ollama.Tool) *plan {
	p := &plan{render: ChatOptions{AddGenerationPrompt: true}, kwargs: ollamaKwargs(d.Think), choice: openai.ToolChoiceNone,
		parallel: true, numCtx: o.NumCtx, fillContext: true, format: outputFormat{json: d.Format.JSON, schema: d.Format.Schema},
		sampling: samplingPlan{temperature: o.Temperature, topP: o.TopP, minP: o.MinP, typicalP: o.TypicalP,
			repetitionPenalty: o.RepeatPenalty, presence: o.PresencePenalty, frequency: o.FrequencyPenalty,
			topK: o.TopK, seed: o.Seed, stop: o.Stop}}
	if n := o.NumPredict; n != nil && *n >= 0 {
		p.sampling.maxTokens = max(*n, 1) // 0 asks for the fewest the engine generates
	}
	if len(tools) > 0 {
		p.choice = openai.ToolChoiceAuto
	}
	for _, t := range tools {
		if t.Type == "" {
			t.Type = "function"
		}
		p.tools = append(p.tools, planTool{name: t.Function.Name, params: t.Function.Parameters, decl: jsonObject(t)})
	}
	return p
}

// loadOnly answers a generate request without a prompt, which loads the
// model, as Ollama does; with keep_alive 0 it unloads it ("ollama stop").
func (s *Server) loadOnly(c *call, model string, keep *time.Duration) {
	_, id, release, err := s.acquire(c, model)
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	s.keepAlive(id, keep)
	release()
	reason := "load"
	if keep != nil && *keep == 0 {
		reason = "unload"
	}
	writeJSON(c.rc, http.StatusOK, ollama.GenerateResponse{Model: model, CreatedAt: time.Now().UTC(), Done: true, DoneReason: reason})
}

// keepAlive applies a request's keep_alive (nil: the server's) to the
// model id: how long it stays loaded once idle.
func (s *Server) keepAlive(id string, keep *time.Duration) {
	if keep != nil {
		s.models.setKeepAlive(id, *keep)
	}
}

// ollamaMessage converts a message for the chat template.
func ollamaMessage(m ollama.Message) ChatMessage {
	out := ChatMessage{Role: m.Role, Content: m.Content, ReasoningContent: m.Thinking, Name: m.ToolName}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, TemplateToolCall{Type: "function",
			Function: TemplateFunctionCall{Name: tc.Function.Name, Arguments: jsonObject(tc.Function.Arguments)}})
	}
	return out
}

// serveOllama prepares and runs the plan of a chat or generate request.
func (s *Server) serveOllama(c *call, model string, chat bool, d ollama.Decoded, p *plan) {
	began := time.Now()
	m, id, release, err := s.acquire(c, model)
	if err != nil {
		writeOllamaError(c.rc, ollamaNotFound(model, err))
		return
	}
	s.keepAlive(id, d.KeepAlive)
	g := &ollamaGen{model: model, chat: chat, start: c.start}
	ctx, stop := watchClient(s.base, c.rc.Conn())
	g.st, err = s.prepare(ctx, m, p, g)
	stop()
	if err != nil {
		release()
		writeOllamaError(c.rc, err)
		return
	}
	g.load = time.Since(began)
	r := s.newRunner(c, m, id)
	if !d.Stream {
		respondWhole(s, c, release, func(ctx context.Context) error { return g.st.run(ctx, r) }, g.result, writeOllamaError)
		return
	}
	streamNDJSON(s, c, release, func(ctx context.Context, send func(any) error) error {
		g.send = send
		return g.st.run(ctx, r)
	})
}

// ollamaKwargs are the template variables of think.
func ollamaKwargs(t ollama.Think) map[string]any {
	if !t.Set {
		return nil
	}
	kw := map[string]any{"enable_thinking": t.On}
	if t.Effort != "" {
		kw["reasoning_effort"] = t.Effort
	}
	return kw
}

// ollamaArguments turns a tool call's JSON text into the object Ollama
// sends; text that is no JSON object becomes an empty object.
func ollamaArguments(text string) map[string]any {
	var args map[string]any
	if json.Unmarshal([]byte(text), &args) != nil || args == nil {
		args = map[string]any{}
	}
	return args
}
