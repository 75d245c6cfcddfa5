package server

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/toolparse"
)

// engineModel serves a real (fixture) model through runtime.Engine and
// the model's chat templates, for the tests of constrained output.
type engineModel struct {
	e    *runtime.Engine
	ts   *chat.Templates
	info ModelInfo
}

var engines sync.Map // fixture path → *engineModel, loaded once per test binary

// loadEngine returns the fixture model at elem (under the shared test
// data), loaded once with a small context and kept for the whole run.
// format, when set, replaces the tool call syntax the template teaches.
func loadEngine(t *testing.T, elem ...string) *engineModel {
	t.Helper()
	path := fixture.Path(t, elem...)
	if m, ok := engines.Load(path); ok {
		return m.(*engineModel)
	}
	e, err := runtime.Load(context.Background(), path, runtime.Options{Ctx: 1024, Threads: 1})
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	ts, err := chat.Load(path)
	if err != nil {
		t.Fatalf("chat templates of %s: %v", path, err)
	}
	in := e.Info()
	m := &engineModel{e: e, ts: ts, info: ModelInfo{Path: path, Format: in.Format, Arch: in.Arch, Context: in.Context,
		VocabSize: e.Config().VocabSize, Parallel: 1, Defaults: sample.Defaults(), ToolFormat: toolparse.Detect(ts.Default.Source)}}
	engines.Store(path, m)
	return m
}

// with returns a model that reports another tool call syntax.
func (m *engineModel) with(f toolparse.Format) *engineModel {
	cp := *m
	cp.info.ToolFormat = f
	return &cp
}

func (m *engineModel) Info() ModelInfo { return m.info }

func (m *engineModel) Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	return m.e.Generate(ctx, req, emit)
}

func (m *engineModel) Tokenize(text string, addSpecial bool) []int32 {
	ids := m.e.Tokenizer().Encode(text, addSpecial)
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}

func (m *engineModel) Detokenize(ids []int32, skipSpecial bool) string {
	in := make([]int, len(ids))
	for i, id := range ids {
		in[i] = int(id)
	}
	return m.e.Tokenizer().Decode(in, skipSpecial)
}

func (m *engineModel) RenderChat(msgs []ChatMessage, opt ChatOptions) (string, error) {
	return renderTemplates(m.ts, msgs, opt)
}

// renderTemplates renders messages with a model's chat templates, as the
// server's callers do.
func renderTemplates(ts *chat.Templates, msgs []ChatMessage, opt ChatOptions) (string, error) {
	data, err := json.Marshal(msgs)
	if err != nil {
		return "", err
	}
	cm, err := chat.ParseMessages(data)
	if err != nil {
		return "", err
	}
	in := chat.Input{Messages: cm, AddGenerationPrompt: opt.AddGenerationPrompt, Kwargs: opt.Kwargs}
	for _, tool := range opt.Tools {
		b, err := json.Marshal(tool)
		if err != nil {
			return "", err
		}
		in.Tools = append(in.Tools, b)
	}
	if opt.Template != "" {
		return chat.RenderSource(context.Background(), opt.Template, ts.Tokens, in)
	}
	return ts.Render(context.Background(), in)
}

// Close keeps the engine: it is shared by the tests.
func (m *engineModel) Close() error { return nil }

// modelLoader loads the models of a map by name.
type modelLoader map[string]Model

func (l modelLoader) Load(_ context.Context, ref string) (Model, error) {
	if m, ok := l[ref]; ok {
		return m, nil
	}
	return nil, runtime.ErrModelNotFound
}

// startModels serves real models; their requests get a long timeout, as
// a request samples many choices.
func startModels(t *testing.T, l modelLoader) *testServer {
	t.Helper()
	ts := start(t, l, Options{})
	ts.client.Timeout = 2 * time.Minute
	return ts
}
