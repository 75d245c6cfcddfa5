//go:build !amd64 || noasm

package kernels

// halfTestSets returns the half tile kernels this CPU runs: none.
func halfTestSets() map[string][2]halfSet { return nil }
