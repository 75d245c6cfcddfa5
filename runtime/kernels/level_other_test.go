//go:build !amd64 || noasm

package kernels

import "testing"

// checkLevelKernels checks what tells the levels apart on this platform:
// the SDOT kernels of dotprod are not observable apart from their name.
func checkLevelKernels(t *testing.T, level string) {}
