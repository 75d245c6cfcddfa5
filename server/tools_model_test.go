package server

import (
	"fmt"
	"net/http"
	"testing"

	sj "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mlxrun/mlx/server/constrain"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// testTools are the tools of the forced tool call tests, with bounded
// arguments; ping declares no parameters.
var testTools = []struct{ name, params string }{
	{"get_weather", `{"type":"object","properties":{"city":{"type":"string","maxLength":8},"unit":{"enum":["c","f"]},"days":{"type":"integer","minimum":1,"maximum":7}},"required":["city","unit"],"additionalProperties":false}`},
	{"lookup", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer","minimum":0,"maximum":999},"maxItems":2}},"required":["ids"]}`},
	{"ping", ``},
}

// toolsJSON renders testTools as the tools of a chat request.
func toolsJSON() string {
	out := ""
	for i, tl := range testTools {
		if i > 0 {
			out += ","
		}
		params := ""
		if tl.params != "" {
			params = `,"parameters":` + tl.params
		}
		out += `{"type":"function","function":{"name":"` + tl.name + `"` + params + `}}`
	}
	return "[" + out + "]"
}

// TestForcedToolCalls samples forced tool calls of a random-weight
// model in the four call syntaxes, with tool_choice required and named:
// each must end as tool calls whose arguments match the tool's schema.
func TestForcedToolCalls(t *testing.T) {
	t.Parallel() // on its own engine
	m := loadEngine(t, "gguf", "llama-tiny-Q8_0.gguf")
	ts := startModels(t, modelLoader{"hermes": m.with(toolparse.FormatHermes), "llama3": m.with(toolparse.FormatLlama3),
		"mistral": m.with(toolparse.FormatMistral), "harmony": m.with(toolparse.FormatHarmony)})
	schemas := map[string]*sj.Schema{}
	for _, tl := range testTools {
		src := tl.params
		if src == "" {
			src = `{"type":"object","maxProperties":0}`
		}
		schemas[tl.name] = validator(t, src)
	}
	// Named choices and parallel_tool_calls false allow one call, required
	// with parallel calls up to maxForcedCalls.
	cases := []struct {
		model, named string
		parallel     bool
	}{
		{"hermes", "", true},
		{"hermes", "get_weather", true},
		{"hermes", "", false},
		{"llama3", "", false},
		{"llama3", "lookup", true},
		{"mistral", "", true},
		{"mistral", "ping", true},
		{"mistral", "", false},
		{"harmony", "", true},
		{"harmony", "get_weather", true},
	}
	const n = seeds / 8
	c := &tally{t: t}
	calls, reasoned := 0, 0
	for i, tc := range cases {
		choice, most, limit := `"required"`, 1, 200
		if tc.named != "" {
			choice = `{"type":"function","function":{"name":"` + tc.named + `"}}`
		} else if tc.parallel {
			most, limit = maxForcedCalls, 500
		}
		if tc.model == "harmony" {
			limit += constrain.ThinkBudget // an analysis message may come first
		}
		var resp openai.ChatCompletion
		ts.post(t, "/v1/chat/completions", fmt.Sprintf(`{"model":%q,"seed":%d,"n":%d,"max_tokens":%d,"messages":[{"role":"user","content":"Go."}],"tools":%s,"tool_choice":%s,"parallel_tool_calls":%v}`,
			tc.model, i*n, n, limit, toolsJSON(), choice, tc.parallel), http.StatusOK, &resp)
		for _, ch := range resp.Choices {
			calls += len(ch.Message.ToolCalls)
			if ch.Message.ReasoningContent != nil && *ch.Message.ReasoningContent != "" {
				reasoned++
			}
			c.check(checkCalls(ch, schemas, tc.named, most), fmt.Sprintf("%s %s seed %d", tc.model, choice, i*n+ch.Index))
		}
	}
	c.report("forced tool calls")
	t.Logf("%d calls in %d choices, %d of them after reasoning", calls, c.total, reasoned)
}

// checkCalls checks a choice that must be 1 to most tool calls, of the
// function named when it is not "".
func checkCalls(ch openai.ChatChoice, schemas map[string]*sj.Schema, named string, most int) error {
	msg := ch.Message
	if err := finished(*ch.FinishReason, "tool_calls", nil); err != nil {
		return fmt.Errorf("%w: content %q", err, deref(msg.Content))
	}
	if deref(msg.Content) != "" || len(msg.ToolCalls) < 1 || len(msg.ToolCalls) > most {
		return fmt.Errorf("content %q and %d calls (want none and 1 to %d)", deref(msg.Content), len(msg.ToolCalls), most)
	}
	for _, call := range msg.ToolCalls {
		sch := schemas[call.Function.Name]
		if sch == nil || named != "" && call.Function.Name != named {
			return fmt.Errorf("call of %q (tool_choice %q)", call.Function.Name, named)
		}
		if err := valid(sch, call.Function.Arguments); err != nil {
			return fmt.Errorf("%s(%s): %w", call.Function.Name, call.Function.Arguments, err)
		}
	}
	return nil
}
