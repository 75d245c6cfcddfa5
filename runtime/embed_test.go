package runtime

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// embedEngine loads a fixture with forward passes of at most batch rows.
func embedEngine(t *testing.T, batch int, elem ...string) *Engine {
	t.Helper()
	e, err := Load(context.Background(), fixture.Path(t, elem...), Options{Threads: 2, Ctx: 256, Batch: batch})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func embedInputs() [][]int32 {
	return [][]int32{{1, 5, 9, 200, 31, 7, 7, 64, 3, 18, 22}, {1, 40}, {1}, {1, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86}}
}

func mustEmbed(t *testing.T, e *Engine, inputs [][]int32, pooling string) [][]float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), inputs, pooling)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func maxDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(float64(a[i]-b[i])))
	}
	return d
}

// TestEmbedBatchingKeepsVectors checks that inputs embedded together, in
// forward passes whose rows mix inputs and split them, give the vectors
// they give alone, for every pooling, with the default half-precision
// cache (whose attention kernels differ between one sequence and several).
func TestEmbedBatchingKeepsVectors(t *testing.T) {
	e := embedEngine(t, 8, "gguf", "llama-tiny-F32.gguf")
	inputs := embedInputs()
	for _, p := range []string{config.PoolLast, config.PoolMean, config.PoolCLS, config.PoolNone} {
		all := mustEmbed(t, e, inputs, p)
		for i, in := range inputs {
			alone := mustEmbed(t, e, [][]int32{in}, p)[0]
			if d := maxDiff(all[i], alone); d > 1e-5 {
				t.Errorf("%s: input %d differs by %g batched and alone", p, i, d)
			}
		}
	}
	if used := e.kv.Used(); used != 0 {
		t.Errorf("%d KV blocks still used after embedding", used)
	}
}

// TestEmbedIsOutputLayerInput checks that the last-token embedding is the
// input of the output layer: multiplied by it, it gives the logits Score
// reports for that position (with a float32 cache, where both take the
// same attention path).
func TestEmbedIsOutputLayerInput(t *testing.T) {
	e := loadEngine(t, kvcache.F32, "gguf", "llama-tiny-F32.gguf")
	in := embedInputs()[0]
	h := mustEmbed(t, e, [][]int32{in}, config.PoolLast)[0]
	var want []float32
	err := e.Score(context.Background(), in, len(in)-1, func(_ int, logits []float32) error {
		want = append([]float32(nil), logits...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float32, len(want))
	e.pool.MatMul(e.model.Output, h, 1, got)
	if d := maxDiff(got, want); d > 1e-4 {
		t.Errorf("output layer of the embedding differs from the logits by %g", d)
	}
}

// TestEmbedPoolings checks the poolings against the vectors of every token:
// mean is their mean, cls the first, last the last, and in a causal model
// the vector of token k is the last-token embedding of the first k+1.
func TestEmbedPoolings(t *testing.T) {
	e := embedEngine(t, 0, "models", "qwen3-tiny")
	in := embedInputs()[3]
	hid := e.Config().HiddenSize
	rows := mustEmbed(t, e, [][]int32{in}, config.PoolNone)[0]
	if len(rows) != len(in)*hid {
		t.Fatalf("none pooling gave %d values for %d tokens of %d", len(rows), len(in), hid)
	}
	mean := make([]float32, hid)
	for k := range in {
		for d := range hid {
			mean[d] += rows[k*hid+d] / float32(len(in))
		}
	}
	checks := map[string][]float32{config.PoolMean: mean, config.PoolCLS: rows[:hid], config.PoolLast: rows[len(rows)-hid:]}
	for p, want := range checks {
		if d := maxDiff(mustEmbed(t, e, [][]int32{in}, p)[0], want); d > 1e-5 {
			t.Errorf("%s pooling differs from the token vectors by %g", p, d)
		}
	}
	prefix := mustEmbed(t, e, [][]int32{in[:5]}, config.PoolLast)[0]
	if d := maxDiff(prefix, rows[4*hid:5*hid]); d > 1e-5 {
		t.Errorf("token 4's vector differs from the embedding of the first 5 tokens by %g", d)
	}
	if e.Pooling() != config.PoolLast {
		t.Errorf("a decoder without a pooling pools %q, want last", e.Pooling())
	}
}

// TestEmbedRefusesBadInput checks the errors of inputs the engine cannot
// embed.
func TestEmbedRefusesBadInput(t *testing.T) {
	e := embedEngine(t, 0, "gguf", "llama-tiny-F32.gguf")
	long := make([]int32, 257)
	tests := []struct {
		name    string
		inputs  [][]int32
		pooling string
		want    error
	}{
		{"none", nil, config.PoolLast, ErrInvalidRequest},
		{"empty", [][]int32{{1}, {}}, config.PoolLast, ErrInvalidRequest},
		{"long", [][]int32{long}, config.PoolLast, ErrContextLength},
		{"id", [][]int32{{1, -3}}, config.PoolLast, ErrInvalidRequest},
		{"vocab", [][]int32{{int32(e.Config().VocabSize)}}, config.PoolLast, ErrInvalidRequest},
		{"pooling", [][]int32{{1}}, "max", ErrInvalidRequest},
		{"rank", [][]int32{{1}}, config.PoolRank, ErrInvalidRequest},
	}
	for _, tt := range tests {
		if _, err := e.Embed(context.Background(), tt.inputs, tt.pooling); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	v := []float32{3, 4}
	Normalize(v)
	if math.Abs(float64(v[0])-0.6) > 1e-7 || math.Abs(float64(v[1])-0.8) > 1e-7 {
		t.Errorf("normalised (3, 4) is %v", v)
	}
	z := []float32{0, 0}
	Normalize(z)
	if z[0] != 0 || z[1] != 0 {
		t.Errorf("normalised zero is %v", z)
	}
}

// TestPoolingOption checks that Options.Pooling replaces the model's
// pooling, and that Load refuses one it does not know.
func TestPoolingOption(t *testing.T) {
	path := fixture.Path(t, "gguf", "llama-tiny-F32.gguf")
	e, err := Load(context.Background(), path, Options{Threads: 1, Ctx: 64, Pooling: config.PoolMean})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Pooling() != config.PoolMean {
		t.Errorf("pooling %q, want mean", e.Pooling())
	}
	if _, err := Load(context.Background(), path, Options{Threads: 1, Ctx: 64, Pooling: "max"}); !errors.Is(err, ErrOptions) {
		t.Errorf("pooling max: %v, want ErrOptions", err)
	}
}
