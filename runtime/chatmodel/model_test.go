package chatmodel

import (
	"testing"

	"github.com/mlxrun/mlx/models/config"
)

func TestGenerationDefaults(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	no := false
	cases := []struct {
		name        string
		gen         config.Generation
		temp, top_p float64
	}{
		{"none", config.Generation{}, 1, 1},
		{"qwen3", config.Generation{Temperature: f(0.6), TopP: f(0.95)}, 0.6, 0.95},
		{"greedy", config.Generation{DoSample: &no, Temperature: f(0.7)}, 0, 1},
		{"out of range", config.Generation{Temperature: f(9)}, 1, 1},
	}
	for _, c := range cases {
		p := Defaults(c.gen)
		if p.Temperature != c.temp || p.TopP != c.top_p {
			t.Errorf("%s: temperature %g top_p %g", c.name, p.Temperature, p.TopP)
		}
	}
}
