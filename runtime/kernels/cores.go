package kernels

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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

// LastLevelCache returns the size in bytes of the CPU's last-level cache
// as Linux describes it for CPU 0 (/sys/devices/system/cpu/cpu0/cache), or
// 0 where it cannot tell.
func LastLevelCache() int64 {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	var best, level int64
	for _, d := range dirs {
		l, err1 := os.ReadFile(filepath.Join(d, "level"))
		s, err2 := os.ReadFile(filepath.Join(d, "size"))
		if err1 != nil || err2 != nil {
			continue
		}
		lv, err := strconv.ParseInt(strings.TrimSpace(string(l)), 10, 64)
		if size := parseCacheSize(string(s)); err == nil && size > 0 && lv >= level {
			if lv > level {
				best = 0
			}
			best, level = max(best, size), lv
		}
	}
	return best
}

// parseCacheSize reads a cache size as sysfs writes it ("266240K", "2M",
// "512"), in bytes; 0 if it is not one.
func parseCacheSize(s string) int64 {
	s = strings.TrimSpace(s)
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mul, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > 1<<40/mul {
		return 0
	}
	return n * mul
}
