package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/toolparse"
)

// engineModel serves a real (fixture) model through the production
// adapter, EngineModel; info may replace what it reports.
type engineModel struct {
	*EngineModel
	info ModelInfo
}

var engines sync.Map // fixture path → *engineModel, loaded once per test binary

// loadEngine returns the fixture model at elem (under the shared test
// data), loaded once with a small context and kept for the whole run.
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
	em, err := NewEngineModel(e)
	if err != nil {
		t.Fatalf("chat model of %s: %v", path, err)
	}
	m := &engineModel{EngineModel: em, info: em.Info()}
	engines.Store(path, m)
	return m
}

// with returns a model that reports another tool call syntax.
func (m *engineModel) with(f toolparse.Format) *engineModel {
	cp := *m
	cp.info.ToolFormat = f
	return &cp
}

// Info reports the model's description, with what the test replaced.
func (m *engineModel) Info() ModelInfo { return m.info }

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
