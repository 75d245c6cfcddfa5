package server

import (
	"strings"

	"github.com/mlxrun/mlx/server/openai"
)

// chatPlan decodes a chat completions request into a plan.
func chatPlan(req *openai.ChatRequest) *plan {
	p := &plan{n: req.Choices(), logprobs: req.Logprobs, topLogprobs: req.TopLogprobCount(),
		choice: req.ToolChoice.Mode, named: req.ToolChoice.Function, parallel: openai.Flag(req.ParallelToolCalls, true),
		beam: beamSearch(&req.BeamParams, req.BeamWidth(), req.Choices())}
	p.sampling = openaiSampling(&req.Sampling, req.Limit())
	p.format = responseFormat(req.ResponseFormat)
	for _, m := range req.Messages {
		p.msgs = append(p.msgs, templateMessage(m))
	}
	extPlan(p, &req.Ext, req.ReasoningEffort)
	for _, t := range req.Tools {
		p.tools = append(p.tools, planTool{name: t.Function.Name, params: t.Function.Parameters, decl: jsonObject(t)})
	}
	return p
}

// openaiSampling is the sampling of the fields chat completions and
// completions share; limit is the most tokens to generate (0: no limit
// but the context).
func openaiSampling(c *openai.Sampling, limit int) samplingPlan {
	return samplingPlan{temperature: c.Temperature, topP: c.TopP, presence: c.PresencePenalty, frequency: c.FrequencyPenalty,
		seed: c.Seed, stop: c.Stop, logitBias: c.LogitBias, maxTokens: limit}
}

// extSampling sets the sampling parameters of the extensions x.
func extSampling(s *samplingPlan, x *openai.Ext) {
	s.minP, s.typicalP, s.repetitionPenalty = x.MinP, x.TypicalP, x.RepetitionPenalty
	s.topK, s.minTokens, s.stopTokenIDs = x.TopK, x.MinTokens, x.StopTokenIDs
	s.ignoreEOS, s.greedy = openai.Flag(x.IgnoreEOS, false), openai.Flag(x.GreedySampling, false)
	s.includeStop = openai.Flag(x.IncludeStopStrInOutput, false)
}

// extPlan sets what the extensions of x ask for (chat completions and
// Responses), with the template variables of a reasoning effort: sampling,
// a grammar, how the template renders or the conversation as a raw
// prompt, the prompt's truncation, special tokens, reasoning, speculation.
func extPlan(p *plan, x *openai.Ext, effort *string) {
	cont := openai.Flag(x.ContinueFinalMessage, false)
	p.render = ChatOptions{AddGenerationPrompt: openai.Flag(x.AddGenerationPrompt, !cont), ContinueFinalMessage: cont,
		Template: deref(x.ChatTemplate)}
	p.truncate, p.promptLogprobs = x.TruncatePromptTokens, x.PromptLogprobs
	p.keepSpecial = !openai.Flag(x.SkipSpecialTokens, true)
	p.mergeReasoning = !openai.Flag(x.SeparateReasoning, true)
	p.spec = speculation(x)
	p.kwargs = effortKwargs(x.ChatTemplateKwargs, effort)
	p.format.grammar = deref(x.Grammar)
	extSampling(&p.sampling, x)
	if openai.Flag(x.UseRawPrompt, false) {
		var b strings.Builder
		for _, m := range p.msgs {
			b.WriteString(m.Content)
		}
		raw := b.String()
		p.raw = &raw
	}
}

// responseFormat is the output format of a response_format.
func responseFormat(rf *openai.ResponseFormat) outputFormat {
	var f outputFormat
	if rf == nil || rf.Type == "text" {
		return f
	}
	f.json, f.mentionJSON = true, rf.Type == "json_object"
	if rf.JSONSchema != nil {
		f.schema, f.schemaName = rf.JSONSchema.Schema, rf.JSONSchema.Name
	}
	return f
}
