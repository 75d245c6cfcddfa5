package model_test

import (
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/gptoss"
)

// openGptOss opens the trained gpt-oss model's config and weights, closed
// when the test ends.
func openGptOss(t *testing.T) (*config.Model, *safetensors.Model, string) {
	t.Helper()
	dir := fixture.Path(t, "trained", "gpt-oss")
	cfg, err := config.FromHFDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := safetensors.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return cfg, st, dir
}

// TestGptOssParams counts the trained gpt-oss model's parameters: every
// value of its checkpoint (biases and sinks included), and for a token,
// those less the experts it is not routed to.
func TestGptOssParams(t *testing.T) {
	cfg, st, dir := openGptOss(t)
	m, err := model.Build(cfg, model.SafetensorsSource{M: st, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var all, experts int64
	for _, name := range st.Names() {
		tn, _ := st.Tensor(name)
		n := int64(tn.Elements())
		all += n
		if strings.Contains(name, ".experts.") {
			experts += n
		}
	}
	active := all - experts/int64(cfg.MoE.Experts)*int64(cfg.MoE.Experts-cfg.MoE.TopK)
	if m.Params() != all || m.ActiveParams() != active {
		t.Errorf("Params() = %d, ActiveParams() = %d; the checkpoint holds %d, %d of them for a token", m.Params(), m.ActiveParams(), all, active)
	}
}
