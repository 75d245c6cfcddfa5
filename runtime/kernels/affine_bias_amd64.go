//go:build !noasm

package kernels

import "golang.org/x/sys/cpu"

//go:noescape
func affineBiasAVX2(b, xsum *float32, groups, nblk int, out *float32)

//go:noescape
func groupSumsAVX2(x *float32, groups, gsize int, out *float32)

// groupSumsFast wraps groupSumsAVX2 with the bounds checks.
func groupSumsFast(x []float32, gsize int, out []float32) {
	if len(out) == 0 || gsize%16 != 0 || gsize <= 0 {
		groupSumsRef(x, gsize, out)
		return
	}
	_ = x[len(out)*gsize-1]
	groupSumsAVX2(&x[0], len(out), gsize, &out[0])
}

//go:noescape
func affineBias16AVX2(b *uint16, xsum *float32, groups, nblk int, out *float32)

//go:noescape
func affineBias16x4AVX2(b *uint16, xsum *float32, groups, nblk int, out *float32, ostride int)

// bias16x4 wraps affineBias16x4AVX2 with the bounds checks.
func bias16x4(b []uint16, xsum []float32, nblk int, out []float32, ostride int) {
	groups := len(xsum) / 4
	if nblk <= 0 || groups == 0 {
		return
	}
	_, _ = b[nblk*groups*biasRows-1], out[3*ostride+nblk*biasRows-1]
	affineBias16x4AVX2(&b[0], &xsum[0], groups, nblk, &out[0], ostride)
}

// biasFMA wraps a bias kernel in assembly with the bounds checks.
func biasFMA[T float32 | uint16](kern func(b *T, xsum *float32, groups, nblk int, out *float32)) biasKernel[T] {
	return func(b []T, xsum []float32, nblk int, out []float32) {
		groups := len(xsum)
		if nblk <= 0 || groups == 0 {
			return
		}
		_, _ = b[nblk*groups*biasRows-1], out[nblk*biasRows-1]
		kern(&b[0], &xsum[0], groups, nblk, &out[0])
	}
}

// initAffineBias installs the bias kernels of repacked MLX matrices (AVX2
// and FMA).
func initAffineBias(k *kernelSet) {
	k.affineBias = biasFMA(affineBiasAVX2)
	k.affineBias16 = biasFMA(affineBias16AVX2)
	k.affineBias16x4 = bias16x4
}

// initGroupSums installs the group sums of the bias term, which need AVX
// alone.
func initGroupSums(k *kernelSet) {
	if cpu.X86.HasAVX {
		k.groupSums = groupSumsFast
	}
}
