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
