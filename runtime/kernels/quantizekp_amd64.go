//go:build !noasm

package kernels

//go:noescape
func quantKPAVX2(dst *byte, src *float32, nsb int)

// quantizeKPAVX2 is quantizeKPRef in assembly.
func quantizeKPAVX2(dst []byte, src []float32) {
	nsb := len(src) / qkK
	if nsb == 0 {
		return
	}
	_ = dst[nsb*kpAct-1]
	quantKPAVX2(&dst[0], &src[0], nsb)
}
