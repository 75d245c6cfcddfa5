//go:build !unix

package server

// openFileLimit returns the process's limit of open files (0: unknown).
func openFileLimit() int { return 0 }
