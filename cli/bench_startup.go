package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// startupExe is the program mlx bench --startup runs: this one. Tests
// point it at a child process of their own.
var startupExe = os.Executable

// runStartup times o.startup runs of "mlx run MODEL --max-tokens 1" with a
// one-token prompt, from the start of the process to its exit, after one
// untimed run that warms the page cache.
func runStartup(ctx context.Context, w io.Writer, ref string, o benchOptions) error {
	exe, err := startupExe()
	if err != nil {
		return fmt.Errorf("bench --startup: %w", err)
	}
	args := []string{"run", ref, "--max-tokens", "1", "--raw", "--temperature", "0", "--threads", strconv.Itoa(o.threads)}
	var ms []float64
	for i := -1; i < o.startup; i++ {
		var stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader("hi"), io.Discard, &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("bench --startup: %s %s: %w: %s", exe, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		if i >= 0 {
			ms = append(ms, float64(time.Since(start).Microseconds())/1e3)
		}
	}
	row := benchRow{Model: ref, Backend: "CPU", Threads: o.threads, Prompt: 1, Gen: 1}
	row.StartupMs, row.StartupMedianMs, row.FileBytes = ms, median(ms), weightFileBytes(ref)
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode([]benchRow{row})
	}
	_, err = fmt.Fprintf(w, "start-up to the first token of a one-token prompt: median %.0f ms, min %.0f ms, max %.0f ms (%d runs, %d threads)\n",
		row.StartupMedianMs, slices.Min(ms), slices.Max(ms), len(ms), o.threads)
	return err
}

// median returns the middle value of x (the mean of the two middle ones
// for an even count); x is not empty.
func median(x []float64) float64 {
	s := slices.Sorted(slices.Values(x))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
