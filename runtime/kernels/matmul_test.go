package kernels

import (
	"fmt"
	"math"
	"testing"
)

// matmulBound is the tolerance, relative to Σ|w·x|, of MatMul against float64
// math on the dequantized weights: activation quantization to 8 bits costs
// about 1/254 of each activation's block maximum.
func matmulBound(t DType) float64 {
	switch t.act() {
	case actF32:
		return 1e-5
	}
	return 2e-2
}

// matrixBound is matmulBound for w as the kernels in use compute it: MLX
// 4-bit weights repacked for the Q4_0 tile kernels quantize their
// activations.
func matrixBound(w *Matrix) float64 {
	if w.actFor(impl()) != actF32 {
		return 2e-2
	}
	return matmulBound(w.Type)
}

func TestMatMulAgainstFloat(t *testing.T) {
	rng := newRand(5)
	for _, typ := range allTypes {
		for _, threads := range []int{1, 3} {
			for _, n := range []int{1, 2, 5} {
				t.Run(fmt.Sprintf("%v/threads=%d/n=%d", typ, threads, n), func(t *testing.T) {
					rows, cols := 37, 512
					w := randomMatrix(t, rng, typ, rows, cols)
					wf := dequantMatrix(w)
					x := randFloats(rng, n*cols, 1)
					out := make([]float32, n*rows+1)
					out[n*rows] = 12345
					p := NewPool(threads)
					defer p.Close()
					p.MatMul(w, x, n, out)
					if out[n*rows] != 12345 {
						t.Fatal("MatMul wrote past n*Rows")
					}
					checkMatMul(t, w, wf, x, n, out, matrixBound(w))
				})
			}
		}
	}
}

func checkMatMul(t *testing.T, w *Matrix, wf, x []float32, n int, out []float32, tol float64) {
	t.Helper()
	for i := range n {
		xi := x[i*w.Cols : (i+1)*w.Cols]
		for r := range w.Rows {
			wr := wf[r*w.Cols : (r+1)*w.Cols]
			want := dot64(wr, xi)
			if got := float64(out[i*w.Rows+r]); !closeTo(got, want, absSum(wr, xi), tol) || math.IsNaN(got) {
				t.Fatalf("%v out[%d,%d] = %v, want %v (±%v)", w.Type, i, r, got, want, tol*absSum(wr, xi))
			}
		}
	}
}

func TestMatMulSecondCallSameResult(t *testing.T) {
	rng := newRand(6)
	w := randomMatrix(t, rng, Q4_K, 64, 256)
	x := randFloats(rng, 3*256, 1)
	p := NewPool(2)
	defer p.Close()
	a, b := make([]float32, 3*64), make([]float32, 3*64)
	p.MatMul(w, x, 3, a)
	p.MatMul(w, x, 3, b)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("out[%d]: %v then %v", i, a[i], b[i])
		}
	}
}

func TestMatMulAfterClose(t *testing.T) {
	rng := newRand(7)
	w := randomMatrix(t, rng, Q8_0, 20, 64)
	x := randFloats(rng, 64, 1)
	p := NewPool(4)
	p.Close()
	p.Close()
	out := make([]float32, 20)
	p.MatMul(w, x, 1, out)
	checkMatMul(t, w, dequantMatrix(w), x, 1, out, matmulBound(Q8_0))
}

// TestMatMulsMatchesMatMul checks that matrices computed together (one
// quantization of the shared input, one pass of the pool) give the same
// bits as one MatMul each, for sets that share the form of their
// activations and sets that do not.
func TestMatMulsMatchesMatMul(t *testing.T) {
	rng := newRand(8)
	sets := [][]DType{
		{Q4_0, Q4_0, Q4_0},
		{Q4_0, Q8_0},
		{Q4_K, Q6_K, Q4_K},
		{Q8_0, F16},
		{MLXAffine, MLXAffine},
		{F32, BF16, F16},
	}
	for _, set := range sets {
		for _, n := range []int{1, 5} {
			t.Run(fmt.Sprintf("%v/n=%d", set, n), func(t *testing.T) {
				cols := 512
				x := randFloats(rng, n*cols, 1)
				var ws []*Matrix
				var outs [][]float32
				for i, typ := range set {
					ws = append(ws, randomMatrix(t, rng, typ, 24+13*i, cols))
					outs = append(outs, make([]float32, n*ws[i].Rows))
				}
				p := NewPool(3)
				defer p.Close()
				p.MatMuls(ws, x, n, outs)
				for i, w := range ws {
					want := make([]float32, n*w.Rows)
					p.MatMul(w, x, n, want)
					for k := range want {
						if math.Float32bits(outs[i][k]) != math.Float32bits(want[k]) {
							t.Fatalf("matrix %d (%v) out[%d] = %v together, %v alone", i, w.Type, k, outs[i][k], want[k])
						}
					}
				}
			})
		}
	}
}
