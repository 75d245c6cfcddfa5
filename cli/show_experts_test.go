package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestShowExperts checks that show prints the active parameters and the
// expert layout of a mixture of experts, as its config.json states them,
// and neither for a dense model.
func TestShowExperts(t *testing.T) {
	dir := fixture.Path(t, "trained", "qwen3-moe")
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Experts int `json:"num_local_experts"`
		TopK    int `json:"num_experts_per_tok"`
		FFN     int `json:"moe_intermediate_size"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "show", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"active parameters   ", " per token\n",
		fmt.Sprintf("experts             %d, %d per token, FFN %d each\n", c.Experts, c.TopK, c.FFN)} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	out, err = run(t, "show", fixture.Path(t, "models", "qwen3-tiny"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "experts") || strings.Contains(out, "active parameters") {
		t.Errorf("a dense model shows experts:\n%s", out)
	}
}
