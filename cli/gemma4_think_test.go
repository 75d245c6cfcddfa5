package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/tui"
)

// gemma4Markers are Gemma 4's special tokens that the chat template and
// the answers use, given to unused special tokens of the trained model's
// vocabulary.
var gemma4Markers = []string{"<|turn>", "<turn|>", "<|channel>", "<channel|>", "<|tool_call>", "<tool_call|>"}

// gemma4Variant is the trained gemma4 model with Gemma 4's chat template,
// and Gemma 4's markers as special tokens in place of ids 3 and on.
func gemma4Variant(t *testing.T) string {
	t.Helper()
	src := fixture.Path(t, "trained", "gemma4")
	var tok map[string]any
	if err := readJSONFile(filepath.Join(src, "tokenizer.json"), "tokenizer", &tok); err != nil {
		t.Fatal(err)
	}
	vocab := tok["model"].(map[string]any)["vocab"].(map[string]any)
	added := tok["added_tokens"].([]any)
	for i, m := range gemma4Markers {
		a := added[3+i].(map[string]any)
		delete(vocab, a["content"].(string))
		a["content"] = m
		vocab[m] = a["id"]
	}
	tokJSON, err := json.Marshal(tok)
	if err != nil {
		t.Fatal(err)
	}
	var tmpl struct {
		Template string `json:"template"`
	}
	if err := readJSONFile(filepath.Join("..", "models", "chat", "testdata", "templates", "google-gemma-4-31B-it.json"),
		"template", &tmpl); err != nil {
		t.Fatal(err)
	}
	return variant(t, src, map[string]string{"tokenizer.json": string(tokJSON), "chat_template.jinja": tmpl.Template})
}

// scriptedEngine is a loaded engine whose answer is a given text: its
// tokens are decoded as the engine decodes what it samples, the special
// ones dropped unless the request keeps them.
type scriptedEngine struct {
	*runtime.Engine
	answer string
	req    runtime.Request // the last request
}

func (s *scriptedEngine) Generate(_ context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	s.req = req
	tok := s.Chat().Tokenizer()
	ids := s.Chat().Encode(s.answer)
	for _, id := range ids {
		if err := emit(runtime.Event{Tokens: []int32{id}, Text: tok.Decode([]int32{id}, !req.KeepSpecial)}); err != nil {
			return runtime.Result{}, err
		}
	}
	return runtime.Result{Finish: runtime.FinishStop, Usage: runtime.Usage{Prompt: len(req.Prompt), Completion: len(ids)}}, nil
}

// TestGemma4ThoughtShown checks that pipe mode and the terminal chat show
// Gemma 4's thought channel as they show other models' <think> text: the
// request keeps the channel's special tokens, and the reasoning comes
// inside <think>…</think> before the answer.
func TestGemma4ThoughtShown(t *testing.T) {
	dir := gemma4Variant(t)
	e, err := runtime.Load(t.Context(), dir, runtime.Options{Threads: 1, Ctx: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if ids := e.Chat().Encode("<|channel>"); len(ids) != 1 || !e.Chat().Tokenizer().IsSpecial(int(ids[0])) {
		t.Fatalf("<|channel> is %v, want one special token", ids)
	}
	s := &scriptedEngine{Engine: e, answer: "<|channel>thought\n3 plus 4 is 7.<channel|>3+4 equals 7.<turn|>"}
	const want = "<think>\n3 plus 4 is 7.\n</think>\n\n3+4 equals 7."

	cmd := newRunCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(io.Discard)
	if err := pipeAnswer(t.Context(), cmd, s, "Think step by step: what is 3+4?", runOptions{}); err != nil {
		t.Fatal(err)
	}
	if !s.req.KeepSpecial || out.String() != want+"\n" {
		t.Errorf("pipe mode: special tokens kept %v, output %q; want %q", s.req.KeepSpecial, out.String(), want+"\n")
	}

	g := newChatGenerator(s, sample.Defaults())
	var text strings.Builder
	msgs := []tui.Message{{Role: tui.RoleUser, Content: "Think step by step: what is 3+4?"}}
	if _, err := g.Chat(t.Context(), tui.ChatRequest{Messages: msgs, Settings: tui.Settings{Think: true, MaxTokens: 32}},
		func(d tui.Delta) error {
			text.WriteString(d.Text)
			return nil
		}); err != nil {
		t.Fatal(err)
	}
	if !s.req.KeepSpecial || text.String() != want {
		t.Errorf("chat: special tokens kept %v, text %q; want %q", s.req.KeepSpecial, text.String(), want)
	}
	if opt := chatOptions(e, dir, g, runOptions{}); !opt.Settings.Think {
		t.Error("thinking is off by default for Gemma 4's template, which knows enable_thinking")
	}
}
