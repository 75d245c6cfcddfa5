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

// TestStoreAndRead stores one position and reads it back through both
// layouts: transposed keys and values by position.
func TestStoreAndRead(t *testing.T) {
	const layers, ctx, heads, hd = 2, 4, 2, 3
	k := []float32{1, 2, 3, 4, 5, 6}
	v := []float32{-1, 0.5, 4, 8, -2, 0.25}
	for _, typ := range []Type{F16, F32} {
		t.Run(typ.String(), func(t *testing.T) {
			c, err := New(typ, layers, ctx, heads, hd)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(2 * layers * ctx * heads * hd * typ.size()); c.Bytes() != want {
				t.Errorf("Bytes %d, want %d", c.Bytes(), want)
			}
			c.Store(1, 2, k, v, make([]uint16, heads*hd))
			for h := range heads {
				k16, k32 := c.Keys(1, h)
				for d := range hd {
					if got := elem(k16, k32, d*ctx+2); got != k[h*hd+d] {
						t.Errorf("key head %d dim %d: %v, want %v", h, d, got, k[h*hd+d])
					}
				}
			}
			v16, v32 := c.Values(1, 3)
			for j, want := range v {
				if got := elem(v16, v32, 2*heads*hd+j); got != want {
					t.Errorf("value %d: %v, want %v", j, got, want)
				}
			}
		})
	}
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
