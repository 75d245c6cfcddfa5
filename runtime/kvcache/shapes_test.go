package kvcache

import "testing"

// TestShapes stores into layers of different shapes and reads every layer
// back: no layer's keys or values overlap another's, in any block.
func TestShapes(t *testing.T) {
	shapes := []Shape{{2, 4}, {1, 8}, {3, 2}}
	for _, typ := range []Type{F32, F16} {
		a, err := NewArenaShapes(typ, shapes, 4, 3)
		if err != nil {
			t.Fatal(err)
		}
		if want := BlockBytesShapes(typ, shapes, 4) * 3; a.Bytes() != want {
			t.Errorf("%v: %d bytes, want %d", typ, a.Bytes(), want)
		}
		c := a.NewCache()
		c.table = []int32{2, 0}
		val := func(layer, pos, j int) float32 { return float32(100*layer + 10*pos + j) }
		for l, sh := range shapes {
			k, v := make([]float32, sh.Dim()), make([]float32, sh.Dim())
			for pos := range c.Context() {
				for j := range k {
					k[j], v[j] = val(l, pos, j), -val(l, pos, j)
				}
				c.Store(l, pos, k, v, make([]uint16, sh.Dim()))
			}
		}
		for l, sh := range shapes {
			for pos := range c.Context() {
				bi, p := pos/4, pos%4
				v16, v32 := c.ValueBlock(l, bi)
				for h := range sh.Heads {
					k16, k32 := c.KeyBlock(l, h, bi)
					for d := range sh.HeadDim {
						j := h*sh.HeadDim + d
						k, v := elem(k16, k32, d*4+p), elem(v16, v32, p*sh.Dim()+j)
						if k != val(l, pos, j) || v != -val(l, pos, j) {
							t.Fatalf("%v layer %d position %d value %d: key %v value %v, want ±%v", typ, l, pos, j, k, v, val(l, pos, j))
						}
					}
				}
			}
		}
	}
	if _, err := NewArenaShapes(F16, []Shape{{1, 4}, {0, 4}}, 4, 1); err == nil {
		t.Error("a layer of no heads: no error")
	}
}
