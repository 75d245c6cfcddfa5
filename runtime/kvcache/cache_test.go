package kvcache

import (
	"errors"
	"strings"
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
	for in, want := range map[string]Type{"f16": F16, "F32": F32, "q8_0": Q8_0, "Q4_0": Q4_0} {
		if got, err := ParseType(in); err != nil || got != want {
			t.Errorf("ParseType(%q) = %v, %v", in, got, err)
		}
		if got, _ := ParseType(want.String()); got != want {
			t.Errorf("ParseType(%v.String()) = %v", want, got)
		}
	}
	for _, in := range []string{"q5_0", "", "q8"} {
		if _, err := ParseType(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseType(%q): %v", in, err)
		}
	}
}

// TestBlockFormatRows stores positions in a Q8_0 and a Q4_0 cache and
// finds each KV head's key and value quantized in its row, in the block
// the cache's table names; blocks copy whole.
func TestBlockFormatRows(t *testing.T) {
	const layers, heads, hd, bs = 2, 3, 64, 4
	for _, typ := range []Type{Q8_0, Q4_0} {
		t.Run(typ.String(), func(t *testing.T) {
			a, err := NewArena(typ, layers, heads, hd, bs, 4)
			if err != nil {
				t.Fatal(err)
			}
			rb := kernels.QuantRowBytes(typ.DType(), hd)
			if want := int64(2*layers*heads*rb*bs) * 4; a.Bytes() != want || BlockBytes(typ, layers, heads, hd, bs)*4 != want {
				t.Errorf("Bytes %d, BlockBytes×4 %d, want %d", a.Bytes(), BlockBytes(typ, layers, heads, hd, bs)*4, want)
			}
			c := a.NewCache()
			c.table = []int32{2, 0, 3}
			row := func(pos int, sign float32) []float32 {
				x := make([]float32, heads*hd)
				for j := range x {
					x[j] = sign * float32((pos*7+j)%23-11) / 8
				}
				return x
			}
			for pos := range c.Context() {
				c.Store(1, pos, row(pos, 1), row(pos, -1), nil)
			}
			want := make([]byte, rb)
			for pos := range c.Context() {
				for h := range heads {
					for _, kv := range []struct {
						rows func(layer, head, i int) []byte
						sign float32
					}{{c.KeyRows, 1}, {c.ValueRows, -1}} {
						kernels.QuantizeRow(typ.DType(), want, row(pos, kv.sign)[h*hd:(h+1)*hd])
						got := kv.rows(1, h, pos/bs)[pos%bs*rb:][:rb]
						if string(got) != string(want) {
							t.Fatalf("position %d head %d sign %v: row differs", pos, h, kv.sign)
						}
					}
				}
				if got := c.KeyRows(0, 0, pos/bs)[pos%bs*rb:][:rb]; string(got) != string(make([]byte, rb)) {
					t.Fatalf("layer 0 written by a store to layer 1")
				}
			}
			a.Copy(1, 3)
			if string(c.KeyRows(1, 2, 2)) != string(a.NewCache().withTable(1).KeyRows(1, 2, 0)) {
				t.Errorf("Copy: keys differ")
			}
		})
	}
}

func (c *Cache) withTable(blocks ...int32) *Cache {
	c.table = blocks
	return c
}

// TestBlockFormatRefusesHeadSizes checks the clear error for head sizes a
// block format cannot hold.
func TestBlockFormatRefusesHeadSizes(t *testing.T) {
	_, err := NewArenaShapes(Q8_0, []Shape{{2, 64}, {2, 80}}, 16, 2)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "multiples of 32") {
		t.Errorf("head size 80: %v", err)
	}
	if _, err := NewArenaShapes(F16, []Shape{{2, 80}}, 16, 2); err != nil {
		t.Errorf("f16 head size 80: %v", err)
	}
}
