//go:build linux

package jsonschema

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time of the calling OS thread, so that mask
// timings do not count time the machine spent on other work (callers lock
// the goroutine to its thread).
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
