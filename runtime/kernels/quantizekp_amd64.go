//go:build !noasm

package kernels

//go:noescape
func quantKPAVX512(dst *byte, src *float32, nsb int)

// quantizeKPAVX512 is quantizeKPRef in assembly.
func quantizeKPAVX512(dst []byte, src []float32) {
	nsb := len(src) / qkK
	if nsb == 0 {
		return
	}
	_ = dst[nsb*kpAct-1]
	quantKPAVX512(&dst[0], &src[0], nsb)
}
