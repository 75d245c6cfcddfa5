package kernels

import (
	"math"
	"testing"
)

// The tests in this file compare the kernels in use (fastKernels: assembly when
// the CPU has it) with the reference ones, over lengths 0–300, slices that
// start at unaligned offsets, and guard values around every output.

const guard = 8

var guardF32 = float32(math.Float32frombits(0x7fc0dead))

// guarded returns a slice of n values at offset off inside a larger buffer
// whose other elements hold a guard value, and a check for that guard.
func guarded(n, off int) ([]float32, func(t *testing.T)) {
	buf := make([]float32, off+n+guard)
	for i := range buf {
		buf[i] = guardF32
	}
	s := buf[off : off+n]
	return s, func(t *testing.T) {
		t.Helper()
		for i, v := range buf {
			if (i < off || i >= off+n) && math.Float32bits(v) != math.Float32bits(guardF32) {
				t.Fatalf("n=%d off=%d: element %d outside the output was written", n, off, i-off)
			}
		}
	}
}

func offsets(n int) []int {
	if n%37 == 0 {
		return []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	return []int{0, n % 8}
}

func requireFast(t *testing.T) {
	t.Helper()
	if fastKernels.name == "go" {
		t.Skip("no assembly kernels on this CPU or in this build")
	}
	t.Logf("kernels in use: %s", fastKernels.name)
}

func TestDotKernelsMatchReference(t *testing.T) {
	requireFast(t)
	rng := newRand(20)
	for n := 0; n <= 300; n++ {
		for _, off := range offsets(n) {
			a := randFloats(rng, n+off, 1)[off:]
			b := randFloats(rng, n+off, 1)[off:]
			h := make([]uint16, n+off)[off:]
			bf := make([]uint16, n+off)[off:]
			for i, v := range a {
				h[i], bf[i] = f32ToF16(v), f32ToBF16(v)
			}
			scale := absSum(a, b) + 1e-3
			for _, c := range []struct {
				name      string
				got, want float32
			}{
				{"Dot", fastKernels.dot(a, b), dotRef(a, b)},
				{"DotF16", fastKernels.dotF16(h, b), dotF16Ref(h, b)},
				{"DotBF16", fastKernels.dotBF16(bf, b), dotBF16Ref(bf, b)},
			} {
				if !closeTo(float64(c.got), float64(c.want), scale, 1e-6) {
					t.Fatalf("%s n=%d off=%d: %v, reference %v", c.name, n, off, c.got, c.want)
				}
			}
		}
	}
}

func TestAxpyKernelsMatchReference(t *testing.T) {
	requireFast(t)
	rng := newRand(21)
	for n := 0; n <= 300; n++ {
		for _, off := range offsets(n) {
			x := randFloats(rng, n, 1)
			y0 := randFloats(rng, n, 1)
			h := make([]uint16, n)
			for i, v := range x {
				h[i] = f32ToF16(v)
			}
			alpha := float32(rng.NormFloat64())
			for _, c := range []struct {
				name      string
				fast, ref func(y []float32)
			}{
				{"Axpy", func(y []float32) { fastKernels.axpy(alpha, x, y) }, func(y []float32) { axpyRef(alpha, x, y) }},
				{"AxpyF16", func(y []float32) { fastKernels.axpyF16(alpha, h, y) }, func(y []float32) { axpyF16Ref(alpha, h, y) }},
			} {
				got, check := guarded(n, off)
				copy(got, y0)
				c.fast(got)
				check(t)
				want := append([]float32(nil), y0...)
				c.ref(want)
				for i := range want {
					if !closeTo(float64(got[i]), float64(want[i]), math.Abs(float64(alpha*x[i]))+math.Abs(float64(y0[i])), 1e-6) {
						t.Fatalf("%s n=%d off=%d [%d]: %v, reference %v", c.name, n, off, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestConversionKernelsMatchReference(t *testing.T) {
	requireFast(t)
	rng := newRand(22)
	for n := 0; n <= 300; n++ {
		for _, off := range offsets(n) {
			src := randFloats(rng, n, 1e3)
			if n > 3 {
				src[0], src[1], src[2] = float32(math.Inf(1)), 1e-7, 70000
			}
			hbuf := make([]uint16, off+n+guard)
			for i := range hbuf {
				hbuf[i] = 0xdead
			}
			h := hbuf[off : off+n]
			fastKernels.f32ToF16(h, src)
			for i, v := range hbuf {
				inside := i >= off && i < off+n
				if inside && v != f32ToF16(src[i-off]) || !inside && v != 0xdead {
					t.Fatalf("F32ToF16 n=%d off=%d: element %d = %#04x", n, off, i-off, v)
				}
			}
			got, check := guarded(n, off)
			fastKernels.f16ToF32(got, h)
			check(t)
			for i := range got {
				if got[i] != f16ToF32(h[i]) {
					t.Fatalf("F16ToF32 n=%d off=%d [%d]: %v, want %v", n, off, i, got[i], f16ToF32(h[i]))
				}
			}
		}
	}
}
