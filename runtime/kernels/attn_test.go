package kernels

import (
	"fmt"
	"math"
	"testing"
)

// blockCase is a cache block shape: n outputs, m rows of stride.
type blockCase struct{ n, m, stride int }

func blockCases() []blockCase {
	var cs []blockCase
	for _, n := range []int{0, 1, 7, 8, 9, 16, 31, 32, 33, 40, 64, 72, 130} {
		for _, m := range []int{0, 1, 2, 3, 63, 64, 65} {
			cs = append(cs, blockCase{n, m, n + n%3})
		}
	}
	return cs
}

// TestBlockKernelsMatchReference compares the attention block kernels in
// use with the reference ones, with guard values around the outputs.
func TestBlockKernelsMatchReference(t *testing.T) {
	requireFast(t)
	rng := newRand(41)
	for _, c := range blockCases() {
		t.Run(fmt.Sprintf("n=%d/m=%d/stride=%d", c.n, c.m, c.stride), func(t *testing.T) {
			size := max(0, (c.m-1)*c.stride+c.n)
			a := randFloats(rng, c.m, 1)
			f := randFloats(rng, size, 1)
			h := make([]uint16, size)
			for i, v := range f {
				h[i] = f32ToF16(v)
				f[i] = f16ToF32(h[i])
			}
			init := randFloats(rng, c.n, 1)
			ops := []struct {
				name string
				run  func(k *kernelSet, dst []float32)
			}{
				{"scoresF16", func(k *kernelSet, dst []float32) { k.scoresF16(dst, a, h, c.stride) }},
				{"scoresF32", func(k *kernelSet, dst []float32) { k.scoresF32(dst, a, f, c.stride) }},
				{"accumF16", func(k *kernelSet, dst []float32) { copy(dst, init); k.accumF16(dst, a, h, c.stride) }},
				{"accumF32", func(k *kernelSet, dst []float32) { copy(dst, init); k.accumF32(dst, a, f, c.stride) }},
			}
			for _, op := range ops {
				got, check := guarded(c.n, 1)
				op.run(&fastKernels, got)
				check(t)
				want := make([]float32, c.n)
				op.run(&refKernels, want)
				for i := range want {
					if !closeTo(float64(got[i]), float64(want[i]), float64(c.m)+2, 1e-6) {
						t.Fatalf("%s: dst[%d] = %v, reference %v", op.name, i, got[i], want[i])
					}
				}
			}
		})
	}
}

// TestHalfAccumulatorKernels checks AxpyHalf and ScaleHalf against float64
// math rounded once to half: the assembly and the reference may differ by
// the float32 rounding before it, so by one half ulp at most.
func TestHalfAccumulatorKernels(t *testing.T) {
	rng := newRand(42)
	for n := 0; n <= 300; n++ {
		for _, off := range offsets(n) {
			x := make([]uint16, n+off)[off:]
			y := make([]uint16, n+off+guard)[off:]
			for i := range y {
				y[i] = 0x7e55 // a NaN guard
			}
			for i := range n {
				x[i], y[i] = f32ToF16(float32(rng.NormFloat64())), f32ToF16(float32(rng.NormFloat64()))
			}
			alpha, s := float32(rng.NormFloat64()), float32(rng.Float64()*2)
			for _, op := range []string{"axpy", "scale"} {
				got := append([]uint16(nil), y...)
				want := make([]float64, n)
				for i := range n {
					if op == "axpy" {
						want[i] = float64(f16ToF32(y[i])) + float64(alpha)*float64(f16ToF32(x[i]))
					} else {
						want[i] = float64(f16ToF32(y[i])) * float64(s)
					}
				}
				if op == "axpy" {
					AxpyHalf(alpha, x, got[:n])
				} else {
					ScaleHalf(got[:n], s)
				}
				for i, v := range got {
					if i >= n {
						if v != 0x7e55 {
							t.Fatalf("%s n=%d: element %d past the end was written", op, n, i)
						}
						continue
					}
					g := float64(f16ToF32(v))
					if ulp := math.Max(math.Abs(want[i]), 6e-5) / 1024; math.Abs(g-want[i]) > ulp {
						t.Fatalf("%s n=%d element %d: %v, want %v", op, n, i, g, want[i])
					}
				}
			}
		}
	}
}

// TestAccumHalfMatchesAxpyHalf checks that the block kernel gives the same
// bits as one AxpyHalf per position, with guard values after acc.
func TestAccumHalfMatchesAxpyHalf(t *testing.T) {
	rng := newRand(43)
	for _, c := range blockCases() {
		size := max(0, (c.m-1)*c.stride+c.n)
		v := make([]uint16, size)
		for i := range v {
			v[i] = f32ToF16(float32(rng.NormFloat64()))
		}
		p := randFloats(rng, c.m, 0.3)
		got := make([]uint16, c.n+guard)
		for i := range got {
			got[i] = 0x7e55
		}
		for i := range c.n {
			got[i] = f32ToF16(float32(rng.NormFloat64()))
		}
		want := append([]uint16(nil), got[:c.n]...)
		AccumHalf(got[:c.n], p, v, c.stride)
		for tt, x := range p {
			AxpyHalf(x, v[tt*c.stride:], want)
		}
		for i, h := range got {
			if (i < c.n && h != want[i]) || (i >= c.n && h != 0x7e55) {
				t.Fatalf("n=%d m=%d: element %d = %#x, want %#x", c.n, c.m, i, h, append(want, 0x7e55)[min(i, c.n)])
			}
		}
	}
}
