//go:build !linux

package jsonschema

import "time"

var start = time.Now()

// threadCPU falls back to wall time where thread CPU time is not read.
func threadCPU() time.Duration { return time.Since(start) }
