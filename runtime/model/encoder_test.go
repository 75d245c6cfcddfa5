package model

import (
	"errors"
	"testing"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// TestCheckWhole checks that an encoder's batch must hold each sequence
// whole, from position 0, its rows together and in order.
func TestCheckWhole(t *testing.T) {
	a, b := &kvcache.Cache{}, &kvcache.Cache{}
	for _, c := range []struct {
		name   string
		pos    []int
		caches []*kvcache.Cache
		ok     bool
	}{
		{"two whole inputs", []int{0, 1, 2, 0, 1}, []*kvcache.Cache{a, a, a, b, b}, true},
		{"one token", []int{0}, []*kvcache.Cache{a}, true},
		{"a continuation", []int{3, 4}, []*kvcache.Cache{a, a}, false},
		{"a gap", []int{0, 2}, []*kvcache.Cache{a, a}, false},
		{"rows apart", []int{0, 0, 1}, []*kvcache.Cache{a, b, a}, false},
	} {
		err := checkWhole(&Batch{Pos: c.pos, Cache: c.caches})
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrBatch) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestSameDims checks that GGUF shapes differing only by trailing
// dimensions of 1 are one shape, as llama-quantize writes them.
func TestSameDims(t *testing.T) {
	for _, c := range []struct {
		a, b []uint64
		want bool
	}{
		{[]uint64{64}, []uint64{64, 1}, true},
		{[]uint64{64, 1, 1}, []uint64{64}, true},
		{[]uint64{64, 2}, []uint64{64}, false},
		{[]uint64{1}, []uint64{1, 1}, true},
		{[]uint64{64, 1}, []uint64{1, 64}, false},
	} {
		if got := sameDims(c.a, c.b); got != c.want {
			t.Errorf("sameDims(%v, %v) = %v", c.a, c.b, got)
		}
	}
}
