package server

import (
	"encoding/json"
	"strings"

	"github.com/mlxrun/mlx/server/anthropic"
	"github.com/mlxrun/mlx/server/openai"
)

// messagesPlan decodes an Anthropic Messages request into a plan.
func messagesPlan(r *anthropic.Request) *plan {
	p := &plan{msgs: anthropicMessages(r), render: ChatOptions{AddGenerationPrompt: true}, choice: toolMode(r),
		parallel: r.ToolChoice == nil || !r.ToolChoice.DisableParallelToolUse,
		sampling: samplingPlan{temperature: r.Temperature, topP: r.TopP, topK: r.TopK, maxTokens: r.MaxTokens, stop: r.StopSequences}}
	if r.ToolChoice != nil {
		p.named = r.ToolChoice.Name
	}
	for _, t := range r.Tools {
		p.tools = append(p.tools, planTool{name: t.Name, params: t.InputSchema,
			decl: toolDecl(t.Name, t.Description, jsonOrNull(t.InputSchema), nil)})
	}
	if on, ok := r.Thinking.Enabled(); ok {
		p.kwargs = map[string]any{"enable_thinking": on}
		if on {
			p.thinkBudget = r.Thinking.BudgetTokens
		}
	}
	return p
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
func anthropicMessages(r *anthropic.Request) []ChatMessage {
	var out []ChatMessage
	if sys := r.System.Text(); sys != "" {
		out = append(out, ChatMessage{Role: openai.RoleSystem, Content: sys})
	}
	names := map[string]string{} // tool_use id → tool name
	for _, m := range r.Messages {
		if m.Role == anthropic.RoleAssistant {
			out = append(out, assistantMessage(m.Content, names))
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
