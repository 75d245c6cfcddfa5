//go:build !noasm

package kernels

import "golang.org/x/sys/cpu"

// Kernel selection on amd64: the instruction-set levels of Cap and the
// installation of every operation's assembly (each op's init function lives
// beside its declarations, in OP_amd64.go).

// hasAVX2 reports whether this CPU runs the amd64 kernels.
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasF16C

// The instruction-set levels of Cap (level.go), by index.
const (
	levelAVX2 = iota + 1
	levelAVX512
	levelVNNI
)

// archLevels names the levels of Cap on amd64, lowest first.
var archLevels = []string{"generic", "avx2", "avx512", "avx512vnni"}

// detectedLevel returns the highest level this CPU runs.
func detectedLevel() int {
	switch {
	case hasVNNI && hasAVX2:
		return levelVNNI
	case hasAVX512F:
		return levelAVX512
	case hasAVX2:
		return levelAVX2
	}
	return 0
}

// initArch installs the assembly kernels of level lvl and below.
func initArch(k *kernelSet, lvl int) {
	initPrefetch(k)
	initGroupSums(k)
	if lvl < levelAVX2 {
		return
	}
	initDotAVX2(k)
	initQuantizeAVX2(k)
	initQdotAVX2(k)
	initQdotKAVX2(k)
	initMXFP4AVX2(k)
	initAffineAVX2(k)
	initExpAVX2(k)
	initAttnAVX2(k)
	initKVQuantAVX2(k)
	initAffineBias(k)
	initGemm(k, lvl)
	initHalf(k, lvl)
	initGemmK(k, lvl)
}
