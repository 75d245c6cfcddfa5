//go:build (!amd64 && !arm64) || noasm

package kernels

// archLevels names the one level of Cap (level.go) without assembly.
var archLevels = []string{"generic"}

// detectedLevel returns the highest level this build runs.
func detectedLevel() int { return 0 }

// initArch leaves the reference kernels in place: no assembly on this
// platform or in this build.
func initArch(k *kernelSet, lvl int) {}
