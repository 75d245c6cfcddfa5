package kernels

import (
	"path/filepath"
	"testing"
)

func TestParseCacheSize(t *testing.T) {
	for s, want := range map[string]int64{"266240K\n": 266240 << 10, "2M": 2 << 20, "1G": 1 << 30, "512": 512, "": 0, "K": 0, "-4K": 0, "x": 0, "99999999999G": 0} {
		if got := parseCacheSize(s); got != want {
			t.Errorf("parseCacheSize(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestLastLevelCache checks that where Linux describes CPU 0's caches,
// the size found is one of the largest level's.
func TestLastLevelCache(t *testing.T) {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	if len(dirs) == 0 {
		t.Skip("no /sys/devices/system/cpu/cpu0/cache here")
	}
	got := LastLevelCache()
	if got <= 0 {
		t.Fatalf("LastLevelCache() = %d with %d cache entries in sysfs", got, len(dirs))
	}
	t.Logf("last-level cache: %d KiB", got>>10)
}
