//go:build !noasm

package kernels

// halfTestSets returns the half tile kernels this CPU runs, by name.
func halfTestSets() map[string][2]halfSet {
	sets := map[string][2]halfSet{}
	if hasAVX2 {
		sets["avx2"] = halfAVX2
	}
	if hasAVX512F {
		sets["avx512"] = halfAVX512
	}
	return sets
}
