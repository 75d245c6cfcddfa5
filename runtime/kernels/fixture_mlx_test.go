package kernels

import (
	"fmt"
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
// MatMul against float64 math on those weights: the float kernels
// (SetAffineInt8(false)) within 1e-5 of Σ|w·x| per output, as the other
// float formats, and the default integer path, whose activations are
// quantized to 8 bits as for Q4_0, within the Q4_0 bound (2e-2; the
// largest error measured on this fixture is about 5e-3).
func TestFixtureMLXAffine(t *testing.T) {
	for _, int8 := range []bool{false, true} {
		t.Run(fmt.Sprintf("int8=%v", int8), func(t *testing.T) {
			withAffineInt8(t, int8)
			checkFixtureMLX(t, int8)
		})
	}
}

// checkFixtureMLX is TestFixtureMLXAffine with the integer path on or off.
func checkFixtureMLX(t *testing.T, int8 bool) {
	t.Helper()
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
			bound := matmulBound(MLXAffine)
			if tiles := fastKernels.gemm[Q4_0].one != nil; (w.packed != nil) != (int8 && tiles) {
				t.Fatalf("%s: repacked = %v with the integer path %v (tile kernels: %v)", base, w.packed != nil, int8, tiles)
			}
			if w.packed != nil {
				bound = matrixBound(w)
			}
			checkMatMul(t, w, got, x, 2, out, bound)
		}
		n++
	}
	if n != 15 {
		t.Errorf("checked %d quantized matrices, the fixture has 15", n)
	}
}
