//go:build !linux

// Package cpuclock reads the CPU time of the calling OS thread, so that
// the mask benchmarks do not count time the machine spent on other work.
// Callers lock their goroutine to its thread.
package cpuclock

import "time"

var start = time.Now()

// Thread returns the wall time since start where no thread clock exists.
func Thread() time.Duration { return time.Since(start) }
