//go:build !noasm

package kernels

//go:noescape
func quantQ8_0NEON(dst *byte, src *float32, nb int)

// initQuantizeNEON installs the Q8_0 activation quantizer.
func initQuantizeNEON(k *kernelSet) {
	k.quantize[actQ8_0] = quantQ8_0(quantQ8_0NEON)
}
