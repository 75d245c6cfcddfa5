package server

import (
	"strings"
	"testing"
)

// TestValidation sends bad requests: each gets its status and an OpenAI
// error body naming the parameter.
func TestValidation(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	f.ctxLen = 64
	chat := "/v1/chat/completions"
	comp := "/v1/completions"
	long := strings.Repeat("x", 100)
	cases := []struct {
		name, path, body string
		status           int
		param, code      string
	}{
		{"malformed json", chat, `{"model":`, 400, "", "invalid_json"},
		{"not an object", chat, `[1]`, 400, "", "invalid_json"},
		{"missing model", chat, `{` + userHi + `}`, 400, "model", "missing_required_parameter"},
		{"unknown model", chat, `{"model":"nope",` + userHi + `}`, 404, "model", "model_not_found"},
		{"missing messages", chat, `{"model":"m"}`, 400, "messages", "missing_required_parameter"},
		{"empty messages", chat, `{"model":"m","messages":[]}`, 400, "messages", "invalid_value"},
		{"bad role", chat, `{"model":"m","messages":[{"role":"robot","content":"x"}]}`, 400, "messages[0].role", "invalid_value"},
		{"content type", chat, `{"model":"m","messages":[{"role":"user","content":5}]}`, 400, "messages[0].content", "invalid_type"},
		{"image part", chat, `{"model":"m","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`, 400, "messages[0].content[0].type", "unsupported_parameter"},
		{"user without content", chat, `{"model":"m","messages":[{"role":"user"}]}`, 400, "messages[0].content", "missing_required_parameter"},
		{"tool without id", chat, `{"model":"m","messages":[{"role":"tool","content":"x"}]}`, 400, "messages[0].tool_call_id", "missing_required_parameter"},
		{"temperature type", chat, `{"model":"m",` + userHi + `,"temperature":"hot"}`, 400, "temperature", "invalid_type"},
		{"temperature range", chat, `{"model":"m",` + userHi + `,"temperature":2.5}`, 400, "temperature", "invalid_value"},
		{"top_p range", chat, `{"model":"m",` + userHi + `,"top_p":1.5}`, 400, "top_p", "invalid_value"},
		{"n zero", chat, `{"model":"m",` + userHi + `,"n":0}`, 400, "n", "invalid_value"},
		{"n float", chat, `{"model":"m",` + userHi + `,"n":1.5}`, 400, "n", "invalid_type"},
		{"max_tokens zero", chat, `{"model":"m",` + userHi + `,"max_tokens":0}`, 400, "max_tokens", "invalid_value"},
		{"max_completion_tokens", chat, `{"model":"m",` + userHi + `,"max_completion_tokens":-1}`, 400, "max_completion_tokens", "invalid_value"},
		{"presence", chat, `{"model":"m",` + userHi + `,"presence_penalty":3}`, 400, "presence_penalty", "invalid_value"},
		{"frequency", chat, `{"model":"m",` + userHi + `,"frequency_penalty":-3}`, 400, "frequency_penalty", "invalid_value"},
		{"too many stops", chat, `{"model":"m",` + userHi + `,"stop":["a","b","c","d","e"]}`, 400, "stop", "invalid_value"},
		{"stop null entry", chat, `{"model":"m",` + userHi + `,"stop":[null]}`, 400, "stop", "invalid_type"},
		{"stop number entry", chat, `{"model":"m",` + userHi + `,"stop":["a",5]}`, 400, "stop", "invalid_type"},
		{"enable_thinking type", chat, `{"model":"m",` + userHi + `,"chat_template_kwargs":{"enable_thinking":"x"}}`, 400, "chat_template_kwargs.enable_thinking", "invalid_type"},
		{"top_k above vocabulary", chat, `{"model":"m",` + userHi + `,"top_k":1000000000000}`, 400, "top_k", "invalid_value"},
		{"top_k at vocabulary", chat, `{"model":"m",` + userHi + `,"top_k":259}`, 200, "", ""},
		{"stop type", chat, `{"model":"m",` + userHi + `,"stop":5}`, 400, "stop", "invalid_type"},
		{"logit_bias key", chat, `{"model":"m",` + userHi + `,"logit_bias":{"x":1}}`, 400, "logit_bias", "invalid_value"},
		{"logit_bias value", chat, `{"model":"m",` + userHi + `,"logit_bias":{"5":101}}`, 400, "logit_bias", "invalid_value"},
		{"logit_bias vocab", chat, `{"model":"m",` + userHi + `,"logit_bias":{"100000":1}}`, 400, "logit_bias", "invalid_value"},
		{"top_logprobs range", chat, `{"model":"m",` + userHi + `,"logprobs":true,"top_logprobs":21}`, 400, "top_logprobs", "invalid_value"},
		{"top_logprobs needs logprobs", chat, `{"model":"m",` + userHi + `,"top_logprobs":2}`, 400, "top_logprobs", "invalid_value"},
		{"stream_options without stream", chat, `{"model":"m",` + userHi + `,"stream_options":{"include_usage":true}}`, 400, "stream_options", "invalid_value"},
		{"seed type", chat, `{"model":"m",` + userHi + `,"seed":"x"}`, 400, "seed", "invalid_type"},
		{"response_format type", chat, `{"model":"m",` + userHi + `,"response_format":{"type":"xml"}}`, 400, "response_format.type", "invalid_value"},
		{"json_schema missing", chat, `{"model":"m",` + userHi + `,"response_format":{"type":"json_schema"}}`, 400, "response_format.json_schema", "missing_required_parameter"},
		{"json_object needs json", chat, `{"model":"m",` + userHi + `,"response_format":{"type":"json_object"}}`, 400, "messages", "invalid_value"},
		{"tool type", chat, `{"model":"m",` + userHi + `,"tools":[{"type":"code","function":{"name":"f"}}]}`, 400, "tools[0].type", "invalid_value"},
		{"tool name", chat, `{"model":"m",` + userHi + `,"tools":[{"type":"function","function":{"name":"a b"}}]}`, 400, "tools[0].function.name", "invalid_value"},
		{"tool_choice without tools", chat, `{"model":"m",` + userHi + `,"tool_choice":"auto"}`, 400, "tool_choice", "invalid_value"},
		{"tool_choice unknown", chat, `{"model":"m",` + userHi + `,` + tools + `,"tool_choice":{"type":"function","function":{"name":"x"}}}`, 400, "tool_choice.function.name", "invalid_value"},
		{"tool_choice word", chat, `{"model":"m",` + userHi + `,` + tools + `,"tool_choice":"always"}`, 400, "tool_choice", "invalid_value"},
		{"top_k", chat, `{"model":"m",` + userHi + `,"top_k":-2}`, 400, "top_k", "invalid_value"},
		{"min_p", chat, `{"model":"m",` + userHi + `,"nvext":{"min_p":2}}`, 400, "min_p", "invalid_value"},
		{"repetition_penalty", chat, `{"model":"m",` + userHi + `,"repetition_penalty":0}`, 400, "repetition_penalty", "invalid_value"},
		{"min over max", chat, `{"model":"m",` + userHi + `,"min_tokens":5,"max_tokens":2}`, 400, "min_tokens", "invalid_value"},
		{"stop_token_ids vocab", chat, `{"model":"m",` + userHi + `,"stop_token_ids":[99999]}`, 400, "stop_token_ids", "invalid_value"},
		{"annotations", chat, `{"model":"m",` + userHi + `,"annotations":["colour"]}`, 400, "annotations", "invalid_value"},
		{"nvext type", chat, `{"model":"m",` + userHi + `,"nvext":{"top_k":"x"}}`, 400, "nvext.top_k", "invalid_type"},
		{"continue needs assistant", chat, `{"model":"m",` + userHi + `,"continue_final_message":true}`, 400, "continue_final_message", "invalid_value"},
		{"template failure", chat, `{"model":"m","messages":[{"role":"user","content":"FAIL_TEMPLATE"}]}`, 400, "messages", "invalid_value"},
		{"context length", chat, `{"model":"m","messages":[{"role":"user","content":"` + long + `"}]}`, 400, "messages", "context_length_exceeded"},
		{"suffix", comp, `{"model":"m","prompt":"a","suffix":"b"}`, 400, "suffix", "unsupported_parameter"},
		{"missing prompt", comp, `{"model":"m"}`, 400, "prompt", "missing_required_parameter"},
		{"empty prompt list", comp, `{"model":"m","prompt":[]}`, 400, "prompt", "invalid_value"},
		{"prompt type", comp, `{"model":"m","prompt":{"a":1}}`, 400, "prompt", "invalid_type"},
		{"mixed prompt", comp, `{"model":"m","prompt":[1,"a"]}`, 400, "prompt", "invalid_type"},
		{"token out of vocab", comp, `{"model":"m","prompt":[1,100000]}`, 400, "prompt", "invalid_value"},
		{"negative token", comp, `{"model":"m","prompt":[[1,-1]]}`, 400, "prompt[0]", "invalid_value"},
		{"logprobs range", comp, `{"model":"m","prompt":"a","logprobs":6}`, 400, "logprobs", "invalid_value"},
		{"best_of below n", comp, `{"model":"m","prompt":"a","n":3,"best_of":2}`, 400, "best_of", "invalid_value"},
		{"best_of stream", comp, `{"model":"m","prompt":"a","best_of":2,"stream":true}`, 400, "best_of", "invalid_value"},
		{"completion context", comp, `{"model":"m","prompt":"` + long + `"}`, 400, "prompt", "context_length_exceeded"},
		{"truncated fits", comp, `{"model":"m","prompt":"` + long + `","truncate_prompt_tokens":10}`, 200, "", ""},
		{"unknown field ignored", comp, `{"model":"m","prompt":"a","whatever":{"x":1}}`, 200, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, b, _ := ts.do(t, "POST", c.path, c.body)
			if status != c.status {
				t.Fatalf("status %d, want %d: %s", status, c.status, b)
			}
			if c.status == 200 {
				return
			}
			e := decodeErr(t, b)
			param := ""
			if e.Error.Param != nil {
				param = *e.Error.Param
			}
			code := ""
			if e.Error.Code != nil {
				code = *e.Error.Code
			}
			if param != c.param || code != c.code || e.Error.Type != "invalid_request_error" {
				t.Errorf("param %q code %q type %q, want %q %q: %s", param, code, e.Error.Type, c.param, c.code, e.Error.Message)
			}
		})
	}
}

func TestContextErrorNamesBothLengths(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	f.ctxLen = 16
	_, b, _ := ts.do(t, "POST", "/v1/completions", `{"model":"m","prompt":"0123456789012345678901234"}`)
	msg := decodeErr(t, b).Error.Message
	if !strings.Contains(msg, "16") || !strings.Contains(msg, "26") {
		t.Errorf("message %q does not state the context (16) and the prompt (26 tokens)", msg)
	}
}
