package server

import (
	"encoding/json"
	"strconv"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/upstream"
)

// keySeparate is the key of a plan that keeps the reasoning in the
// content (separate_reasoning: false); keyN of several choices;
// keyLogprobs of log-probabilities; keyThinkBudget of a thinking budget.
const (
	keySeparate    = "separate_reasoning"
	keyN           = "n"
	keyLogprobs    = "logprobs"
	keyThinkBudget = "thinking.budget_tokens"
)

// prepareRemote checks that the upstream can do what p asks, binds p's
// upstream request to m, and returns the stream of its one choice, whose
// parser is m (the upstream parses the output).
func (s *Server) prepareRemote(m *remoteModel, p *plan, enc encoder) (*genStream, error) {
	if err := remoteRefusals(p, m.up.Name()); err != nil {
		return nil, err
	}
	sp, err := params(p, m.Info()) // the same checks of the values as local models get
	if err != nil {
		return nil, err
	}
	m.path = upstream.ChatPath
	if p.raw != nil {
		m.path = upstream.CompletionPath
	}
	if m.body, err = json.Marshal(remoteRequest(m.model, p)); err != nil {
		return nil, err
	}
	st := &genStream{m: m, plan: p, enc: enc, perPrompt: 1, remote: true}
	st.reqs = []runtime.Request{{Params: sp}}
	st.choices = []*choiceState{{parser: m}}
	return st, nil
}

// remoteRefusals is the error of the first thing p asks that an upstream
// is not asked to do: it would have to be faked.
func remoteRefusals(p *plan, name string) error {
	why := "the upstream " + name + " serves this model, and this is not forwarded to it"
	switch {
	case p.promptLogprobs != nil:
		return planErr(keyPromptLP, openai.CodeInvalidValue, "%s: %s.", paramKey(keyPromptLP), why)
	case p.beam != nil:
		return planErr(keyBeam, openai.CodeInvalidValue, "Beam search: %s.", why)
	case p.format.grammar != "":
		return planErr(keyGrammar, openai.CodeInvalidValue, "A grammar constraint: %s; a JSON schema format is.", why)
	case p.choices() > 1:
		return planErr(keyN, openai.CodeInvalidValue, "More than one choice: %s.", why)
	case p.logprobs:
		return planErr(keyLogprobs, openai.CodeInvalidValue, "Log-probabilities: %s.", why)
	case p.thinkBudget > 0:
		return planErr(keyThinkBudget, openai.CodeInvalidValue, "A thinking budget: %s.", why)
	case p.mergeReasoning:
		return planErr(keySeparate, openai.CodeInvalidValue, "Reasoning left in the content: %s.", why)
	}
	return nil
}

// wireRequest is the streaming chat completions (or completions) request
// a plan becomes upstream, in the form vLLM, SGLang, llama-server and
// mlx accept; the extensions are sent only when the plan sets them.
type wireRequest struct {
	Model         string        `json:"model"`
	Messages      []wireMessage `json:"messages,omitempty"`
	Prompt        *string       `json:"prompt,omitempty"`
	Stream        bool          `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`

	Tools      []json.RawMessage `json:"tools,omitempty"`
	ToolChoice any               `json:"tool_choice,omitempty"`
	Parallel   *bool             `json:"parallel_tool_calls,omitempty"`
	Format     any               `json:"response_format,omitempty"`

	Temperature       *float64           `json:"temperature,omitempty"`
	TopP              *float64           `json:"top_p,omitempty"`
	MinP              *float64           `json:"min_p,omitempty"`
	TypicalP          *float64           `json:"typical_p,omitempty"`
	TopK              *int               `json:"top_k,omitempty"`
	RepetitionPenalty *float64           `json:"repetition_penalty,omitempty"`
	Presence          *float64           `json:"presence_penalty,omitempty"`
	Frequency         *float64           `json:"frequency_penalty,omitempty"`
	Seed              *int64             `json:"seed,omitempty"`
	MaxTokens         int                `json:"max_tokens,omitempty"`
	MinTokens         *int               `json:"min_tokens,omitempty"`
	Stop              []string           `json:"stop,omitempty"`
	StopTokenIDs      []int32            `json:"stop_token_ids,omitempty"`
	LogitBias         map[string]float64 `json:"logit_bias,omitempty"`
	IgnoreEOS         bool               `json:"ignore_eos,omitempty"`
	IncludeStop       bool               `json:"include_stop_str_in_output,omitempty"`
	KeepSpecial       *bool              `json:"skip_special_tokens,omitempty"`
	Truncate          *int               `json:"truncate_prompt_tokens,omitempty"`

	Kwargs       map[string]any `json:"chat_template_kwargs,omitempty"`
	Template     string         `json:"chat_template,omitempty"`
	Continue     bool           `json:"continue_final_message,omitempty"`
	AddGenPrompt *bool          `json:"add_generation_prompt,omitempty"`
}

// wireMessage is a message of the conversation, as OpenAI's API has it.
type wireMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Name       string         `json:"name,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Reasoning  string         `json:"reasoning_content,omitempty"`
}

// wireToolCall is a tool call of an assistant message.
type wireToolCall struct {
	ID       string `json:"id,omitempty"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// remoteRequest is the upstream request of p for the upstream's model.
func remoteRequest(model string, p *plan) *wireRequest {
	s := p.sampling
	r := &wireRequest{Model: model, Stream: true, Prompt: p.raw,
		Temperature: s.temperature, TopP: s.topP, MinP: s.minP, TypicalP: s.typicalP, TopK: s.topK,
		RepetitionPenalty: s.repetitionPenalty, Presence: s.presence, Frequency: s.frequency, Seed: s.seed,
		MaxTokens: s.maxTokens, MinTokens: s.minTokens, Stop: s.stop, StopTokenIDs: s.stopTokenIDs,
		IgnoreEOS: s.ignoreEOS, IncludeStop: s.includeStop, Truncate: p.truncate}
	r.StreamOptions.IncludeUsage = true
	if s.greedy {
		zero := 0.0
		r.Temperature = &zero
	}
	if p.keepSpecial {
		no := false
		r.KeepSpecial = &no
	}
	if len(s.logitBias) > 0 {
		r.LogitBias = map[string]float64{}
		for id, b := range s.logitBias {
			r.LogitBias[strconv.Itoa(int(id))] = b
		}
	}
	r.Format = wireFormat(p.format)
	if p.raw != nil {
		return r
	}
	r.Kwargs, r.Template, r.Continue = p.kwargs, p.render.Template, p.render.ContinueFinalMessage
	if !p.render.AddGenerationPrompt && !p.render.ContinueFinalMessage {
		no := false
		r.AddGenPrompt = &no
	}
	for _, msg := range p.msgs {
		r.Messages = append(r.Messages, wireMsg(msg))
	}
	if len(p.tools) > 0 {
		for _, t := range p.tools {
			r.Tools = append(r.Tools, t.decl)
		}
		r.ToolChoice = p.choice
		if p.choice == openai.ToolChoiceNamed {
			r.ToolChoice = map[string]any{"type": "function", "function": map[string]string{"name": p.named}}
		}
		parallel := p.parallel
		r.Parallel = &parallel
	}
	return r
}

// wireMsg is msg as OpenAI's API has it: tool call arguments as text.
func wireMsg(msg ChatMessage) wireMessage {
	w := wireMessage{Role: msg.Role, Content: msg.Content, Name: msg.Name, ToolCallID: msg.ToolCallID, Reasoning: msg.ReasoningContent}
	for _, tc := range msg.ToolCalls {
		c := wireToolCall{ID: tc.ID, Type: "function"}
		c.Function.Name = tc.Function.Name
		args := string(tc.Function.Arguments)
		var text string
		if json.Unmarshal(tc.Function.Arguments, &text) == nil {
			args = text // arguments that were not JSON, kept as a string
		}
		c.Function.Arguments = args
		w.ToolCalls = append(w.ToolCalls, c)
	}
	return w
}

// wireFormat is the response_format of f: a JSON schema or any JSON
// object; nil when the output is free.
func wireFormat(f outputFormat) any {
	switch {
	case !f.json:
		return nil
	case len(f.schema) > 0:
		name := f.schemaName
		if name == "" {
			name = "output"
		}
		return map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": name, "schema": f.schema}}
	}
	return map[string]string{"type": "json_object"}
}
