package model_test

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/gemma4"
	_ "github.com/mlxrun/mlx/runtime/arch/phi3"
)

// randomSource has every tensor asked for, with small values drawn from
// the tensor's name.
type randomSource struct{}

func (randomSource) values(name string, n int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(name))
	s := h.Sum64()
	out := make([]float32, n)
	for i := range out {
		s = s*6364136223846793005 + 1442695040888963407
		out[i] = float32(int32(s>>33)) / (1 << 31) * 0.2
	}
	return out
}

func (r randomSource) Matrix(name string, rows, cols int) (*kernels.Matrix, error) {
	data := make([]byte, 4*rows*cols)
	for i, v := range r.values(name, rows*cols) {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	return kernels.NewMatrix(kernels.Matrix{Type: kernels.F32, Rows: rows, Cols: cols, Data: data})
}

func (r randomSource) Experts(name string, n, rows, cols int) ([]*kernels.Matrix, error) {
	out := make([]*kernels.Matrix, n)
	for e := range out {
		var err error
		if out[e], err = r.Matrix(fmt.Sprint(name, e), rows, cols); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r randomSource) Vector(name string, n int) ([]float32, error) {
	v := r.values(name, n)
	for i := range v {
		v[i]++ // norms and scalars near 1
	}
	return v, nil
}

func (randomSource) Has(string) bool { return true }
func (randomSource) Where() string   { return "random" }

// TestSyntheticLayers runs the layer options no trained fixture has (KV
// sharing, keys as values, double-wide MLPs, KV heads and head sizes of
// their own on full-attention layers, a mixture beside the dense MLP,
// LongRoPE) on random weights, and
// checks that a prompt computed at once and the same tokens computed one
// at a time give the same logits: every layer reads the keys and values
// its cache layer holds at every position.
func TestSyntheticLayers(t *testing.T) {
	gemma4 := func(edit func(*config.Model)) *config.Model {
		c := &config.Model{Source: config.SourceHF, Arch: "gemma4", VocabSize: 64, HiddenSize: 32, Layers: 6, Heads: 4,
			KVHeads: 2, HeadDim: 8, FFNSize: 48, ContextLength: 64, RMSNormEps: 1e-6, HiddenAct: "gelu_pytorch_tanh",
			RopeTheta: 1e6, RopeLocalTheta: 1e4, RopeDim: 8, TieEmbeddings: true, SlidingWindow: 4, SlidingPattern: 3,
			GlobalHeadDim: 16, GlobalKVHeads: 1, GlobalRopeDim: 4, RopeProportional: true, PerLayerInput: 4,
			PerLayerVocab: 64, BOS: -1}
		edit(c)
		return c
	}
	tests := []struct {
		name string
		cfg  *config.Model
	}{
		{"gemma4", gemma4(func(*config.Model) {})},
		{"gemma4 shared and k=v", gemma4(func(c *config.Model) { c.KVSharedLayers, c.KEqV, c.DoubleWideMLP = 3, true, true })},
		{"gemma4 experts", gemma4(func(c *config.Model) { c.MoE = config.MoE{Experts: 4, TopK: 2, FFNSize: 16, NormTopK: true} })},
		{"phi3 longrope", &config.Model{Source: config.SourceHF, Arch: "phi3", VocabSize: 64, HiddenSize: 32, Layers: 2,
			Heads: 4, KVHeads: 2, HeadDim: 8, FFNSize: 48, ContextLength: 64, RMSNormEps: 1e-5, HiddenAct: "silu",
			RopeTheta: 1e4, RopeDim: 6, BOS: -1, RopeScaling: config.RopeScaling{Type: config.RopeLongRope, Factor: 4,
				OriginalContext: 16, ShortFactor: []float32{1, 2, 3}, LongFactor: []float32{4, 5, 6}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			m, err := model.Build(tt.cfg, randomSource{})
			if err != nil {
				t.Fatal(err)
			}
			tokens := []int32{3, 17, 42, 5, 9, 33, 61, 2, 8, 19}
			whole := run(t, m, tokens, len(tokens))
			steps := run(t, m, tokens, 1)
			for i := range whole {
				if math.IsNaN(float64(whole[i])) || math.Abs(float64(whole[i]-steps[i])) > 1e-4 {
					t.Fatalf("logit %d: %v at once, %v one token at a time", i, whole[i], steps[i])
				}
			}
		})
	}
}

// newState returns a state of m for batches of n rows, on two threads
// until the test ends, and a float32 cache that holds size positions.
func newState(t *testing.T, m *model.Model, n, size int) (*model.State, *kvcache.Cache) {
	t.Helper()
	pool := kernels.NewPool(2)
	t.Cleanup(pool.Close)
	s, err := m.NewState(pool, n, 1, 32)
	if err != nil {
		t.Fatal(err)
	}
	a, err := kvcache.NewArenaShapes(kvcache.F32, m.KVShapes(), 32, 1)
	if err != nil {
		t.Fatal(err)
	}
	kc := a.NewCache()
	if !kvcache.NewPool(a).Grow(kc, size) {
		t.Fatal("no cache block")
	}
	return s, kc
}

// run computes tokens in batches of n and returns the last row's logits.
func run(t *testing.T, m *model.Model, tokens []int32, n int) []float32 {
	t.Helper()
	s, kc := newState(t, m, n, len(tokens))
	var logits []float32
	var err error
	for lo := 0; lo < len(tokens); lo += n {
		b := &model.Batch{Out: []int{n - 1}}
		for i := lo; i < lo+n; i++ {
			b.Tokens, b.Pos, b.Cache = append(b.Tokens, tokens[i]), append(b.Pos, i), append(b.Cache, kc)
		}
		if logits, err = s.Forward(b); err != nil {
			t.Fatal(err)
		}
	}
	return append([]float32(nil), logits...)
}
