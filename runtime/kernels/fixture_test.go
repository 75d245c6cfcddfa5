package kernels

import (
	"math"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/gguf"
)

// openGGUF opens a fixture GGUF file, closed at the end of the test.
func openGGUF(t *testing.T, name string) *gguf.File {
	t.Helper()
	f, err := gguf.Open(fixture.Path(t, "gguf", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// ggufMatrix wraps a 2-D fixture tensor as a Matrix.
func ggufMatrix(t *testing.T, f *gguf.File, ti *gguf.TensorInfo) *Matrix {
	t.Helper()
	typ, ok := FromGGML(uint32(ti.Type))
	if !ok || len(ti.Dims) != 2 {
		t.Fatalf("%s: %v with dims %v is not a kernel matrix", ti.Name, ti.Type, ti.Dims)
	}
	w, err := NewMatrix(Matrix{Type: typ, Rows: int(ti.Dims[1]), Cols: int(ti.Dims[0]), Data: f.TensorData(ti)})
	if err != nil {
		t.Fatalf("%s: %v", ti.Name, err)
	}
	return w
}

// TestFixtureRowMatchesDecode compares Row, which reads the packed copy
// where NewMatrix made one, with Decode of the file's bytes on every 2-D
// tensor of the quantized fixtures.
func TestFixtureRowMatchesDecode(t *testing.T) {
	files := []string{"llama-tiny-Q8_0.gguf", "llama-tiny-Q4_0.gguf", "llama-k256-Q4_K_M.gguf", "llama-k256-Q6_K.gguf", "llama-tiny-F16.gguf"}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			f := openGGUF(t, name)
			seen := map[DType]bool{}
			for i := range f.Tensors {
				ti := &f.Tensors[i]
				if len(ti.Dims) != 2 {
					continue
				}
				w := ggufMatrix(t, f, ti)
				seen[w.Type] = true
				if testing.Short() {
					w.Rows = min(w.Rows, 64) // the first rows (slow emulators)
				}
				want := make([]float32, w.Rows*w.Cols)
				if err := Decode(w.Type, f.TensorData(ti)[:w.Rows*w.rowBytes()], want); err != nil {
					t.Fatalf("%s: %v", ti.Name, err)
				}
				got := dequantMatrix(w)
				for k := range got {
					if d := math.Abs(float64(got[k] - want[k])); d > 1e-6*math.Abs(float64(want[k]))+1e-9 {
						t.Fatalf("%s %v element %d: Row %v, Decode %v", ti.Name, w.Type, k, got[k], want[k])
					}
				}
			}
			t.Logf("types seen: %v", seen)
		})
	}
}

// TestFixtureQuantizedNearOriginal checks the decoders against the original
// weights: each quantized tensor must be close to the same tensor of a more
// precise file (F32 for llama-tiny; Q6_K for the Q4_K tensors of llama-k256).
// A wrong layout gives a relative RMS error near 1.4.
func TestFixtureQuantizedNearOriginal(t *testing.T) {
	tests := []struct {
		file, ref string
		maxRel    float64
	}{
		{"llama-tiny-Q8_0.gguf", "llama-tiny-F32.gguf", 0.01},
		{"llama-tiny-Q4_0.gguf", "llama-tiny-F32.gguf", 0.15},
		{"llama-k256-Q4_K_M.gguf", "llama-k256-Q6_K.gguf", 0.15},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, ref := openGGUF(t, tt.file), openGGUF(t, tt.ref)
			compared := 0
			for i := range f.Tensors {
				ti := &f.Tensors[i]
				ri, ok := ref.Tensor(ti.Name)
				if len(ti.Dims) != 2 || !ok || ri.Type == ti.Type {
					continue
				}
				wq, wr := ggufMatrix(t, f, ti), ggufMatrix(t, ref, ri)
				if testing.Short() {
					wq.Rows, wr.Rows = min(wq.Rows, 64), min(wr.Rows, 64)
				}
				got, want := dequantMatrix(wq), dequantMatrix(wr)
				var se, ss float64
				for k := range got {
					d := float64(got[k] - want[k])
					se += d * d
					ss += float64(want[k]) * float64(want[k])
				}
				if rel := math.Sqrt(se / ss); rel > tt.maxRel {
					t.Errorf("%s (%v vs %v): relative RMS error %.3f > %.3f", ti.Name, ti.Type, ri.Type, rel, tt.maxRel)
				}
				compared++
			}
			if compared == 0 {
				t.Fatal("no tensor compared")
			}
		})
	}
}

// TestFixtureMatMul runs MatMul on real quantized layers against float64 math
// on the dequantized weights.
func TestFixtureMatMul(t *testing.T) {
	for _, tc := range []struct{ file, tensor string }{
		{"llama-tiny-Q4_0.gguf", "blk.0.ffn_down.weight"},
		{"llama-tiny-Q8_0.gguf", "blk.1.attn_q.weight"},
		{"llama-k256-Q4_K_M.gguf", "blk.0.ffn_up.weight"},
		{"llama-k256-Q6_K.gguf", "blk.1.ffn_down.weight"},
	} {
		t.Run(tc.file+"/"+tc.tensor, func(t *testing.T) {
			f := openGGUF(t, tc.file)
			ti, ok := f.Tensor(tc.tensor)
			if !ok {
				t.Fatalf("no tensor %s", tc.tensor)
			}
			w := ggufMatrix(t, f, ti)
			x := randFloats(newRand(11), 3*w.Cols, 1)
			out := make([]float32, 3*w.Rows)
			p := NewPool(2)
			defer p.Close()
			p.MatMul(w, x, 3, out)
			checkMatMul(t, w, dequantMatrix(w), x, 3, out, matmulBound(w.Type))
		})
	}
}
