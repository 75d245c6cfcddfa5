package mmap

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// residentKB returns the Rss of the mapping that starts at b's first byte,
// from /proc/self/smaps.
func residentKB(t *testing.T, b []byte) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	start := fmt.Sprintf("%x-", uintptr(unsafe.Pointer(&b[0])))
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		in = in || strings.HasPrefix(line, start) // its Rss line comes before the next mapping's
		if v, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatalf("no mapping at %s in /proc/self/smaps", start)
	return 0
}

func TestReleaseDropsResidentPages(t *testing.T) {
	const pages = 64
	m, _ := mapPages(t, pages)
	var sum int
	for _, c := range m.Bytes() {
		sum += int(c)
	}
	page := os.Getpagesize()
	before := residentKB(t, m.Bytes())
	if before < pages*page/1024 {
		t.Skipf("only %d kB of %d resident after reading every page", before, pages*page/1024)
	}
	if _, err := m.Release(0, m.Len()); err != nil {
		t.Fatal(err)
	}
	if after := residentKB(t, m.Bytes()); after != 0 {
		t.Errorf("%d kB resident after releasing the whole mapping (%d kB before, checksum %d)", after, before, sum)
	}
}
