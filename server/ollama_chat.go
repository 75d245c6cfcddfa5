package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/constrain"
	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// ollamaPlan is what an Ollama chat or generate request asks for, decoded
// once from its wire format.
type ollamaPlan struct {
	model   string
	chat    bool          // /api/chat (else /api/generate)
	msgs    []ChatMessage // rendered with the chat template
	raw     string        // the prompt as is (generate with raw)
	isRaw   bool
	tools   []ollama.Tool
	options ollama.Options
	ollama.Decoded
}

// handleOllamaChat serves POST /api/chat.
func (s *Server) handleOllamaChat(c *call) {
	req, d, err := ollama.DecodeChat(c.rc.PostBody())
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	p := &ollamaPlan{model: req.Model, chat: true, tools: req.Tools, options: req.Options, Decoded: d}
	for _, m := range req.Messages {
		p.msgs = append(p.msgs, ollamaMessage(m))
	}
	s.serveOllama(c, p)
}

// handleOllamaGenerate serves POST /api/generate.
func (s *Server) handleOllamaGenerate(c *call) {
	req, d, err := ollama.DecodeGenerate(c.rc.PostBody())
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	p := &ollamaPlan{model: req.Model, options: req.Options, Decoded: d, raw: req.Prompt, isRaw: req.Raw}
	if req.System != "" {
		p.msgs = append(p.msgs, ChatMessage{Role: "system", Content: req.System})
	}
	p.msgs = append(p.msgs, ChatMessage{Role: "user", Content: req.Prompt})
	if req.Prompt == "" {
		s.loadOnly(c, req.Model, d.KeepAlive)
		return
	}
	s.serveOllama(c, p)
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

// serveOllama prepares and runs a chat or generate plan.
func (s *Server) serveOllama(c *call, p *ollamaPlan) {
	began := time.Now()
	m, id, release, err := s.acquire(c, p.model)
	if err != nil {
		writeOllamaError(c.rc, ollamaNotFound(p.model, err))
		return
	}
	s.keepAlive(id, p.KeepAlive)
	g, err := s.newOllamaGen(m, p)
	if err != nil {
		release()
		writeOllamaError(c.rc, err)
		return
	}
	g.load, g.start = time.Since(began), c.start
	r := s.newRunner(c, m, id)
	if !p.Stream {
		respondOllamaJSON(s, c, release, func(ctx context.Context) error { return r.run(ctx, g.reqs, g) }, g.result)
		return
	}
	streamNDJSON(s, c, release, func(ctx context.Context, send func(any) error) error {
		g.send = send
		return r.run(ctx, g.reqs, g)
	})
}

// newOllamaGen renders the prompt of p and prepares its sequence.
func (s *Server) newOllamaGen(m Model, p *ollamaPlan) (*ollamaGen, error) {
	info := m.Info()
	mode := openai.ToolChoiceNone
	if len(p.tools) > 0 {
		mode = openai.ToolChoiceAuto
	}
	format := toolSyntax(mode, info.ToolFormat)
	spec := constrain.Spec{JSON: p.Format.JSON, Schema: p.Format.Schema}
	if len(p.tools) > 0 {
		spec.Calls, spec.MaxCalls, spec.Syntax = constrain.CallsOptional, maxForcedCalls, format
		for _, t := range p.tools {
			spec.Tools = append(spec.Tools, constrain.Tool{Name: t.Function.Name, Parameters: t.Function.Parameters})
		}
	}
	kwargs := thinkingKwargs(ollamaKwargs(p.Think), !spec.Empty())
	text, err := p.prompt(m, kwargs)
	if err != nil {
		return nil, err
	}
	ctxLen := info.Context
	if n := p.options.NumCtx; n != nil && (ctxLen == 0 || *n < ctxLen) {
		ctxLen = *n
	}
	ids, err := truncate(m.EncodePrompt(text), nil, ctxLen, "messages")
	if err != nil {
		return nil, err
	}
	params, err := ollamaParams(p.options, info, ctxLen-len(ids))
	if err != nil {
		return nil, err
	}
	popt := toolparse.Options{Format: format, Reasoning: true, InReasoning: endsInThink(text), Schemas: toolSchemas(spec.Tools)}
	spec.Think = thinkMode(popt.InReasoning, kwargs)
	if format == toolparse.FormatHarmony {
		spec.Syntax, spec.Think = format, constrain.ThinkOptional
	}
	constraint, err := s.compileSpec(&spec, nil, nil)
	if err != nil {
		return nil, err
	}
	keep := format.SpecialMarkers()
	g := &ollamaGen{model: p.model, chat: p.chat, parser: toolparse.New(popt), promptTokens: len(ids)}
	g.reqs = []runtime.Request{{Prompt: ids, Params: params, KeepSpecial: keep, Constraint: constraint}}
	return g, nil
}

// prompt renders the plan's messages, or returns its raw prompt.
func (p *ollamaPlan) prompt(m Model, kwargs map[string]any) (string, error) {
	if p.isRaw {
		return p.raw, nil
	}
	opt := ChatOptions{AddGenerationPrompt: true, Kwargs: kwargs}
	for _, t := range p.tools {
		if t.Type == "" {
			t.Type = "function"
		}
		opt.Tools = append(opt.Tools, jsonObject(t))
	}
	msgs := p.msgs
	if m.Info().ToolFormat == toolparse.FormatHarmony {
		msgs = append([]ChatMessage(nil), msgs...)
		for i := range msgs {
			harmonyThinking(&msgs[i])
		}
	}
	text, err := m.RenderChat(inlineToolResponses(m.Info(), msgs), opt)
	if err != nil {
		return "", &ollama.BadRequest{Msg: "the chat template of the model failed on these messages: " + err.Error()}
	}
	return text, nil
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

// ollamaParams are the sampling parameters of options over the model's
// defaults; room is how many tokens the context has left.
func ollamaParams(o ollama.Options, info ModelInfo, room int) (sample.Params, error) {
	p := modelDefaults(info)
	setF(&p.Temperature, o.Temperature)
	setF(&p.TopP, o.TopP)
	setF(&p.MinP, o.MinP)
	setF(&p.TypicalP, o.TypicalP)
	setF(&p.RepetitionPenalty, o.RepeatPenalty)
	setF(&p.PresencePenalty, o.PresencePenalty)
	setF(&p.FrequencyPenalty, o.FrequencyPenalty)
	if o.TopK != nil {
		p.TopK = max(*o.TopK, 0)
	}
	if o.Seed != nil {
		seed := *o.Seed
		p.Seed = &seed
	}
	p.Stop = o.Stop
	if n := o.NumPredict; n != nil && *n >= 0 {
		p.MaxTokens = *n
		if *n == 0 {
			p.MaxTokens = 1 // the fewest the engine generates
		}
	}
	if room > 0 && (p.MaxTokens == 0 || p.MaxTokens > room) {
		p.MaxTokens = room
	}
	if err := p.Validate(); err != nil {
		var pe *sample.ParamError
		if errors.As(err, &pe) {
			return p, &ollama.BadRequest{Msg: "invalid option " + pe.Param + ": " + pe.Msg}
		}
		return p, &ollama.BadRequest{Msg: err.Error()}
	}
	return p, nil
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
