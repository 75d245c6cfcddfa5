package server

import (
	"context"
	"strings"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/constrain"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// promptPlan is a plan's prompt rendered for a model.
type promptPlan struct {
	text   string
	ids    []int32
	syntax toolparse.Format // the tool call syntax of the output
	spec   constrain.Spec   // the output constraint
	kwargs map[string]any   // the template variables it was rendered with
	ctxLen int              // the context it must fit in
}

// renderText renders the prompt text of p for m, as generation would, and
// decides the output's syntax and constraint on the way.
func (p *plan) renderText(ctx context.Context, m Model) (*promptPlan, error) {
	info := m.Info()
	r := &promptPlan{syntax: toolSyntax(p.choice, info.ToolFormat), ctxLen: info.Context}
	var err error
	if r.spec, err = p.constraint(r.syntax); err != nil {
		return nil, err
	}
	r.kwargs = thinkingKwargs(p.kwargs, !r.spec.Empty())
	if r.text, err = p.prompt(ctx, m, r.kwargs); err != nil {
		return nil, err
	}
	if n := p.numCtx; n != nil && (r.ctxLen == 0 || *n < r.ctxLen) {
		r.ctxLen = *n
	}
	return r, nil
}

// renderPrompt renders the prompt of p for m and tokenizes it; the
// tokens are checked against the context.
func (p *plan) renderPrompt(ctx context.Context, m Model) (*promptPlan, error) {
	if p.fill != nil {
		return p.fillPrompt(m)
	}
	r, err := p.renderText(ctx, m)
	if err != nil {
		return nil, err
	}
	r.ids, err = truncate(m.EncodePrompt(r.text), p.truncate, r.ctxLen, keyMessages)
	return r, err
}

// fillPrompt is the fill-in-the-middle prompt of p for m: no template,
// no tool calls, output taken as it is.
func (p *plan) fillPrompt(m Model) (*promptPlan, error) {
	r := &promptPlan{syntax: toolparse.FormatNone, ctxLen: m.Info().Context}
	if n := p.numCtx; n != nil && (r.ctxLen == 0 || *n < r.ctxLen) {
		r.ctxLen = *n
	}
	ids, err := fimPrompt(m, *p.fill, r.ctxLen, p.sampling.maxTokens)
	if err != nil {
		return nil, err
	}
	r.ids, err = truncate(ids, nil, r.ctxLen, keyMessages)
	return r, err
}

// prepare renders the prompt of p for m and makes the engine's requests of
// its choices: the one path from a plan to the engine, whatever the API.
// What the choices generate is parsed and goes to enc.
func (s *Server) prepare(ctx context.Context, m Model, p *plan, enc encoder) (*genStream, error) {
	if rm, ok := m.(*remoteModel); ok {
		return s.prepareRemote(rm, p, enc)
	}
	if err := checkScorer(m, p.promptLogprobs); err != nil {
		return nil, err
	}
	r, prompts, err := p.promptsFor(ctx, m)
	if err != nil {
		return nil, err
	}
	sp, err := params(p, m.Info())
	if err != nil {
		return nil, err
	}
	if p.fill != nil {
		sp.StopTokenIDs = append(sp.StopTokenIDs, fimStops(m)...)
	}
	if room := r.ctxLen - len(prompts[0]); p.fillContext && room > 0 && (sp.MaxTokens == 0 || sp.MaxTokens > room) {
		sp.MaxTokens = room
	}
	var popt *toolparse.Options
	if p.prompts == nil {
		o := parseOptions(r.text, r.syntax, r.kwargs, &r.spec)
		o.Reasoning = !p.mergeReasoning
		popt = &o
	}
	constraint, err := s.compileSpec(&r.spec, p)
	if err != nil {
		return nil, err
	}
	keep := p.keepSpecial || r.syntax.SpecialMarkers()
	st := &genStream{m: m, plan: p, enc: enc, prompts: prompts, perPrompt: p.choices()}
	for _, ids := range prompts {
		for j := range p.choices() {
			st.reqs = append(st.reqs, runtime.Request{Prompt: ids, Params: withSeed(sp, j), KeepSpecial: keep, Constraint: constraint, Spec: p.spec})
			ch := &choiceState{}
			if popt != nil {
				ch.parser = toolparse.New(*popt)
			}
			st.choices = append(st.choices, ch)
		}
	}
	if p.beam != nil {
		if constraint != nil {
			return nil, errBeamConstraint
		}
		// One beam search per prompt, which ranks its choices.
		st.reqs = beamRequests(st.reqs, p.choices(), p.beam)
		st.perPrompt = p.beam.N
		st.choices = st.choices[:len(prompts)*p.beam.N]
	}
	return st, nil
}

// promptsFor returns the prompt of p for m, or its prompts given as
// tokens, checked against the context.
func (p *plan) promptsFor(ctx context.Context, m Model) (*promptPlan, [][]int32, error) {
	if p.prompts == nil {
		r, err := p.renderPrompt(ctx, m)
		if err != nil {
			return nil, nil, err
		}
		return r, [][]int32{r.ids}, nil
	}
	r := &promptPlan{syntax: toolparse.FormatNone, ctxLen: m.Info().Context}
	var err error
	if r.spec, err = p.constraint(r.syntax); err != nil {
		return nil, nil, err
	}
	out := make([][]int32, len(p.prompts))
	for i, pp := range p.prompts {
		if out[i], err = truncate(pp.ids, p.truncate, r.ctxLen, pp.key); err != nil {
			return nil, nil, err
		}
	}
	return r, out, nil
}

// constraint is the output constraint p asks for, before its prompt is
// rendered: a grammar, a JSON format, tool calls in syntax (forced, or
// with tool_choice auto and a JSON format, either).
func (p *plan) constraint(syntax toolparse.Format) (constrain.Spec, error) {
	f := p.format
	spec := constrain.Spec{JSON: f.json, Schema: f.schema, Grammar: f.grammar}
	if f.grammar != "" && f.json {
		return spec, planErr(keyGrammar, openai.CodeInvalidValue, "%s cannot be combined with a JSON %s: give one or the other.", paramKey(keyGrammar), paramKey(keyFormat))
	}
	forced := p.choice == openai.ToolChoiceRequired || p.choice == openai.ToolChoiceNamed
	if forced && f.grammar != "" {
		return spec, planErr(keyGrammar, openai.CodeInvalidValue, "%s cannot be combined with %s %q: the grammar would decide the output alone.", paramKey(keyGrammar), paramKey(keyToolChoice), p.choice)
	}
	var tools []constrain.Tool
	for _, t := range p.tools {
		if p.choice != openai.ToolChoiceNamed || t.name == p.named {
			tools = append(tools, constrain.Tool{Name: t.name, Parameters: t.params})
		}
	}
	callSpec(&spec, p.choice, p.parallel, syntax, tools)
	return spec, nil
}

// prompt renders the conversation of p with the model's chat template (or
// the request's) and the template variables kwargs, or returns its raw
// prompt.
func (p *plan) prompt(ctx context.Context, m Model, kwargs map[string]any) (string, error) {
	if p.format.mentionJSON && !mentionsJSON(p.msgs) {
		return "", planErr(keyJSONWord, openai.CodeInvalidValue, "%s must contain the word 'json' in some form to use %s of type 'json_object'.", paramKey(keyMessages), paramKey(keyFormat))
	}
	if p.raw != nil {
		return *p.raw, nil
	}
	info := m.Info()
	msgs := p.msgs
	if info.ToolFormat == toolparse.FormatHarmony {
		msgs = append([]ChatMessage(nil), msgs...)
		for i := range msgs {
			harmonyThinking(&msgs[i])
		}
	}
	opt := p.render
	opt.Kwargs = kwargs
	if p.choice != openai.ToolChoiceNone {
		for _, t := range p.tools {
			opt.Tools = append(opt.Tools, t.decl)
		}
	}
	text, err := m.RenderChat(ctx, inlineToolResponses(info, msgs), opt)
	if err != nil && ctx.Err() != nil {
		return "", err // the client went away or the server shuts down
	}
	if err != nil && opt.Template != "" {
		return "", planErr(keyTemplate, openai.CodeInvalidValue, "The %s of the request failed on these messages: %v", paramKey(keyTemplate), err)
	}
	if err != nil {
		return "", planErr(keyMessages, openai.CodeInvalidValue, "The chat template of the model failed on these messages: %v", err)
	}
	return text, nil
}

// mentionsJSON reports whether a message mentions JSON.
func mentionsJSON(msgs []ChatMessage) bool {
	for _, m := range msgs {
		if strings.Contains(strings.ToLower(m.Content), "json") {
			return true
		}
	}
	return false
}
