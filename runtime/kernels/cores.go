package kernels

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strings"
)

// PhysicalCores returns the number of physical CPU cores: on Linux the
// distinct (physical id, core id) pairs of /proc/cpuinfo, elsewhere (or when
// that file says nothing usable) runtime.NumCPU().
func PhysicalCores() int {
	if runtime.GOOS == "linux" {
		if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
			if n := countCores(b); n > 0 {
				return min(n, runtime.NumCPU())
			}
		}
	}
	return runtime.NumCPU()
}

// countCores counts the distinct (physical id, core id) pairs of a
// /proc/cpuinfo text; 0 if it has no core ids.
func countCores(cpuinfo []byte) int {
	seen := map[[2]string]bool{}
	var phys string
	sc := bufio.NewScanner(bytes.NewReader(cpuinfo))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "physical id":
			phys = strings.TrimSpace(val)
		case "core id":
			seen[[2]string{phys, strings.TrimSpace(val)}] = true
		}
	}
	return len(seen)
}
