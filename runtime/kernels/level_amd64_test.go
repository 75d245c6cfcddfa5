//go:build !noasm

package kernels

import "testing"

// checkLevelKernels checks the tile kernels that tell the amd64 levels
// apart: the eight-row Q8_0 tiles only with VNNI, 512-bit half tiles from
// avx512 on, four-column K-quant tiles at every level.
func checkLevelKernels(t *testing.T, level string) {
	t.Helper()
	k := impl()
	vnni := k.gemm[layoutQ8x8].one != nil
	wideHalf := k.half[0].step == 16
	if level != "generic" && (k.gemm[Q4_K].wide == nil || k.gemm[Q6_K].wide == nil) {
		t.Errorf("%s: no four-column K-quant tiles", level)
	}
	switch level {
	case "avx2":
		if vnni || wideHalf || k.gemm[Q4_0].one == nil || k.half[0].step != 8 {
			t.Errorf("avx2: VNNI tiles %v, half step %d, Q4_0 one-row tile %v", vnni, k.half[0].step, k.gemm[Q4_0].one != nil)
		}
	case "avx512":
		if vnni || !wideHalf {
			t.Errorf("avx512: VNNI tiles %v, half step %d", vnni, k.half[0].step)
		}
	case "avx512vnni":
		if !vnni || !wideHalf {
			t.Errorf("avx512vnni: VNNI tiles %v, half step %d", vnni, k.half[0].step)
		}
	}
}
