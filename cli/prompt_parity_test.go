package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server"
	"github.com/mlxrun/mlx/tui"
)

// recorded keeps the requests given to an engine instead of running them.
type recorded struct {
	mu   sync.Mutex
	reqs []runtime.Request
}

func (r *recorded) Generate(_ context.Context, req runtime.Request, _ func(runtime.Event) error) (runtime.Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
	return runtime.Result{Finish: runtime.FinishStop}, nil
}

// last returns the last request and forgets them all.
func (r *recorded) last(t *testing.T) runtime.Request {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) != 1 {
		t.Fatalf("%d requests reached the engine, want 1", len(r.reqs))
	}
	req := r.reqs[0]
	r.reqs = nil
	return req
}

// recordingEngine is the terminal chat's engine, recording.
type recordingEngine struct {
	*runtime.Engine
	*recorded
}

func (e recordingEngine) Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	return e.recorded.Generate(ctx, req, emit)
}

// recordingModel is the server's model, recording.
type recordingModel struct {
	*server.EngineModel
	*recorded
}

func (m recordingModel) Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	return m.recorded.Generate(ctx, req, emit)
}

func (m recordingModel) Close() error { return nil }

type oneModel struct{ m server.Model }

func (l oneModel) Load(context.Context, string) (server.Model, error) { return l.m, nil }

// variant copies the fixture model directory src into a temporary one,
// linking its files and writing files over them.
func variant(t *testing.T, src string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok {
			if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Skip("no symbolic links:", err)
			}
		}
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// withBOS is src's tokenizer_config.json with add_bos_token set.
func withBOS(t *testing.T, src string) string {
	t.Helper()
	var cfg map[string]any
	b, err := os.ReadFile(filepath.Join(src, "tokenizer_config.json"))
	if err == nil {
		err = json.Unmarshal(b, &cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg["add_bos_token"] = true
	out, _ := json.Marshal(cfg)
	return string(out)
}

// TestOnePromptEverywhere gives one conversation to pipe mode, the
// terminal chat and the HTTP APIs (chat completions, Responses, and
// completions with the client's rendering), and checks that each gives
// the engine the same token ids and the same sampling parameters.
func TestOnePromptEverywhere(t *testing.T) {
	llama := fixture.Path(t, "models", "llama-tiny")
	qwen := fixture.Path(t, "models", "qwen3-tiny")
	models := []struct {
		name, path string
		bos        bool // the prompt starts with BOS, written by the template or added
	}{
		// The template writes <|im_start|>, which is this vocabulary's BOS.
		{"add_bos_token, template writes BOS", variant(t, llama, map[string]string{"tokenizer_config.json": withBOS(t, llama)}), true},
		{"add_bos_token, template without BOS", variant(t, llama, map[string]string{
			"tokenizer_config.json": withBOS(t, llama),
			"chat_template.jinja":   "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}assistant:{% endif %}",
		}), true},
		{"repetition_penalty in generation_config", variant(t, qwen, map[string]string{
			"generation_config.json": `{"repetition_penalty": 3.0, "temperature": 0.6, "top_k": 20, "do_sample": true}`,
		}), false},
		{"GGUF", fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf"), true},
	}
	const system, user, maxTokens = "Be brief.", "Write a haiku about the sea.", 8
	for _, m := range models {
		t.Run(m.name, func(t *testing.T) {
			e, err := runtime.Load(t.Context(), m.path, runtime.Options{Threads: 1, Ctx: 256})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			rec := &recorded{}
			got := map[string]runtime.Request{}

			cmd := newRunCmd()
			if err := cmd.ParseFlags([]string{"--max-tokens", "8", "--system", system}); err != nil {
				t.Fatal(err)
			}
			o := runOptions{maxTokens: maxTokens, system: system}
			pipe, err := pipeRequest(t.Context(), cmd, e.Chat(), user, o)
			if err != nil {
				t.Fatal(err)
			}
			got["pipe"] = pipe

			g := newChatGenerator(recordingEngine{e, rec}, runParams(cmd.Flags(), o, e.Chat()))
			settings := chatOptions(g.e, m.path, g, o).Settings
			if _, err := g.Chat(t.Context(), tui.ChatRequest{Settings: settings, Messages: []tui.Message{
				{Role: tui.RoleSystem, Content: system}, {Role: tui.RoleUser, Content: user}}}, func(tui.Delta) error { return nil }); err != nil {
				t.Fatal(err)
			}
			got["terminal chat"] = rec.last(t)

			em, err := server.NewEngineModel(e)
			if err != nil {
				t.Fatal(err)
			}
			url := serveOne(t, recordingModel{em, rec})
			post(t, url+"/v1/chat/completions", map[string]any{"model": "m", "max_tokens": maxTokens,
				"messages": []map[string]string{{"role": "system", "content": system}, {"role": "user", "content": user}}})
			got["chat completions"] = rec.last(t)
			post(t, url+"/v1/responses", map[string]any{"model": "m", "max_output_tokens": maxTokens, "store": false,
				"instructions": system, "input": user})
			got["responses"] = rec.last(t)
			prompt, err := e.Chat().Render(t.Context(), chat.Input{AddGenerationPrompt: true, Messages: []chat.Message{
				{Role: "system", Content: chat.Text(system)}, {Role: "user", Content: chat.Text(user)}}}, "")
			if err != nil {
				t.Fatal(err)
			}
			post(t, url+"/v1/completions", map[string]any{"model": "m", "max_tokens": maxTokens, "prompt": prompt})
			got["completions"] = rec.last(t)

			want := got["pipe"]
			bos := int32(e.Tokenizer().BOS())
			if starts := len(want.Prompt) > 1 && want.Prompt[0] == bos; starts != m.bos || (starts && want.Prompt[1] == bos) {
				t.Errorf("pipe mode's prompt starts %v, want BOS first: %v, once", want.Prompt[:2], m.bos)
			}
			if defaults := e.Chat().Defaults(); want.Params.Temperature != defaults.Temperature ||
				want.Params.RepetitionPenalty != defaults.RepetitionPenalty || want.Params.TopK != defaults.TopK {
				t.Errorf("pipe mode samples with %+v, not the model's defaults %+v", want.Params, defaults)
			}
			for name, req := range got {
				if !reflect.DeepEqual(req.Prompt, want.Prompt) {
					t.Errorf("%s gives the prompt\n%v\npipe mode\n%v", name, req.Prompt, want.Prompt)
				}
				if !reflect.DeepEqual(req.Params, want.Params) {
					t.Errorf("%s samples with\n%+v\npipe mode with\n%+v", name, req.Params, want.Params)
				}
			}
		})
	}
}

// serveOne serves m on a local port and returns its address.
func serveOne(t *testing.T, m server.Model) string {
	t.Helper()
	s := server.New(oneModel{m}, server.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	return "http://" + ln.Addr().String()
}

// post sends a JSON request and fails the test unless it succeeds.
func post(t *testing.T, url string, body any) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	out.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %s", url, resp.StatusCode, out.String())
	}
}

// TestBrokenTemplate loads a model whose chat template does not compile:
// the engine loads (raw prompts still work), and pipe mode and the server
// refuse to render with the template.
func TestBrokenTemplate(t *testing.T) {
	dir := variant(t, fixture.Path(t, "models", "llama-tiny"), map[string]string{"chat_template.jinja": "{% if %}"})
	e, err := runtime.Load(t.Context(), dir, runtime.Options{Threads: 1, Ctx: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !errors.Is(e.Chat().Err(), chat.ErrTemplate) {
		t.Fatalf("chat model error %v, want %v", e.Chat().Err(), chat.ErrTemplate)
	}
	cmd := newRunCmd()
	if _, err := pipeRequest(t.Context(), cmd, e.Chat(), "hi", runOptions{}); !errors.Is(err, chat.ErrTemplate) {
		t.Errorf("pipe mode: %v, want %v", err, chat.ErrTemplate)
	}
	if req, err := pipeRequest(t.Context(), cmd, e.Chat(), "hi", runOptions{raw: true}); err != nil || len(req.Prompt) == 0 {
		t.Errorf("pipe mode with --raw: %v, %v", req.Prompt, err)
	}
	if _, err := server.NewEngineModel(e); !errors.Is(err, chat.ErrTemplate) {
		t.Errorf("server: %v, want %v", err, chat.ErrTemplate)
	}
}
