//go:build !noasm

package kernels

//go:noescape
func scoresQ8_0AVX2(dst *float32, q, k *byte, n, nb int)

//go:noescape
func scoresQ4_0AVX2(dst *float32, q, k *byte, n, nb int)

//go:noescape
func accumQ8_0AVX2(dst, p *float32, v *byte, n, nb int)

//go:noescape
func accumQ4_0AVX2(dst, p *float32, v *byte, n, nb int)

//go:noescape
func decodeQ8_0AVX2(dst *float32, src *byte, nb int)

//go:noescape
func decodeQ4_0AVX2(dst *float32, src *byte, nb int)

// initKVQuantAVX2 installs the kernels of attention over Q8_0 and Q4_0
// cache rows. ScoresQ, AccumQ and DecodeQ check the bounds and give them
// at least one row or block.
func initKVQuantAVX2(k *kernelSet) {
	for i, kern := range []func(dst *float32, q, k *byte, n, nb int){scoresQ8_0AVX2, scoresQ4_0AVX2} {
		k.scoresQ[i] = func(dst []float32, rows int, q, kr []byte, hd int) {
			n, qb := len(dst)/rows, QuantRowBytes(Q8_0, hd)
			for r := range rows {
				kern(&dst[r*n], &q[r*qb], &kr[0], n, hd/qk)
			}
		}
	}
	installKVQuant(k, [2]func(dst, p *float32, v *byte, n, nb int){accumQ8_0AVX2, accumQ4_0AVX2},
		[2]func(dst *float32, src *byte, nb int){decodeQ8_0AVX2, decodeQ4_0AVX2})
}
