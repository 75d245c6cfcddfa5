//go:build linux

// Package cpuclock reads the CPU time of the calling OS thread, so that
// the mask benchmarks do not count time the machine spent on other work.
// Callers lock their goroutine to its thread.
package cpuclock

import (
	"time"

	"golang.org/x/sys/unix"
)

// Thread returns the CPU time of the calling OS thread.
func Thread() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
