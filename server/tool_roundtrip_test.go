package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// The tool and the conversation of a tool call round trip, as OpenAI
// clients send them: the assistant's call with its arguments as JSON
// text, then the tool's result.
const (
	weatherParams = `{"type":"object","properties":{"location":{"type":"string","description":"City name"},` +
		`"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["location"]}`
	weatherTool = `{"type":"function","function":{"name":"get_weather","description":"Get the current weather for a city.",` +
		`"parameters":` + weatherParams + `}}`
	weatherQuestion = "How warm is it in Tokyo, in fahrenheit?"
	weatherArgs     = `{"location": "Tokyo", "unit": "fahrenheit"}`
	weatherResult   = `{"temperature": 77}`
)

// roundTripChat is the chat request that sends a tool call back with the
// given assistant content member ("" leaves it out) and call id.
func roundTripChat(model, content, callID, args string) string {
	if content != "" {
		content = `"content":` + content + `,`
	}
	a, _ := json.Marshal(args)
	q, _ := json.Marshal(weatherQuestion)
	res, _ := json.Marshal(weatherResult)
	return fmt.Sprintf(`{"model":%q,"max_tokens":4,"tools":[%s],"messages":[{"role":"user","content":%s},`+
		`{"role":"assistant",%s"tool_calls":[{"id":%q,"type":"function","function":{"name":"get_weather","arguments":%s}}]},`+
		`{"role":"tool","tool_call_id":%q,"content":%s}]}`, model, weatherTool, q, content, callID, a, callID, res)
}

// TestToolRoundTripNullContent sends a tool call back with content null
// or without content, as OpenAI clients do, through every fixture
// template that takes the conversation with an empty content: each
// renders the prompt of the empty content. Before null meant empty,
// templates that test or join the content (Qwen3, Phi-3.5, Granite,
// gpt-oss, ...) failed with a 400.
func TestToolRoundTripNullContent(t *testing.T) {
	fixtures := loadTemplateFixtures(t)
	models := modelLoader{}
	tms := map[string]*templateModel{}
	for _, f := range fixtures {
		tm := newTemplateModel(t, f, "ok", "")
		models[f.id], tms[f.id] = tm, tm
	}
	ts := startModels(t, models)
	tested := map[string]bool{}
	for _, f := range fixtures {
		tm := tms[f.id]
		status, body, _ := ts.do(t, http.MethodPost, "/v1/chat/completions", roundTripChat(f.id, `""`, "a1b2c3d4e", weatherArgs))
		if status != http.StatusOK {
			t.Logf("%s: skipped, the template refuses the conversation itself: %s", f.id, body)
			continue
		}
		want := tm.lastPrompt()
		for _, content := range []string{"null", ""} {
			status, body, _ := ts.do(t, http.MethodPost, "/v1/chat/completions", roundTripChat(f.id, content, "a1b2c3d4e", weatherArgs))
			if status != http.StatusOK {
				t.Errorf("%s, content %q: %d %s", f.id, content, status, body)
				continue
			}
			if got := tm.lastPrompt(); got != want {
				t.Errorf("%s, content %q: prompt\n%q\nwant the prompt of an empty content\n%q", f.id, content, got, want)
			}
		}
		tested[f.id] = true
	}
	for _, id := range []string{"tokenizer_config-qwen3", "tokenizer_config-llama3", "meta-llama-Llama-3.1-8B-Instruct", "microsoft-Phi-3.5-mini-instruct", "openai-gpt-oss-120b"} {
		if !tested[id] {
			t.Errorf("%s was not tested", id)
		}
	}
}

// responsesTool is weatherTool in the shape of the Responses API.
const responsesTool = `{"type":"function","name":"get_weather","description":"Get the current weather for a city.","parameters":` + weatherParams + `}`

// TestResponsesToolRoundTrip sends the round trip to the Responses API,
// as typed input items (function_call and function_call_output), and as
// an output that follows a response with a tool call through
// previous_response_id: both render the prompt of the chat completion
// with an empty assistant content.
func TestResponsesToolRoundTrip(t *testing.T) {
	cases := []struct {
		fixture, format, reply string
	}{
		{"tokenizer_config-qwen3", "hermes", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + weatherArgs + "}\n</tool_call>"},
		{"meta-llama-Llama-3.1-8B-Instruct", "llama3", "{\"name\": \"get_weather\", \"parameters\": " + weatherArgs + "}"},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			tm := newTemplateModel(t, templateFixtureByID(t, c.fixture), c.reply, c.format)
			ts := startModels(t, modelLoader{"m": tm})
			q, _ := json.Marshal(weatherQuestion)
			args, _ := json.Marshal(weatherArgs)
			res, _ := json.Marshal(weatherResult)

			ts.post(t, "/v1/chat/completions", roundTripChat("m", `""`, "a1b2c3d4e", weatherArgs), http.StatusOK, nil)
			want := tm.lastPrompt()
			ts.createResponse(t, `{"model":"m","max_output_tokens":4,"tools":[`+responsesTool+`],"input":[`+
				`{"role":"user","content":`+string(q)+`},`+
				`{"type":"function_call","call_id":"a1b2c3d4e","name":"get_weather","arguments":`+string(args)+`},`+
				`{"type":"function_call_output","call_id":"a1b2c3d4e","output":`+string(res)+`}]}`)
			if got := tm.lastPrompt(); got != want {
				t.Errorf("typed input: prompt\n%q\nwant\n%q", got, want)
			}

			r1 := ts.createResponse(t, `{"model":"m","tools":[`+responsesTool+`],"input":`+string(q)+`}`)
			if len(r1.Output) != 1 || r1.Output[0].Type != "function_call" {
				t.Fatalf("the first response is not one function call: %+v", r1.Output)
			}
			call := r1.Output[0]
			ts.post(t, "/v1/chat/completions", roundTripChat("m", `""`, call.CallID, call.Arguments), http.StatusOK, nil)
			want = tm.lastPrompt()
			ts.createResponse(t, `{"model":"m","max_output_tokens":4,"tools":[`+responsesTool+`],"previous_response_id":"`+r1.ID+`",`+
				`"input":[{"type":"function_call_output","call_id":"`+call.CallID+`","output":`+string(res)+`}]}`)
			if got := tm.lastPrompt(); got != want {
				t.Errorf("previous_response_id: prompt\n%q\nwant\n%q", got, want)
			}
		})
	}
}
