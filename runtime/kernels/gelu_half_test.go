package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGELUHalfTable checks the table GELU bit for bit against the element
// formula: on every half, on random values across the table's range and
// its ends (lengths that leave partial blocks), and on NaN and infinities.
func TestGELUHalfTable(t *testing.T) {
	var x []float32
	for h := range 1 << 16 {
		x = append(x, f16ToF32(uint16(h)))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		x = append(x, float32(rng.NormFloat64()*6))
	}
	x = append(x, -10, 10, float32(math.Nextafter32(10, 0)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 9.999)
	for _, n := range []int{len(x), 1, 255, 257, 1000} {
		got := append([]float32(nil), x[len(x)-n:]...)
		want := append([]float32(nil), got...)
		GELUHalf(got)
		geluHalfRef(want)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Fatalf("n=%d: GELUHalf(%v) = %v, want %v", n, x[len(x)-n+i], got[i], want[i])
			}
		}
	}
}

// TestGELUHalfEntries checks table entries against ggml's own, read from
// llama.cpp's GELU outputs: halves in the negative tail, where the sum
// 1 + tanh cancels and a float64 formula gives other halves.
func TestGELUHalfEntries(t *testing.T) {
	for _, c := range []struct{ x, want float32 }{
		{-0x1.b6p+1, -0x1.b54p-11},
		{-0x1.0c4p+2, -0x1.c9p-16},
		{-0x1.128p+2, -0x1.12p-16},
		{-0x1.514p+2, float32(math.Copysign(0, -1))},
		{-0x1.ddp+1, -0x1.fdp-13},
		{-0x1.eap+1, -0x1.45cp-13},
	} {
		x := []float32{c.x}
		GELUHalf(x)
		if math.Float32bits(x[0]) != math.Float32bits(c.want) {
			t.Errorf("GELUHalf(%v) = %v, llama.cpp's %v", c.x, x[0], c.want)
		}
	}
}

// BenchmarkGELUHalf times one row of a BERT-base MLP.
func BenchmarkGELUHalf(b *testing.B) {
	x := make([]float32, 3072)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 3)
	}
	y := make([]float32, len(x))
	b.SetBytes(int64(4 * len(x)))
	b.ReportAllocs()
	for b.Loop() {
		copy(y, x)
		GELUHalf(y)
	}
}
