//go:build !noasm

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// sameBits multiplies a random matrix of typ and shape c by random
// activations with the kernel sets a and b (named an and bn) and fails at
// the first output whose bits differ.
func sameBits(t *testing.T, rng *rand.Rand, typ DType, c packedCase, a, b *kernelSet, an, bn string) {
	t.Helper()
	w := randomMatrix(t, rng, typ, c.rows, c.cols)
	x := randFloats(rng, c.n*c.cols, 1)
	got := packedMatMul(t, a, w, x, c.n)
	want := packedMatMul(t, b, w, x, c.n)
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%v %dx%d n=%d: out[%d]: %s %v, %s %v", typ, c.rows, c.cols, c.n, i, an, got[i], bn, want[i])
		}
	}
}

// TestGemmKernelSetsIdentical checks that the AVX2 kernel set gives the
// same bits as the VNNI one for every packed format (the tile kernels
// compute the same integers and then the same float operations, from the
// same quantized activations), when this CPU runs both, whatever MLX_CPU
// caps. Q8_0 matrices take the eight-row layout where VNNI runs, so the
// four-row Q8_0 kernels are checked on Q5_0 matrices, which are packed into
// that layout.
func TestGemmKernelSetsIdentical(t *testing.T) {
	if !hasVNNI || !hasAVX2 {
		t.Skip("this CPU does not run both the AVX2 and the VNNI tile kernels")
	}
	if fastKernels.gemm[Q4_0].one == nil {
		t.Skip("the kernels in use pack no weights (MLX_CPU=generic)")
	}
	rng := newRand(33)
	avx2, vnni := buildKernelSet(levelAVX2), buildKernelSet(levelVNNI)
	for _, typ := range []DType{Q4_0, Q5_0, MXFP4, Q4_K, Q6_K} {
		if avx2.gemm[typ].one == nil && typ != Q5_0 {
			t.Fatalf("%v: no AVX2 tile kernels", typ)
		}
		for _, c := range packedCasesFor(typ) {
			t.Run(fmt.Sprintf("%v/%dx%d/n=%d", typ, c.rows, c.cols, c.n), func(t *testing.T) {
				sameBits(t, rng, typ, c, &avx2, &vnni, "AVX2", "VNNI")
			})
		}
	}
}

// TestGemmTwoColumnsIdentical checks that the two-column MXFP4 kernels
// (VNNI and AVX2) give the same bits as the one-column kernel of their set
// run on each activation row, for batches that end in a pair after whole
// tiles of four and for matrices whose last group is padded.
func TestGemmTwoColumnsIdentical(t *testing.T) {
	if !hasAVX2 {
		t.Skip("this CPU does not run the AVX2 tile kernels")
	}
	// The sets themselves, not the kernels in use: MLX_CPU may cap those.
	sets := map[string]gemmSet{"avx2": gemmAVX2[MXFP4]}
	if hasVNNI {
		sets["vnni"] = gemmVNNI[MXFP4]
	}
	if hasVNNI && hasVBMI {
		sets["vbmi"] = gemmMXFP4VBMI
	}
	rng := newRand(35)
	for name, g := range sets {
		if g.two == nil {
			t.Fatalf("%s: no two-column MXFP4 kernel", name)
		}
		twos, ones := fastKernels, fastKernels
		twos.gemm[MXFP4] = g
		g.two = nil
		ones.gemm[MXFP4] = g
		for _, c := range []packedCase{{4, 64, 2}, {5, 96, 2}, {13, 320, 6}, {37, 2880, 2}, {9, 64, 10}, {16, 576, 18}, {7, 32, 3}} {
			sameBits(t, rng, MXFP4, c, &twos, &ones, name+" two columns", "one")
		}
	}
}

// TestGemmThreeColumnsIdentical checks that the three-column MXFP4
// kernels (VNNI and VBMI) give the same bits as their set without them
// (the wide kernel with a padding row), for batches that end in three
// rows after whole tiles of four and for matrices whose last group is
// padded.
func TestGemmThreeColumnsIdentical(t *testing.T) {
	if !hasVNNI {
		t.Skip("this CPU does not run the VNNI tile kernels")
	}
	// The sets themselves, not the kernels in use: MLX_CPU may cap those.
	sets := map[string]gemmSet{"vnni": gemmVNNI[MXFP4]}
	if hasVBMI {
		sets["vbmi"] = gemmMXFP4VBMI
	}
	rng := newRand(36)
	for name, g := range sets {
		if g.three == nil {
			t.Fatalf("%s: no three-column MXFP4 kernel", name)
		}
		threes, padded := fastKernels, fastKernels
		threes.gemm[MXFP4] = g
		g.three = nil
		padded.gemm[MXFP4] = g
		for _, c := range []packedCase{{4, 64, 3}, {5, 96, 3}, {13, 320, 7}, {37, 2880, 3}, {9, 64, 11}, {16, 576, 19}} {
			sameBits(t, rng, MXFP4, c, &threes, &padded, name+" three columns", "padded four")
		}
	}
}

// TestGemmGFNIIdentical checks that the Q4_0, Q4_K and Q6_K kernels that split
// nibbles with GFNI, and the MXFP4 ones that also look them up with VPERMB,
// give the same bits as those that shift and mask.
func TestGemmGFNIIdentical(t *testing.T) {
	if !hasGFNI {
		t.Skip("this CPU does not run the GFNI kernels")
	}
	rng := newRand(34)
	plain := fastKernels
	plain.gemm[Q4_0] = gemmVNNI[Q4_0]
	plain.gemm[Q4_K] = gemmQ4_KVNNI
	plain.gemm[Q6_K] = gemmQ6_KVNNI
	plain.gemm[MXFP4] = gemmVNNI[MXFP4]
	cases := append([]packedCase{{5, 256, 3}, {9, 768, 6}, {4, 1024, 1}}, packedCases...)
	for _, typ := range []DType{Q4_0, Q4_K, Q6_K, MXFP4} {
		if typ == MXFP4 && !hasVBMI {
			continue
		}
		for _, c := range cases {
			if c.cols%typ.blockElems() != 0 {
				continue
			}
			sameBits(t, rng, typ, c, &fastKernels, &plain, "GFNI", "shift and mask")
		}
	}
}

// BenchmarkGemmTile times the tile kernels on one thread, with a matrix
// that stays in cache (128 rows: the instruction throughput) and with one
// that does not, for a decode step of 8 sequences and a prefill chunk
// (SetBytes: weight bytes times activation rows).
func BenchmarkGemmTile(b *testing.B) {
	rng := newRand(34)
	for _, typ := range []DType{Q8_0, Q4_0} {
		for _, c := range []struct{ rows, n int }{{128, 8}, {128, 64}, {6144, 8}, {6144, 64}} {
			rows, n := c.rows, c.n
			b.Run(fmt.Sprintf("%v/%dx576/n=%d", typ, rows, n), func(b *testing.B) {
				w := randomMatrix(b, rng, typ, rows, 576)
				x := randFloats(rng, n*576, 1)
				out := make([]float32, n*rows)
				p := NewPool(1)
				defer p.Close()
				p.MatMul(w, x, n, out)
				b.SetBytes(int64(len(w.Data) * n))
				best := time.Duration(math.MaxInt64)
				for b.Loop() {
					t0 := time.Now()
					p.MatMul(w, x, n, out)
					best = min(best, time.Since(t0))
				}
				// The fastest call: on a shared machine, the one least
				// slowed by other processes.
				b.ReportMetric(float64(best.Nanoseconds()), "min-ns/call")
			})
		}
	}
}
