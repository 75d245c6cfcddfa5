package cli

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/pflag"
)

// registerBenchProfile adds the hidden --cpuprofile flag of mlx bench: a
// file that gets the Go CPU profile of the timed tests (warm-ups included,
// loading not), to see where a prefill or decode step spends its time.
func registerBenchProfile(f *pflag.FlagSet, path *string) {
	f.StringVar(path, "cpuprofile", "", "write a CPU profile of the speed tests to this file")
	_ = f.MarkHidden("cpuprofile") // the flag was just defined
}

// startBenchProfile starts profiling into path, when set, and returns the
// function that stops it and closes the file.
func startBenchProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("bench: cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("bench: cpu profile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
