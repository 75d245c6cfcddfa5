//go:build (amd64 || arm64) && !noasm

package kernels

// installKVQuant installs assembly kernels of AccumQ and DecodeQ for Q8_0
// and Q4_0 (in that order). AccumQ and DecodeQ check the bounds and give
// them at least one row or block.
func installKVQuant(k *kernelSet, accum [2]func(dst, p *float32, v *byte, n, nb int), decode [2]func(dst *float32, src *byte, nb int)) {
	for i, kern := range accum {
		k.accumQ[i] = func(dst, p []float32, v []byte) { kern(&dst[0], &p[0], &v[0], len(p), len(dst)/qk) }
	}
	for i, kern := range decode {
		k.decodeQ[i] = func(dst []float32, src []byte) { kern(&dst[0], &src[0], len(dst)/qk) }
	}
}
