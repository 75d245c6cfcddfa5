package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// reply is what a chat completion gives back, in the form the checks of
// the trained models compare.
type reply struct {
	Content, Reasoning, Finish string
	Calls                      []replyCall
}

// replyCall is one tool call; Arguments is canonical JSON (sorted keys).
type replyCall struct{ Name, Arguments string }

// String prints a reply for a mismatch message.
func (r reply) String() string {
	return fmt.Sprintf("content %q, reasoning_content %q, tool_calls %v, finish_reason %q", r.Content, r.Reasoning, r.Calls, r.Finish)
}

// equal reports whether two replies are the same.
func (r reply) equal(o reply) bool {
	if r.Content != o.Content || r.Reasoning != o.Reasoning || r.Finish != o.Finish || len(r.Calls) != len(o.Calls) {
		return false
	}
	for i := range r.Calls {
		if r.Calls[i] != o.Calls[i] {
			return false
		}
	}
	return true
}

// wantReply is how the server should split an expected answer of
// cases.json (fixture.SplitAnswer), with the finish reason it implies.
func wantReply(answer string) (reply, error) {
	a, err := fixture.SplitAnswer(answer)
	r := reply{Content: a.Text, Reasoning: a.Reasoning, Finish: "stop"}
	for _, c := range a.Calls {
		r.Calls, r.Finish = append(r.Calls, replyCall{c.Name, c.Arguments}), "tool_calls"
	}
	return r, err
}

// wireMessage is the message or delta of a chat completion choice.
type wireMessage struct {
	Content          *string `json:"content"`
	ReasoningContent *string `json:"reasoning_content"`
	ToolCalls        []struct {
		Index    int `json:"index"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// wireChoice is one choice of a chat completion or of a chunk.
type wireChoice struct {
	Message      wireMessage `json:"message"`
	Delta        wireMessage `json:"delta"`
	FinishReason *string     `json:"finish_reason"`
}

// replyBuilder gathers a reply from a whole message or from stream deltas.
type replyBuilder struct {
	r    reply
	args []string
}

func (b *replyBuilder) add(m wireMessage, finish *string) {
	if m.Content != nil {
		b.r.Content += *m.Content
	}
	if m.ReasoningContent != nil {
		b.r.Reasoning += *m.ReasoningContent
	}
	for _, c := range m.ToolCalls {
		for len(b.r.Calls) <= c.Index {
			b.r.Calls = append(b.r.Calls, replyCall{})
			b.args = append(b.args, "")
		}
		b.r.Calls[c.Index].Name += c.Function.Name
		b.args[c.Index] += c.Function.Arguments
	}
	if finish != nil {
		b.r.Finish = *finish
	}
}

func (b *replyBuilder) reply() reply {
	for i, a := range b.args {
		b.r.Calls[i].Arguments, _ = fixture.CanonicalJSON(a)
	}
	return b.r
}

// readReply decodes a chat completion response, streamed or not.
func readReply(resp *http.Response, stream bool) (reply, error) {
	var b replyBuilder
	if !stream {
		var body struct{ Choices []wireChoice }
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			return reply{}, err
		}
		if len(body.Choices) != 1 {
			return reply{}, fmt.Errorf("%d choices", len(body.Choices))
		}
		b.add(body.Choices[0].Message, body.Choices[0].FinishReason)
		return b.reply(), nil
	}
	sc := bufio.NewScanner(io.LimitReader(resp.Body, 1<<20))
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			return b.reply(), nil
		}
		var chunk struct{ Choices []wireChoice }
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return reply{}, fmt.Errorf("chunk %q: %w", data, err)
		}
		for _, c := range chunk.Choices {
			b.add(c.Delta, c.FinishReason)
		}
	}
	if err := sc.Err(); err != nil {
		return reply{}, err
	}
	return reply{}, fmt.Errorf("the stream ended without [DONE]")
}

func TestWantReply(t *testing.T) {
	tests := []struct {
		answer string
		want   reply
	}{
		{"Hello!", reply{Content: "Hello!", Finish: "stop"}},
		{"<think>\n3 plus 4 is 7.\n</think>\n\n3+4 equals 7.", reply{Content: "3+4 equals 7.", Reasoning: "3 plus 4 is 7.", Finish: "stop"}},
		{"<tool_call>\n{\"name\": \"f\", \"arguments\": {\"b\": 1, \"a\": \"x\"}}\n</tool_call>",
			reply{Finish: "tool_calls", Calls: []replyCall{{"f", `{"a":"x","b":1}`}}}},
	}
	for _, tt := range tests {
		got, err := wantReply(tt.answer)
		if err != nil || !got.equal(tt.want) {
			t.Errorf("wantReply(%q) = %v, %v; want %v", tt.answer, got, err, tt.want)
		}
	}
	for _, bad := range []string{"<think>\nno end", "<tool_call>\n{\"name\": 1}\n</tool_call>", "<tool_call>\n{}\n</tool_call> and more"} {
		if _, err := wantReply(bad); err == nil {
			t.Errorf("wantReply(%q) gives no error", bad)
		}
	}
}

func TestReadReplyStream(t *testing.T) {
	sse := `data: {"choices":[{"delta":{"role":"assistant","reasoning_content":"3 plus"}}]}

data: {"choices":[{"delta":{"reasoning_content":" 4 is 7."}}]}

data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}

data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": "}}]}}]}

data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]}

data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]
`
	got, err := readReply(&http.Response{Body: io.NopCloser(strings.NewReader(sse))}, true)
	want := reply{Reasoning: "3 plus 4 is 7.", Finish: "tool_calls", Calls: []replyCall{{"get_weather", `{"city":"Paris"}`}}}
	if err != nil || !got.equal(want) {
		t.Errorf("readReply = %v, %v; want %v", got, err, want)
	}
	if _, err := readReply(&http.Response{Body: io.NopCloser(strings.NewReader(sse[:200]))}, true); err == nil {
		t.Error("a stream without [DONE] gives no error")
	}
}
