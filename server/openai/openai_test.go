package openai

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestErrorBody(t *testing.T) {
	cases := []struct {
		err  *Error
		want string
	}{
		{Invalid("n", CodeInvalidValue, "bad %d", 3), `{"error":{"message":"bad 3","type":"invalid_request_error","param":"n","code":"invalid_value"}}`},
		{ServerError(500, "", "boom"), `{"error":{"message":"boom","type":"server_error","param":null,"code":null}}`},
	}
	for _, c := range cases {
		if got := string(c.err.Body()); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

func TestParsePrompt(t *testing.T) {
	cases := []struct {
		in   string
		want []Prompt
	}{
		{`"hi"`, []Prompt{{Text: "hi", Param: "prompt"}}},
		{`["a","b"]`, []Prompt{{Text: "a", Param: "prompt[0]"}, {Text: "b", Param: "prompt[1]"}}},
		{`[1,2,3]`, []Prompt{{IDs: []int32{1, 2, 3}, Param: "prompt"}}},
		{`[[1],[2,3]]`, []Prompt{{IDs: []int32{1}, Param: "prompt[0]"}, {IDs: []int32{2, 3}, Param: "prompt[1]"}}},
	}
	for _, c := range cases {
		got, e := parsePrompt(json.RawMessage(c.in))
		if e != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parsePrompt(%s) = %+v, %v; want %+v", c.in, got, e, c.want)
		}
	}
}

func TestParseStop(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{`null`, nil},
		{`"x"`, []string{"x"}},
		{`["a","","b"]`, []string{"a", "b"}},
	}
	for _, c := range cases {
		got, e := parseStop(json.RawMessage(c.in))
		if e != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseStop(%s) = %q, %v; want %q", c.in, got, e, c.want)
		}
	}
}

func TestExtensionsMerge(t *testing.T) {
	r, e := ParseChat([]byte(`{"model":"m","messages":[{"role":"user","content":"x"}],"top_k":3,` +
		`"nvext":{"top_k":9,"min_p":0.2,"annotations":["timing"]}}`))
	if e != nil {
		t.Fatal(e)
	}
	if *r.TopK != 3 || *r.MinP != 0.2 || !r.Annotate(AnnotationTiming) || r.Annotate(AnnotationTokenIDs) {
		t.Errorf("top_k %d min_p %g annotations %v", *r.TopK, *r.MinP, r.Annotations)
	}
}

func TestToolChoice(t *testing.T) {
	tools := []Tool{{Type: "function", Function: FunctionDecl{Name: "f"}}}
	cases := []struct {
		raw   string
		tools []Tool
		want  ToolChoice
	}{
		{``, nil, ToolChoice{Mode: ToolChoiceNone}},
		{``, tools, ToolChoice{Mode: ToolChoiceAuto}},
		{`"required"`, tools, ToolChoice{Mode: ToolChoiceRequired}},
		{`{"type":"function","function":{"name":"f"}}`, tools, ToolChoice{Mode: ToolChoiceNamed, Function: "f"}},
	}
	for _, c := range cases {
		got, e := parseToolChoice(json.RawMessage(c.raw), c.tools)
		if e != nil || got != c.want {
			t.Errorf("parseToolChoice(%s) = %+v, %v; want %+v", c.raw, got, e, c.want)
		}
	}
}
