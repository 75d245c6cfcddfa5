package server

// inlineToolResponses rewrites a conversation for a template that reads
// tool results from the assistant message that made the calls
// (info.ToolResponses; other conversations are returned as they are): the tool
// messages that follow such a message become its tool_responses (each
// named after the call in the same place, else its tool_call_id; a JSON
// result as its value), and an assistant answer without calls that comes
// right after them joins the same message, as one model turn.
func inlineToolResponses(info ModelInfo, msgs []ChatMessage) []ChatMessage {
	if !info.ToolResponses {
		return msgs
	}
	out := make([]ChatMessage, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			out = append(out, m)
			continue
		}
		for i+1 < len(msgs) && msgs[i+1].Role == "tool" {
			i++
			t := msgs[i]
			name := t.ToolCallID
			if n := len(m.ToolResponses); n < len(m.ToolCalls) && m.ToolCalls[n].Function.Name != "" {
				name = m.ToolCalls[n].Function.Name
			}
			m.ToolResponses = append(m.ToolResponses, ToolResponse{Name: name, Response: jsonText(t.Content)})
		}
		if i+1 < len(msgs) && msgs[i+1].Role == "assistant" && len(msgs[i+1].ToolCalls) == 0 && msgs[i+1].Content != "" {
			i++
			m.Content = msgs[i].Content
		}
		out = append(out, m)
	}
	return out
}
