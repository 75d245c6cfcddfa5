//go:build !noasm

package kernels

import "golang.org/x/sys/cpu"

//go:noescape
func affineBiasAVX2(b, xsum *float32, groups, nblk int, out *float32)

// affineBiasFMA wraps affineBiasAVX2 with the bounds checks.
func affineBiasFMA(b, xsum []float32, nblk int, out []float32) {
	groups := len(xsum)
	if nblk <= 0 || groups == 0 {
		return
	}
	_, _ = b[nblk*groups*biasRows-1], out[nblk*biasRows-1]
	affineBiasAVX2(&b[0], &xsum[0], groups, nblk, &out[0])
}

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		affineBiasKern = affineBiasFMA
	}
}
