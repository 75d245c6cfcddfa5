//go:build unix

package server

import "syscall"

// openFileLimit returns the process's limit of open files (0: unknown).
func openFileLimit() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil || r.Cur > 1<<30 {
		return 0
	}
	return int(r.Cur)
}
