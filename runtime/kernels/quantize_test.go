package kernels

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestQuantizeQ8Blocks checks the properties that define ggml's activation
// quantization: the scale, the rounding of every value to nearest even, the
// Q8_1 sum and the Q8_K block sums.
func TestQuantizeQ8Blocks(t *testing.T) {
	rng := newRand(3)
	for _, a := range []actKind{actQ8_0, actQ8_1, actQ8_K} {
		for _, cols := range []int{256, 512} {
			x := randFloats(rng, cols, 2)
			x[5] = 0 // a zero element
			if a == actQ8_K {
				clear(x[256:]) // an all-zero super-block
			} else {
				clear(x[32:64]) // an all-zero block
			}
			b := make([]byte, a.rowBytes(cols))
			refKernels.quantize[a](b, x)
			checkQ8(t, a, b, x)
		}
	}
}

func checkQ8(t *testing.T, a actKind, b []byte, x []float32) {
	t.Helper()
	n, bb, off := qk, q8_0, 2
	switch a {
	case actQ8_1:
		bb, off = q8_1, 4
	case actQ8_K:
		n, bb, off = qkK, q8K, 4
	}
	for blk := range len(x) / n {
		y, xs := b[blk*bb:(blk+1)*bb], x[blk*n:(blk+1)*n]
		amax, max := float32(0), float32(0)
		for _, v := range xs {
			if av := float32(math.Abs(float64(v))); av > amax {
				amax, max = av, v
			}
		}
		var id float32
		switch {
		case amax == 0:
		case a == actQ8_K:
			id = -127 / max
			if d := f32At(y); d != 1/id {
				t.Fatalf("%d block %d: d = %v, want %v", a, blk, d, 1/id)
			}
		default:
			id = 127 / amax
			if d := half(y); d != f16ToF32(f32ToF16(amax/127)) {
				t.Fatalf("%d block %d: d = %v, want fp16(%v)", a, blk, d, amax/127)
			}
		}
		var sum int32
		for j, v := range xs {
			want := math.RoundToEven(float64(v * id))
			want = math.Min(want, 127)
			if q := int8(y[off+j]); float64(q) != want {
				t.Fatalf("%d block %d elem %d: q = %d, want %v", a, blk, j, q, want)
			}
			sum += int32(int8(y[off+j]))
			if a == actQ8_K && j%16 == 15 {
				if bs := int16(binary.LittleEndian.Uint16(y[4+qkK+2*(j/16):])); int32(bs) != sum {
					t.Fatalf("Q8_K block %d: bsums[%d] = %d, want %d", blk, j/16, bs, sum)
				}
				sum = 0
			}
		}
		if a == actQ8_1 {
			if s := half(y[2:]); s != f16ToF32(f32ToF16(amax/127*float32(sum))) {
				t.Fatalf("Q8_1 block %d: s = %v, want fp16(d·%d)", blk, s, sum)
			}
		}
	}
}

// TestQDotMatchesDequantized checks every integer dot product against the
// float dot of the dequantized weights with the dequantized activations:
// both compute the same sum, up to float rounding (and the fp16 rounding of
// Q8_1's s).
func TestQDotMatchesDequantized(t *testing.T) {
	rng := newRand(4)
	for _, typ := range quantTypes {
		for _, cols := range []int{256, 768} {
			w := randomMatrix(t, rng, typ, 1, cols)
			a := typ.act()
			xs := a.rowBytes(cols)
			x := randFloats(rng, 4*cols, 1)
			xq := make([]byte, 4*xs)
			for i := range 4 {
				refKernels.quantize[a](xq[i*xs:], x[i*cols:(i+1)*cols])
			}
			wf := dequantMatrix(w)
			for nrows := 1; nrows <= 4; nrows++ {
				out := make([]float32, nrows)
				refKernels.qdot[typ](w.rowData(0), xq, xs, out)
				for i, got := range out {
					xf := dequantAct(a, xq[i*xs:], cols)
					want := dot64(wf, xf)
					if !closeTo(float64(got), want, absSum(wf, xf), 2e-4) {
						t.Errorf("%v cols=%d rows=%d: row %d = %v, want %v", typ, cols, nrows, i, got, want)
					}
				}
			}
		}
	}
}
