//go:build !noasm

package kernels

//go:noescape
func accumQ8_0NEON(dst, p *float32, v *byte, n, nb int)

//go:noescape
func accumQ4_0NEON(dst, p *float32, v *byte, n, nb int)

//go:noescape
func decodeQ8_0NEON(dst *float32, src *byte, nb int)

//go:noescape
func decodeQ4_0NEON(dst *float32, src *byte, nb int)

// initKVQuantNEON installs the kernels that accumulate and decode Q8_0 and
// Q4_0 cache rows; the scores use the dot products of initQdotNEON.
func initKVQuantNEON(k *kernelSet) {
	installKVQuant(k, [2]func(dst, p *float32, v *byte, n, nb int){accumQ8_0NEON, accumQ4_0NEON},
		[2]func(dst *float32, src *byte, nb int){decodeQ8_0NEON, decodeQ4_0NEON})
}
