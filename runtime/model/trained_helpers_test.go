package model_test

import (
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/model"
)

// buildTrained builds a model of testdata/trained from its Hugging Face
// directory, its config changed by edit (nil for none), and returns it
// with its tensors, open until the test ends.
func buildTrained(t *testing.T, name string, edit func(*config.Model)) (*model.Model, *safetensors.Model) {
	t.Helper()
	dir := fixture.Path(t, "trained", name)
	cfg, err := config.FromHFDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(cfg)
	}
	st, err := safetensors.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := model.Build(cfg, model.SafetensorsSource{M: st, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return m, st
}
