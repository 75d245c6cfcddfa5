package kernels

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/safetensors"
)

func openST(t *testing.T, dir string) *safetensors.Model {
	t.Helper()
	m, err := safetensors.OpenDir(fixture.Path(t, "models", dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// TestFixtureMLXAffine checks Row on every quantized matrix of the MLX 4-bit
// fixture against its dequantized copy (bit-identical by construction), and
// MatMul against float64 math on those weights.
func TestFixtureMLXAffine(t *testing.T) {
	q, deq := openST(t, "llama-tiny-mlx-4bit"), openST(t, "llama-tiny-mlx-4bit-dequant")
	rng := rand.New(rand.NewPCG(12, 12))
	p := NewPool(2)
	defer p.Close()
	n := 0
	for _, name := range q.Names() {
		base, ok := strings.CutSuffix(name, ".scales")
		if !ok {
			continue
		}
		wt, _ := q.Tensor(base + ".weight")
		sc, _ := q.Tensor(base + ".scales")
		bi, _ := q.Tensor(base + ".biases")
		ref, ok := deq.Tensor(base + ".weight")
		if wt == nil || bi == nil || !ok {
			t.Fatalf("%s: incomplete quantized tensor", base)
		}
		w, err := NewMatrix(Matrix{Type: MLXAffine, Rows: ref.Shape[0], Cols: ref.Shape[1], Data: wt.Data,
			Bits: 4, GroupSize: 64, Scales: sc.Data, Biases: bi.Data, ScaleType: BF16})
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		got, want := dequantMatrix(w), asF32(ref.Data)
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("%s element %d: %v, want %v", base, k, got[k], want[k])
			}
		}
		if w.Rows <= 4096 {
			x := randFloats(rng, 2*w.Cols, 1)
			out := make([]float32, 2*w.Rows)
			p.MatMul(w, x, 2, out)
			checkMatMul(t, w, got, x, 2, out, matrixBound(w))
		}
		n++
	}
	if n != 15 {
		t.Errorf("checked %d quantized matrices, the fixture has 15", n)
	}
}
