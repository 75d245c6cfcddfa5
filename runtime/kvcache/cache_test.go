package kvcache

import (
	"errors"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
)

func TestNewRefusesBadSizes(t *testing.T) {
	tests := []struct {
		name                   string
		typ                    Type
		layers, ctx, heads, hd int
	}{
		{"zero layers", F16, 0, 8, 2, 4},
		{"negative context", F32, 1, -1, 2, 4},
		{"too large", F32, 1 << 20, 1 << 20, 8, 128},
		{"unknown type", Type(9), 1, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.typ, tt.layers, tt.ctx, tt.heads, tt.hd); !errors.Is(err, ErrInvalid) {
				t.Errorf("New: %v, want ErrInvalid", err)
			}
		})
	}
}

// TestStoreAndRead stores positions across blocks and reads them back
// through both layouts: transposed keys and values by position, in the
// block the cache's table names.
func TestStoreAndRead(t *testing.T) {
	const layers, heads, hd = 2, 2, 3
	tests := []struct {
		name       string
		typ        Type
		bs, blocks int
		table      []int32
	}{
		{"one block f16", F16, 8, 1, []int32{0}},
		{"one block f32", F32, 8, 1, []int32{0}},
		{"blocks out of order f16", F16, 2, 5, []int32{3, 0, 4, 1}},
		{"blocks out of order f32", F32, 3, 4, []int32{2, 1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := NewArena(tt.typ, layers, heads, hd, tt.bs, tt.blocks)
			if err != nil {
				t.Fatal(err)
			}
			if want := BlockBytes(tt.typ, layers, heads, hd, tt.bs) * int64(tt.blocks); a.Bytes() != want {
				t.Errorf("Bytes %d, want %d", a.Bytes(), want)
			}
			c := a.NewCache()
			c.table = tt.table
			n := c.Context()
			for pos := range n {
				c.Store(1, pos, vec(pos, 1), vec(pos, -1), make([]uint16, heads*hd))
			}
			for pos := range n {
				bi, p := pos/tt.bs, pos%tt.bs
				k := vec(pos, 1)
				for h := range heads {
					k16, k32 := c.KeyBlock(1, h, bi)
					for d := range hd {
						if got := elem(k16, k32, d*tt.bs+p); got != k[h*hd+d] {
							t.Errorf("position %d key head %d dim %d: %v, want %v", pos, h, d, got, k[h*hd+d])
						}
					}
				}
				v16, v32 := c.ValueBlock(1, bi)
				for j, want := range vec(pos, -1) {
					if got := elem(v16, v32, p*heads*hd+j); got != want {
						t.Errorf("position %d value %d: %v, want %v", pos, j, got, want)
					}
				}
			}
		})
	}
}

// vec returns the test key (sign 1) or value (sign -1) of a position:
// small integers and halves, exact in both element types.
func vec(pos int, sign float32) []float32 {
	out := make([]float32, 6)
	for j := range out {
		out[j] = sign * (float32(pos*6+j) + 0.5)
	}
	return out
}

// elem reads element i of whichever slice the cache type filled.
func elem(h []uint16, f []float32, i int) float32 {
	if f != nil {
		return f[i]
	}
	out := make([]float32, 1)
	kernels.F16ToF32(out, h[i:i+1])
	return out[0]
}

func TestParseType(t *testing.T) {
	for in, want := range map[string]Type{"f16": F16, "F32": F32} {
		if got, err := ParseType(in); err != nil || got != want {
			t.Errorf("ParseType(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseType("q8_0"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseType(q8_0): %v", err)
	}
}
