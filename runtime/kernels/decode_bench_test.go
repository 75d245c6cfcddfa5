package kernels

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDecode measures Decode on 64 Ki values of random blocks; bytes/s
// counts the float32 output.
func BenchmarkDecode(b *testing.B) {
	const n = 1 << 16
	for _, typ := range []DType{F16, BF16, Q8_0, Q4_0, Q4_K, Q6_K} {
		b.Run(typ.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			e := new(enc)
			for len(e.b) < n/typ.blockElems()*typ.blockBytes() {
				blockGens[typ](r, e)
			}
			dst := make([]float32, n)
			b.SetBytes(4 * n)
			b.ReportAllocs()
			for b.Loop() {
				if err := Decode(typ, e.b, dst); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
