package server

import (
	"encoding/json"
	"strings"

	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/anthropic"
	"github.com/mlxrun/mlx/server/constrain"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// messagesPlan is an Anthropic Messages request decoded for a model: the
// conversation and tools as the chat template takes them, the output
// constraint, the template variables and the sampling parameters.
type messagesPlan struct {
	msgs   []ChatMessage
	opt    ChatOptions
	format toolparse.Format // the tool call syntax to parse
	spec   constrain.Spec
	params sample.Params
}

// planMessages decodes r for the model info.
func planMessages(r *anthropic.Request, info ModelInfo) (*messagesPlan, error) {
	mode := toolMode(r)
	p := &messagesPlan{format: toolSyntax(mode, info.ToolFormat)}
	p.msgs = anthropicMessages(r, info.ToolFormat == toolparse.FormatHarmony)
	p.opt = ChatOptions{AddGenerationPrompt: true}
	var tools []constrain.Tool
	if mode != openai.ToolChoiceNone {
		for _, t := range r.Tools {
			p.opt.Tools = append(p.opt.Tools, templateTool(t))
			if mode != openai.ToolChoiceNamed || t.Name == r.ToolChoice.Name {
				tools = append(tools, constrain.Tool{Name: t.Name, Parameters: t.InputSchema})
			}
		}
	}
	parallel := r.ToolChoice == nil || !r.ToolChoice.DisableParallelToolUse
	callSpec(&p.spec, mode, parallel, p.format, tools)
	var kw map[string]any
	if on, ok := r.Thinking.Enabled(); ok {
		kw = map[string]any{"enable_thinking": on}
	}
	p.opt.Kwargs = thinkingKwargs(kw, !p.spec.Empty())
	var err error
	p.params, err = messagesParams(r, info)
	return p, err
}

// toolMode is the request's tool_choice as an openai.ToolChoice* mode:
// auto when tools come without a choice, none without tools.
func toolMode(r *anthropic.Request) string {
	if len(r.Tools) == 0 {
		return openai.ToolChoiceNone
	}
	if r.ToolChoice == nil {
		return openai.ToolChoiceAuto
	}
	switch r.ToolChoice.Type {
	case anthropic.ChoiceAny:
		return openai.ToolChoiceRequired
	case anthropic.ChoiceTool:
		return openai.ToolChoiceNamed
	case anthropic.ChoiceNone:
		return openai.ToolChoiceNone
	}
	return openai.ToolChoiceAuto
}

// templateTool is a tool as chat templates take it.
func templateTool(t anthropic.Tool) json.RawMessage {
	return jsonObject(openai.Tool{Type: "function", Function: openai.FunctionDecl{Name: t.Name, Description: t.Description,
		Parameters: jsonOrNull(t.InputSchema)}})
}

// jsonOrNull is raw when it holds JSON, else null.
func jsonOrNull(raw json.RawMessage) json.RawMessage {
	if !json.Valid(raw) {
		return json.RawMessage("null")
	}
	return raw
}

// anthropicMessages turns the system prompt and the messages into template
// messages: tool_use blocks become the tool calls of the assistant
// message, thinking blocks its reasoning, and each tool_result block a
// tool message before the text of its user message.
func anthropicMessages(r *anthropic.Request, harmony bool) []ChatMessage {
	var out []ChatMessage
	if sys := r.System.Text(); sys != "" {
		out = append(out, ChatMessage{Role: openai.RoleSystem, Content: sys})
	}
	names := map[string]string{} // tool_use id → tool name
	for _, m := range r.Messages {
		if m.Role == anthropic.RoleAssistant {
			msg := assistantMessage(m.Content, names)
			if harmony {
				harmonyThinking(&msg)
			}
			out = append(out, msg)
			continue
		}
		results := 0
		for _, b := range m.Content {
			if b.Type == anthropic.BlockToolResult {
				out = append(out, ChatMessage{Role: openai.RoleTool, ToolCallID: b.ToolUseID, Name: names[b.ToolUseID], Content: resultText(b)})
				results++
			}
		}
		if text := m.Content.Text(); text != "" || results == 0 {
			out = append(out, ChatMessage{Role: openai.RoleUser, Content: text})
		}
	}
	return out
}

// assistantMessage is an assistant turn; it records the names of its
// tool calls by id.
func assistantMessage(blocks anthropic.Content, names map[string]string) ChatMessage {
	msg := ChatMessage{Role: openai.RoleAssistant, Content: blocks.Text()}
	var reasoning []string
	for _, b := range blocks {
		switch b.Type {
		case anthropic.BlockThinking:
			if b.Thinking != nil && *b.Thinking != "" {
				reasoning = append(reasoning, *b.Thinking)
			}
		case anthropic.BlockToolUse:
			names[b.ID] = b.Name
			msg.ToolCalls = append(msg.ToolCalls, TemplateToolCall{ID: b.ID, Type: "function",
				Function: TemplateFunctionCall{Name: b.Name, Arguments: jsonOrNull(b.Input)}})
		}
	}
	msg.ReasoningContent = strings.Join(reasoning, "\n")
	return msg
}

// resultText is the text of a tool result; an error result says so, as
// templates have no field for it.
func resultText(b anthropic.Block) string {
	text := ""
	if b.Content != nil {
		text = b.Content.Text()
	}
	if b.IsError {
		return "Error: " + text
	}
	return text
}

// messagesParams builds the sampling parameters: the model's defaults,
// then what the request sets.
func messagesParams(r *anthropic.Request, info ModelInfo) (sample.Params, error) {
	p := modelDefaults(info)
	setF(&p.Temperature, r.Temperature)
	setTopP(&p, r.TopP)
	if r.TopK != nil {
		if err := checkTopK(*r.TopK, info); err != nil {
			return p, err
		}
		p.TopK = *r.TopK
	}
	p.MaxTokens, p.Stop = r.MaxTokens, r.StopSequences
	return p, p.Validate()
}
