//go:build !noasm

package kernels

import "golang.org/x/sys/cpu"

// Kernel selection on arm64: the instruction-set levels of Cap and the
// installation of every operation's assembly (each op's init function lives
// beside its declarations, in OP_arm64.go).

// hasDotProd reports whether the CPU has SDOT (ARMv8.2 dot product).
var hasDotProd = cpu.ARM64.HasASIMDDP

// archLevels names the levels of Cap (level.go) on arm64, lowest first.
var archLevels = []string{"generic", "neon", "dotprod"}

// levelDotProd is the index of dotprod in archLevels.
const levelDotProd = 2

// detectedLevel returns the highest level this CPU runs.
func detectedLevel() int {
	if hasDotProd {
		return levelDotProd
	}
	return 1
}

// initArch installs the assembly kernels of level lvl and below.
func initArch(k *kernelSet, lvl int) {
	if lvl < 1 {
		return
	}
	initDotNEON(k)
	initQuantizeNEON(k)
	initQdotNEON(k, lvl)
	initAffineNEON(k)
	initKVQuantNEON(k)
}
