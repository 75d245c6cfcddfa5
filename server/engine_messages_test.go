package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mlxrun/mlx/models/chat"
)

// TestTemplateMessages checks that messages converted for a template
// render as their JSON encoding parsed by models/chat does, keys in the
// same order, with a template that prints every key of every message.
func TestTemplateMessages(t *testing.T) {
	msgs := []ChatMessage{
		{Role: "system", Content: "Be brief."},
		{Role: "user", Content: "Weather in Paris?", Name: "ann"},
		{Role: "assistant", Content: "", ReasoningContent: "look it up", Thinking: "look it up",
			ToolCalls: []TemplateToolCall{{ID: "c1", Type: "function", Function: TemplateFunctionCall{Name: "weather",
				Arguments: json.RawMessage(`{"city": "Paris", "unit": "c"}`)}}, {Type: "function", Function: TemplateFunctionCall{Name: "raw", Arguments: jsonText("not json")}}}},
		{Role: "tool", Content: "18", ToolCallID: "c1", Name: "weather"},
		{Role: "assistant", Content: "", ToolResponses: []ToolResponse{{Name: "weather", Response: json.RawMessage(`{"temperature": 77}`)}}},
	}
	tpl, err := chat.Compile(`{% for m in messages %}{% for k, v in m.items() %}{{ k }}={{ v|tojson }};{% endfor %}|{% endfor %}`, "test")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := chat.ParseMessages(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tpl.Render(context.Background(), chat.Input{Messages: parsed})
	if err != nil {
		t.Fatal(err)
	}
	converted, err := templateMessages(msgs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tpl.Render(context.Background(), chat.Input{Messages: converted})
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("converted messages render\n%s\nparsed JSON renders\n%s", got, want)
	}
}
