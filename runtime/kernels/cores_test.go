package kernels

import (
	"os"
	"testing"
	"testing/fstest"
)

func TestCountCores(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
	}{
		{"hyperthreads", "processor\t: 0\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 1\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 2\nphysical id\t: 0\ncore id\t\t: 1\n", 2},
		{"two sockets", "physical id : 0\ncore id : 0\nphysical id : 1\ncore id : 0\n", 2},
		{"no core ids", "processor : 0\nprocessor : 1\n", 0},
	}
	for _, tt := range tests {
		if got := countCores([]byte(tt.text)); got != tt.want {
			t.Errorf("%s: countCores = %d, want %d", tt.name, got, tt.want)
		}
	}
	if n := PhysicalCores(); n < 1 {
		t.Errorf("PhysicalCores() = %d", n)
	}
}

func TestParseCacheSize(t *testing.T) {
	for s, want := range map[string]int64{"266240K\n": 266240 << 10, "2M": 2 << 20, "1G": 1 << 30, "512": 512, "": 0, "K": 0, "-4K": 0, "x": 0, "99999999999G": 0} {
		if got := parseCacheSize(s); got != want {
			t.Errorf("parseCacheSize(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestCPUListCount(t *testing.T) {
	for s, want := range map[string]int{"0": 1, "0-15": 16, "0-15,32-47": 32, "3,5,7-8": 4, "": 0, "4-2": 0, "a": 0, "1-": 0} {
		if got := cpuListCount(s); got != want {
			t.Errorf("cpuListCount(%q) = %d, want %d", s, got, want)
		}
	}
}

// cacheFS is a sysfs cpu directory whose cpu0 has the caches given as
// index name -> level, size, shared_cpu_list (empty fields are left out).
func cacheFS(online string, caches map[string][3]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	if online != "" {
		fsys["online"] = &fstest.MapFile{Data: []byte(online + "\n")}
	}
	for idx, c := range caches {
		for i, name := range []string{"level", "size", "shared_cpu_list"} {
			if c[i] != "" {
				fsys["cpu0/cache/"+idx+"/"+name] = &fstest.MapFile{Data: []byte(c[i] + "\n")}
			}
		}
	}
	return fsys
}

func TestLastLevelCacheSysfs(t *testing.T) {
	l1d, l1i, l2 := [3]string{"1", "48K", "0"}, [3]string{"1", "32K", "0"}, [3]string{"2", "2048K", "0"}
	tests := []struct {
		name   string
		online string
		caches map[string][3]string
		want   int64
	}{
		{"one L3 for all", "0-1", map[string][3]string{"index0": l1d, "index1": l1i, "index2": l2, "index3": {"3", "266240K", "0-1"}}, 266240 << 10},
		{"an L3 per core complex", "0-95", map[string][3]string{"index2": l2, "index3": {"3", "32768K", "0-7,48-55"}}, 6 * 32 << 20},
		{"no shared list", "0-15", map[string][3]string{"index3": {"3", "30M", ""}}, 30 << 20},
		{"no L3: L2", "0-3", map[string][3]string{"index0": l1d, "index2": {"2", "1024K", "0-3"}}, 1 << 20},
		{"top level without size", "0-3", map[string][3]string{"index2": l2, "index3": {"3", "", "0-3"}}, 0},
		{"no level file: the private L2s", "0-3", map[string][3]string{"index2": l2, "index3": {"", "32M", "0-3"}}, 4 * 2 << 20},
		{"nothing", "", nil, 0},
	}
	for _, tt := range tests {
		if got := lastLevelCache(cacheFS(tt.online, tt.caches)); got != tt.want {
			t.Errorf("%s: lastLevelCache = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestLastLevelCache checks that where Linux describes CPU 0's caches the
// machine's own sysfs gives a size.
func TestLastLevelCache(t *testing.T) {
	if len(readTrim(os.DirFS("/sys/devices/system/cpu"), "cpu0/cache/index0/level")) == 0 {
		t.Skip("no /sys/devices/system/cpu/cpu0/cache here")
	}
	if got := LastLevelCache(); got <= 0 {
		t.Fatalf("LastLevelCache() = %d", got)
	} else {
		t.Logf("last-level cache: %d KiB", got>>10)
	}
}
