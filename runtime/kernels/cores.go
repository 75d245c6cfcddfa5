package kernels

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
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

// LastLevelCache returns the bytes of last-level cache that the CPUs hold
// together, as Linux describes its caches in sysfs: the size of one
// instance times the number of instances (one per socket, or per core
// complex on CPUs whose cores share their L3 by groups). It returns 0 where
// it cannot tell.
func LastLevelCache() int64 {
	if runtime.GOOS != "linux" {
		return 0
	}
	return lastLevelCache(os.DirFS("/sys/devices/system/cpu"))
}

// lastLevelCache reads the caches of cpu0 in fsys (a sysfs cpu
// directory): the size of its highest level, times the online CPUs over
// the CPUs that share that instance (shared_cpu_list); 0 if the highest
// level has no readable size. Reading cpu0 alone keeps it to a few small
// files, however many CPUs there are.
func lastLevelCache(fsys fs.FS) int64 {
	dirs, _ := fs.Glob(fsys, "cpu0/cache/index[0-9]*")
	level, size, share := 0, int64(0), 0
	for _, d := range dirs {
		lv, err := strconv.Atoi(readTrim(fsys, d+"/level"))
		if err != nil || lv < level {
			continue
		}
		if lv > level {
			level, size, share = lv, 0, 0
		}
		size = max(size, parseCacheSize(readTrim(fsys, d+"/size")))
		share = max(share, cpuListCount(readTrim(fsys, d+"/shared_cpu_list")))
	}
	if online := cpuListCount(readTrim(fsys, "online")); share > 0 && online > share {
		return size * int64(online/share)
	}
	return size
}

// cpuListCount counts the CPUs of a sysfs CPU list ("0-15,32-47", "3");
// 0 if it is not one.
func cpuListCount(list string) int {
	n := 0
	for part := range strings.SplitSeq(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return 0
		}
		n += b - a + 1
	}
	return n
}

// readTrim returns the file's text without surrounding space, "" if it
// cannot be read.
func readTrim(fsys fs.FS, name string) string {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
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
