//go:build !noasm

package kernels

//go:noescape
func quantQ8_0AVX2(dst *byte, src *float32, nb int)

//go:noescape
func quantPairsAVX2(dst *byte, src *float32, np int)

// initQuantizeAVX2 installs the Q8_0 activation quantizers (single blocks
// and the pairs of the tile kernels).
func initQuantizeAVX2(k *kernelSet) {
	k.quantize[actQ8_0] = quantQ8_0(quantQ8_0AVX2)
	k.quantize[actPair] = quantPairs(quantPairsAVX2)
	k.quantize[actPairQ8x8] = summedPairs(k.quantize[actPair])
}
