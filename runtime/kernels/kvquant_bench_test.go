package kernels

import (
	"fmt"
	"testing"
)

// BenchmarkKVQuant reports the cache bytes per second of the attention
// kernels over quantized cache rows (one KV head of 128 values, 1024
// positions), with the fastest kernels and with the reference ones.
func BenchmarkKVQuant(b *testing.B) {
	const hd, n = 128, 1024
	rng := newRand(11)
	for _, impl := range []string{"asm", "ref"} {
		for _, typ := range kvFormats {
			rb := QuantRowBytes(typ, hd)
			rows := make([]byte, n*rb)
			for p := range n {
				QuantizeRow(typ, rows[p*rb:], randFloats(rng, hd, 1))
			}
			q := make([]byte, QuantRowBytes(Q8_0, hd))
			QuantizeRow(Q8_0, q, randFloats(rng, hd, 1))
			p, acc, scores := randFloats(rng, n, 0.01), make([]float32, hd), make([]float32, n)
			for _, op := range []string{"scores", "accum", "decode"} {
				b.Run(fmt.Sprintf("%s/%v/%s", impl, typ, op), func(b *testing.B) {
					SetReference(impl == "ref")
					defer SetReference(false)
					dec := make([]float32, n*hd)
					b.SetBytes(int64(len(rows)))
					b.ReportAllocs()
					for b.Loop() {
						switch op {
						case "scores":
							ScoresQ(typ, scores, 1, q, rows, hd)
						case "accum":
							AccumQ(typ, acc, p, rows)
						default:
							DecodeQ(typ, dec, rows)
						}
					}
				})
			}
		}
	}
}
