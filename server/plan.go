package server

import (
	"encoding/json"

	"github.com/mlxrun/mlx/runtime"
)

// plan is a generation request as every API decodes it, once: the
// conversation (or a prompt taken as it is), the tools and the tool
// choice, the output format, sampling and stops, reasoning, the number of
// choices and their log-probabilities. Nothing in it belongs to one API's
// wire format: prepare turns it into the engine's requests, and an
// encoder per API writes what they generate. Its errors name its keys
// (paramError), which each API maps to its own names (paramNames).
type plan struct {
	msgs []ChatMessage // the conversation, as chat templates take it
	raw  *string       // a prompt used as it is, without the chat template
	fill *fimInput     // a fill-in-the-middle prompt, built from the model's FIM tokens
	// prompts are prompts given as tokens (completions) in place of a
	// conversation: each gets the plan's choices, whose text is taken
	// as it is, without the output parsers.
	prompts []planPrompt
	render  ChatOptions // how the template renders; Tools and Kwargs are set by prepare
	// kwargs are the template variables the request sets
	// (chat_template_kwargs, and what its reasoning effort asks for).
	kwargs map[string]any

	tools    []planTool
	choice   string // an openai.ToolChoice* mode
	named    string // the tool of openai.ToolChoiceNamed
	parallel bool   // several tool calls may come in one answer

	format   outputFormat
	sampling samplingPlan

	n              int  // choices (1 when unset)
	logprobs       bool // log-probabilities of the generated tokens
	topLogprobs    int
	promptLogprobs *int // log-probabilities of the prompt's tokens, with this many alternatives
	truncate       *int // keep the last k prompt tokens; -1: as many as fit
	numCtx         *int // a context shorter than the model's
	// fillContext makes the room left in the context the most tokens to
	// generate, and the bound of a larger maximum.
	fillContext bool
	keepSpecial bool // special tokens stay in the text
	// mergeReasoning leaves reasoning in the content instead of
	// separating it.
	mergeReasoning bool
	// thinkBudget bounds the tokens of the reasoning of a one-choice plan
	// (0: no bound): the stream closes the reasoning when it is spent.
	thinkBudget int
	beam        *runtime.BeamSearch
	spec        runtime.Speculation
}

// planTool is a declared tool: its name, its parameters schema, and its
// declaration as chat templates take it.
type planTool struct {
	name   string
	params json.RawMessage
	decl   json.RawMessage
}

// planPrompt is a prompt given as tokens, with the key that names it in
// errors.
type planPrompt struct {
	ids []int32
	key string
}

// outputFormat is the format the output must follow: JSON (with a
// schema, named for errors), or a GBNF grammar.
type outputFormat struct {
	json       bool
	schema     json.RawMessage
	schemaName string
	grammar    string
	// mentionJSON requires the conversation to mention JSON, as OpenAI
	// requires for its json_object format.
	mentionJSON bool
}

// samplingPlan is what a request sets of the sampling parameters; unset
// ones keep the model's defaults.
type samplingPlan struct {
	temperature, topP, minP, typicalP      *float64
	repetitionPenalty, presence, frequency *float64
	topK, minTokens                        *int
	seed                                   *int64
	maxTokens                              int // 0: until the context is full
	stop                                   []string
	stopTokenIDs                           []int32
	logitBias                              map[int32]float64
	ignoreEOS, greedy, includeStop         bool
}

// choices is the number of choices, at least one.
func (p *plan) choices() int { return max(p.n, 1) }

// toolIndex is the position of the tool named name among the declared
// tools; -1 when none has that name.
func (p *plan) toolIndex(name string) int {
	for i, t := range p.tools {
		if t.name == name {
			return i
		}
	}
	return -1
}
