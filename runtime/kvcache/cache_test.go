package kvcache

import (
	"errors"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
)

func TestNewRefusesBadSizes(t *testing.T) {
	tests := []struct {
		name             string
		typ              Type
		layers, ctx, dim int
	}{
		{"zero layers", F16, 0, 8, 8},
		{"negative context", F32, 1, -1, 8},
		{"too large", F32, 1 << 20, 1 << 20, 1 << 10},
		{"unknown type", Type(9), 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.typ, tt.layers, tt.ctx, tt.dim); !errors.Is(err, ErrInvalid) {
				t.Errorf("New: %v, want ErrInvalid", err)
			}
		})
	}
}

func TestStoreAndRead(t *testing.T) {
	for _, typ := range []Type{F16, F32} {
		t.Run(typ.String(), func(t *testing.T) {
			c, err := New(typ, 2, 4, 3)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(2 * 2 * 4 * 3 * map[Type]int{F16: 2, F32: 4}[typ]); c.Bytes() != want {
				t.Errorf("Bytes %d, want %d", c.Bytes(), want)
			}
			c.Store(1, 2, []float32{1, 2, 3}, []float32{-1, 0.5, 4})
			k16, v16, k32, v32 := c.Layer(1, 3)
			var k, v []float32
			if typ == F16 {
				k, v = halves(k16[6:9]), halves(v16[6:9])
			} else {
				k, v = k32[6:9], v32[6:9]
			}
			if k[0] != 1 || k[2] != 3 || v[0] != -1 || v[1] != 0.5 {
				t.Errorf("read back k %v v %v", k, v)
			}
		})
	}
}

func halves(h []uint16) []float32 {
	out := make([]float32, len(h))
	kernels.F16ToF32(out, h)
	return out
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
