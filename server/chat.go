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
	serveGeneration(s, c, req.Model, req.Stream, func(m Model) (generation[openai.ChatCompletion], aggregator[openai.ChatCompletion], error) {
		g, err := s.newChatGen(m, req)
		return g, &chatAggregator{logprobs: req.Logprobs, gen: g}, err
	})
}

// open implements generation: it measures the prompt's
// log-probabilities for prompt_logprobs.
func (g *chatGen) open(ctx context.Context, out delivery[openai.ChatCompletion]) error {
	g.out = out
	if k := g.req.PromptLogprobs; k != nil {
		lps, err := scorePrompt(ctx, g.m, g.reqs[0].Prompt, *k)
		if err != nil {
			return err
		}
		g.promptLP = g.tokens.promptLogprobs(lps, *k)
	}
	return nil
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
	id, err := s.models.resolve(model)
	if err != nil {
		return nil, "", nil, modelNotFound(model, err)
	}
	ctx, stop := watchClient(s.base, c.rc.Conn())
	defer stop()
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

// newChatGen renders the prompt and prepares the sequences of a request.
func (s *Server) newChatGen(m Model, req *openai.ChatRequest) (*chatGen, error) {
	info := m.Info()
	if err := checkScorer(m, &req.Ext); err != nil {
		return nil, err
	}
	cp, err := renderChatRequest(m, req)
	if err != nil {
		return nil, err
	}
	format, spec, kwargs, text := cp.format, cp.spec, cp.kwargs, cp.text
	ids := m.EncodePrompt(text)
	if ids, err = truncate(ids, req.TruncatePromptTokens, info.Context, "messages"); err != nil {
		return nil, err
	}
	p, err := params(sampling{common: &req.Sampling, ext: &req.Ext, maxTokens: req.Limit(),
		logprobs: req.Logprobs, topLogprobs: req.TopLogprobCount()}, info)
	if err != nil {
		return nil, err
	}
	popt := parseOptions(text, format, kwargs, &spec)
	popt.Reasoning = openai.Flag(req.SeparateReasoning, true)
	constraint, err := s.compileSpec(&spec, req.ResponseFormat, req.Tools)
	if err != nil {
		return nil, err
	}
	keepSpecial := !openai.Flag(req.SkipSpecialTokens, true) || format.SpecialMarkers()
	n := req.Choices()
	g := &chatGen{id: newID("chatcmpl-", 29), created: time.Now().Unix(), model: req.Model, fingerprint: s.opt.Fingerprint,
		m: m, req: req, promptTokens: len(ids), tokens: newTokenTexts(m)}
	g.includeUsage = !req.Stream || (req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
	g.continuous = req.Stream && req.StreamOptions != nil && req.StreamOptions.ContinuousUsageStats
	for i := range n {
		g.reqs = append(g.reqs, runtime.Request{Prompt: ids, Params: withSeed(p, i), KeepSpecial: keepSpecial, Constraint: constraint,
			Spec: speculation(&req.Ext)})
		g.choices = append(g.choices, &chatChoice{index: i, parser: toolparse.New(popt)})
	}
	if err := g.useBeams(constraint != nil); err != nil {
		return nil, err
	}
	return g, nil
}

// chatRendering is the prompt of a chat request and what was decided on
// the way: the tool call syntax, the output constraint, the template
// variables.
type chatRendering struct {
	format toolparse.Format
	spec   constrain.Spec
	kwargs map[string]any
	text   string
}

// renderChatRequest renders the prompt of a chat request as generation
// would (/apply-template shows it without generating).
func renderChatRequest(m Model, req *openai.ChatRequest) (chatRendering, error) {
	var r chatRendering
	r.format = toolSyntax(req.ToolChoice.Mode, m.Info().ToolFormat)
	var err error
	if r.spec, err = chatSpec(req, r.format); err != nil {
		return r, err
	}
	r.kwargs = thinkingKwargs(effortKwargs(req.ChatTemplateKwargs, req.ReasoningEffort), !r.spec.Empty())
	r.text, err = chatPrompt(m, req, r.kwargs)
	return r, err
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
// the prompt fits the context.
func truncate(ids []int32, k *int, ctxLen int, param string) ([]int32, error) {
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
		return nil, openai.Invalid(param, openai.CodeInvalidValue, "The prompt is empty: it has no tokens.")
	}
	if ctxLen > 0 && len(ids) >= ctxLen {
		return nil, contextError(param, len(ids), ctxLen)
	}
	return ids, nil
}

// chatPrompt renders the messages with the model's chat template and the
// template variables kwargs, or concatenates their contents for
// use_raw_prompt.
func chatPrompt(m Model, req *openai.ChatRequest, kwargs map[string]any) (string, error) {
	if req.ResponseFormat != nil && req.ResponseFormat.Type == "json_object" && !mentionsJSON(req.Messages) {
		return "", openai.Invalid("messages", openai.CodeInvalidValue, "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.")
	}
	if openai.Flag(req.UseRawPrompt, false) {
		var b strings.Builder
		for _, msg := range req.Messages {
			b.WriteString(msg.Content)
		}
		return b.String(), nil
	}
	msgs := make([]ChatMessage, len(req.Messages))
	harmony := m.Info().ToolFormat == toolparse.FormatHarmony
	for i, msg := range req.Messages {
		msgs[i] = templateMessage(msg)
		if harmony {
			harmonyThinking(&msgs[i])
		}
	}
	msgs = inlineToolResponses(m.Info(), msgs)
	cont := openai.Flag(req.ContinueFinalMessage, false)
	opt := ChatOptions{AddGenerationPrompt: openai.Flag(req.AddGenerationPrompt, !cont), ContinueFinalMessage: cont, Kwargs: kwargs,
		Template: deref(req.ChatTemplate)}
	if req.ToolChoice.Mode != openai.ToolChoiceNone {
		for _, t := range req.Tools {
			opt.Tools = append(opt.Tools, jsonObject(t))
		}
	}
	text, err := m.RenderChat(msgs, opt)
	if err != nil && opt.Template != "" {
		return "", openai.Invalid("chat_template", openai.CodeInvalidValue, "The chat_template of the request failed on these messages: %v", err)
	}
	if err != nil {
		return "", openai.Invalid("messages", openai.CodeInvalidValue, "The chat template of the model failed on these messages: %v", err)
	}
	return text, nil
}

func mentionsJSON(msgs []openai.Message) bool {
	for _, m := range msgs {
		if strings.Contains(strings.ToLower(m.Content), "json") {
			return true
		}
	}
	return false
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
