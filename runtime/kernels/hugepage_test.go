package kernels

import (
	"runtime"
	"testing"
	"time"
	"unsafe"
)

func TestAllocWeights(t *testing.T) {
	defer SetHugePages(HugePages())
	for _, on := range []bool{true, false} {
		SetHugePages(on)
		for _, n := range []int{0, 1, 4096, hugePage - 1, hugePage, hugePage + 123, 3*hugePage + 5} {
			b := allocWeights(n)
			if len(b) != n || cap(b) != n {
				t.Fatalf("huge pages %v: allocWeights(%d): len %d cap %d", on, n, len(b), cap(b))
			}
			for i, c := range b {
				if c != 0 {
					t.Fatalf("huge pages %v: allocWeights(%d): byte %d is %d, want 0", on, n, i, c)
				}
			}
			for i := range b {
				b[i] = byte(i)
			}
			if hugeAdvice && on && n >= hugePage {
				if p := uintptr(unsafe.Pointer(unsafe.SliceData(b))); p%hugePage != 0 {
					t.Errorf("allocWeights(%d) starts at %#x, not on a huge page", n, p)
				}
			}
		}
	}
}

// TestAllocWeightsFreed checks that the collector frees a huge-page copy
// once nothing refers to it, as it frees any slice.
func TestAllocWeightsFreed(t *testing.T) {
	defer SetHugePages(HugePages())
	SetHugePages(true)
	freed := make(chan struct{})
	func() {
		b := allocWeights(2*hugePage + 1)
		b[len(b)-1] = 1
		runtime.AddCleanup(&b[0], func(c chan struct{}) { close(c) }, freed)
	}()
	for range 100 {
		runtime.GC()
		select {
		case <-freed:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("a copy nothing refers to was not freed")
}
