package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/mlxrun/mlx/server/llamacpp"
	"github.com/mlxrun/mlx/server/openai"
)

// tokenIDs decodes the tokens of a /tokenize answer without pieces.
type tokenIDs struct {
	Tokens []int32 `json:"tokens"`
}

func TestTokenizeEndpoints(t *testing.T) {
	m := loadEngine(t, "models", "qwen3-tiny")
	ts := startModels(t, modelLoader{"q": m})
	tok := m.chat.Tokenizer()
	special, _ := tok.TokenID("<|im_start|>")
	const text = "Hello <|im_start|> wörld"

	var parsed, plain, mixed tokenIDs
	ts.post(t, "/tokenize", `{"model":"q","content":"`+text+`"}`, http.StatusOK, &parsed)
	if want := m.Tokenize(text, false); !slices.Equal(parsed.Tokens, want) || !slices.Contains(parsed.Tokens, int32(special)) {
		t.Errorf("tokenize: %v, want %v with <|im_start|> (%d)", parsed.Tokens, want, special)
	}
	ts.post(t, "/tokenize", `{"model":"q","content":"`+text+`","parse_special":false}`, http.StatusOK, &plain)
	if slices.Contains(plain.Tokens, int32(special)) || len(plain.Tokens) <= len(parsed.Tokens) {
		t.Errorf("parse_special false: %v still holds <|im_start|> as one token", plain.Tokens)
	}
	if got := m.Detokenize(plain.Tokens, false); got != text {
		t.Errorf("the plain tokens decode to %q", got)
	}
	ts.post(t, "/tokenize", fmt.Sprintf(`{"model":"q","content":["Hi",%d," there"]}`, special), http.StatusOK, &mixed)
	want := append(append(m.Tokenize("Hi", false), int32(special)), m.Tokenize(" there", false)...)
	if !slices.Equal(mixed.Tokens, want) {
		t.Errorf("mixed content: %v, want %v", mixed.Tokens, want)
	}

	var pieces struct {
		Tokens []struct {
			ID    int32           `json:"id"`
			Piece json.RawMessage `json:"piece"`
		} `json:"tokens"`
	}
	ts.post(t, "/tokenize", `{"model":"q","content":"`+text+`","with_pieces":true}`, http.StatusOK, &pieces)
	var joined string
	for i, p := range pieces.Tokens {
		var s string
		if err := json.Unmarshal(p.Piece, &s); err != nil {
			t.Fatalf("piece %d is not a string: %s", i, p.Piece)
		}
		if p.ID != parsed.Tokens[i] {
			t.Errorf("piece %d has id %d, want %d", i, p.ID, parsed.Tokens[i])
		}
		joined += s
	}
	if joined != text {
		t.Errorf("pieces join to %q, want %q", joined, text)
	}

	var de llamacpp.DetokenizeResponse
	ts.post(t, "/detokenize", fmt.Sprintf(`{"model":"q","tokens":%s}`, ids(parsed.Tokens)), http.StatusOK, &de)
	if de.Content != text {
		t.Errorf("detokenize: %q, want %q", de.Content, text)
	}
	b := ts.post(t, "/detokenize", `{"model":"q","tokens":[1,-5]}`, http.StatusBadRequest, nil)
	if e := decodeErr(t, b); e.Error.Param == nil || *e.Error.Param != "tokens" {
		t.Errorf("a negative id: %s", b)
	}
	ts.post(t, "/tokenize", `{"model":"q","content":[99999999]}`, http.StatusBadRequest, nil)
	ts.post(t, "/tokenize", `{"model":"q","content":{"a":1}}`, http.StatusBadRequest, nil)

	// Without a model name (llama.vim sends a blank one), the one loaded
	// model answers.
	var bare tokenIDs
	ts.post(t, "/tokenize", `{"model":" ","content":"`+text+`"}`, http.StatusOK, &bare)
	if !slices.Equal(bare.Tokens, parsed.Tokens) {
		t.Errorf("without model: %v", bare.Tokens)
	}
}

func TestTokenizeAddSpecialAndBytes(t *testing.T) {
	ts, f := startFake(t, "x", Options{}) // its tokenizer adds BOS (1); one token per byte
	ts.post(t, "/tokenize", `{"model":"m","content":"warm up"}`, http.StatusOK, nil)
	var with, without, mixed tokenIDs
	ts.post(t, "/tokenize", `{"model":"m","content":"hi","add_special":true}`, http.StatusOK, &with)
	ts.post(t, "/tokenize", `{"model":"m","content":"hi"}`, http.StatusOK, &without)
	if !slices.Equal(with.Tokens, f.Tokenize("hi", true)) || !slices.Equal(without.Tokens, f.Tokenize("hi", false)) {
		t.Errorf("add_special: %v, without: %v", with.Tokens, without.Tokens)
	}
	ts.post(t, "/tokenize", `{"model":"m","content":[7,"hi"],"add_special":true}`, http.StatusOK, &mixed)
	if want := append([]int32{7}, f.Tokenize("hi", false)...); !slices.Equal(mixed.Tokens, want) {
		t.Errorf("a content that starts with an id gets no BOS: %v, want %v", mixed.Tokens, want)
	}
	b := ts.post(t, "/tokenize", `{"model":"m","content":"é","with_pieces":true}`, http.StatusOK, nil)
	if want := fmt.Sprintf(`{"tokens":[{"id":%d,"piece":[195]},{"id":%d,"piece":[169]}]}`, 195+fakeOffset, 169+fakeOffset); string(b) != want {
		t.Errorf("pieces of the bytes of é: %s, want %s", b, want)
	}
	ts.post(t, "/tokenize", `{"model":"m","content":"hi","parse_special":false}`, http.StatusBadRequest, nil)
}

func TestPieceBytes(t *testing.T) {
	b, err := json.Marshal([]llamacpp.Bytes{"ok", "\xc3"})
	if err != nil || string(b) != `["ok",[195]]` {
		t.Errorf("pieces %s (%v): a piece that is not UTF-8 must be its bytes", b, err)
	}
}

func TestApplyTemplate(t *testing.T) {
	m := loadEngine(t, "models", "qwen3-tiny")
	ts := startModels(t, modelLoader{"q": m})
	body := `{"model":"q","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}`
	var out llamacpp.ApplyTemplateResponse
	ts.post(t, "/apply-template", body, http.StatusOK, &out)
	want, err := m.RenderChat(context.Background(), []ChatMessage{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Hi"}},
		ChatOptions{AddGenerationPrompt: true})
	if err != nil || out.Prompt != want {
		t.Errorf("apply-template: %q, want %q (%v)", out.Prompt, want, err)
	}
	// The prompt is the one generation uses: its tokens are the chat's.
	var chat openai.ChatCompletion
	ts.post(t, "/v1/chat/completions", `{"model":"q","max_tokens":1,"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}`, http.StatusOK, &chat)
	if n := len(m.EncodePrompt(out.Prompt)); chat.Usage == nil || chat.Usage.PromptTokens != n {
		t.Errorf("chat prompt tokens %+v, the applied template has %d", chat.Usage, n)
	}
	var bare llamacpp.ApplyTemplateResponse
	ts.post(t, "/apply-template", `{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}`, http.StatusOK, &bare)
	if bare.Prompt != out.Prompt {
		t.Errorf("without model: %q", bare.Prompt)
	}
	ts.post(t, "/apply-template", `{"model":"q"}`, http.StatusBadRequest, nil)
}

func TestDefaultModelNeedsOne(t *testing.T) {
	ts, _ := startFake(t, "x", Options{})
	b := ts.post(t, "/tokenize", `{"content":"hi"}`, http.StatusBadRequest, nil)
	if e := decodeErr(t, b); e.Error.Param == nil || *e.Error.Param != "model" {
		t.Errorf("no model loaded: %s", b)
	}
}

func TestResponsesInputTokens(t *testing.T) {
	m := loadEngine(t, "models", "qwen3-tiny")
	ts := startModels(t, modelLoader{"q": m})
	var got openai.InputTokens
	ts.post(t, "/v1/responses/input_tokens", `{"model":"q","instructions":"Be brief.","input":"Hi"}`, http.StatusOK, &got)
	var resp openai.Response
	ts.post(t, "/v1/responses", `{"model":"q","instructions":"Be brief.","input":"Hi","max_output_tokens":1,"store":false}`, http.StatusOK, &resp)
	if got.Object != "response.input_tokens" || resp.Usage == nil || got.InputTokens != resp.Usage.InputTokens || got.InputTokens == 0 {
		t.Errorf("input_tokens %+v, the response used %+v", got, resp.Usage)
	}
	ts.post(t, "/v1/responses/input_tokens", `{"model":"nope","input":"Hi"}`, http.StatusNotFound, nil)
	status, _, _ := ts.do(t, http.MethodGet, "/v1/responses/input_tokens", "")
	if status != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", status)
	}
}

// ids writes token ids as a JSON array.
func ids(list []int32) string {
	b, _ := json.Marshal(list)
	return string(b)
}
