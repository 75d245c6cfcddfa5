package kernels

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// vmFlags returns the VmFlags of the mapping that holds address p, from
// /proc/self/smaps.
func vmFlags(t *testing.T, p uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= p && p < hi
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Fields(v)
		}
	}
	t.Fatalf("no mapping holds %#x in /proc/self/smaps", p)
	return nil
}

// probeHugeAdvice skips the test where the system takes MADV_HUGEPAGE
// without recording it: a user-mode emulator (qemu-user runs the arm64 tests)
// accepts the advice and drops it, so the mapping never shows the flag.
func probeHugeAdvice(t *testing.T) {
	t.Helper()
	m, err := unix.Mmap(-1, 0, 2*hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		t.Skip("no anonymous mapping for the probe:", err)
	}
	defer unix.Munmap(m)
	if err := unix.Madvise(m, unix.MADV_HUGEPAGE); err != nil {
		t.Skip("MADV_HUGEPAGE refused here:", err)
	}
	if !slices.Contains(vmFlags(t, uintptr(unsafe.Pointer(&m[0]))), "hg") {
		t.Skip("MADV_HUGEPAGE is accepted but not recorded here (an emulator)")
	}
}

func TestAllocWeightsAdvisesHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages:", err)
	}
	probeHugeAdvice(t)
	defer SetHugePages(HugePages())
	SetHugePages(true)
	n := 3*hugePage + 100
	b := allocWeights(n)
	if flags := vmFlags(t, uintptr(unsafe.Pointer(&b[0]))); !slices.Contains(flags, "hg") {
		t.Errorf("the whole huge pages of the copy are not advised as huge: VmFlags %v", flags)
	}
}

func TestAllocWeightsMadviseFails(t *testing.T) {
	defer func(f func([]byte, int) error) { madvise = f }(madvise)
	defer SetHugePages(HugePages())
	SetHugePages(true)
	for _, failing := range []int{unix.MADV_DONTNEED, unix.MADV_HUGEPAGE} {
		var advised [][]byte
		madvise = func(b []byte, advice int) error {
			advised = append(advised, b)
			if advice == failing {
				return unix.EINVAL
			}
			return nil
		}
		n := 2*hugePage + 7
		b := allocWeights(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("len %d cap %d, want %d", len(b), cap(b), n)
		}
		for i := range b {
			if b[i] != 0 {
				t.Fatalf("byte %d is %d, want 0", i, b[i])
			}
			b[i] = 1
		}
		if len(advised) == 0 {
			t.Fatal("madvise not called")
		}
		for _, a := range advised {
			if &a[0] != &b[0] || len(a) != 2*hugePage {
				t.Errorf("advised %d bytes at %p, want the %d whole huge pages at %p", len(a), &a[0], 2*hugePage, &b[0])
			}
		}
		if want := map[int]int{unix.MADV_DONTNEED: 1, unix.MADV_HUGEPAGE: 2}[failing]; len(advised) != want {
			t.Errorf("madvise failing on %d: %d calls, want %d", failing, len(advised), want)
		}
	}
}
