package kernels

import "testing"

// BenchmarkGELUTanhMul is one Gemma-3-1B MLP row (6912 values).
func BenchmarkGELUTanhMul(b *testing.B) {
	gate, up := randFloats(newRand(1), 6912, 2), randFloats(newRand(2), 6912, 1)
	g := make([]float32, len(gate))
	b.SetBytes(int64(8 * len(gate)))
	b.ReportAllocs()
	for b.Loop() {
		copy(g, gate)
		GELUTanhMul(g, up)
	}
}

// BenchmarkSoftcap is the final cap of one row of Gemma 2's logits.
func BenchmarkSoftcap(b *testing.B) {
	x := randFloats(newRand(3), 256000, 20)
	y := make([]float32, len(x))
	b.SetBytes(int64(4 * len(x)))
	b.ReportAllocs()
	for b.Loop() {
		copy(y, x)
		Softcap(y, 30)
	}
}
