package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// stTensor is one tensor of a safetensors file built by a test.
type stTensor struct {
	name, dtype string
	shape       []int
	data        []byte
}

// buildST returns a safetensors file holding the tensors.
func buildST(t *testing.T, ts []stTensor) *safetensors.File {
	t.Helper()
	header, off := map[string]any{}, 0
	var body bytes.Buffer
	for _, x := range ts {
		header[x.name] = map[string]any{"dtype": x.dtype, "shape": x.shape, "data_offsets": []int{off, off + len(x.data)}}
		body.Write(x.data)
		off += len(x.data)
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint64(len(h)))
	b.Write(h)
	b.Write(body.Bytes())
	f, err := safetensors.Parse(b.Bytes(), "test.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// f32Bytes returns v as little-endian float32 bytes.
func f32Bytes(v []float32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return out
}

// oaiNames are the test's names of experts stored as gpt-oss stores them.
var oaiNames = &Names{ExpGateUpT: "l.%d.gate_up_proj", ExpDownT: "l.%d.down_proj", ExpGateUpBias: "l.%d.gate_up_proj_bias",
	ExpDownBias: "l.%d.down_proj_bias", RouterBias: "l.%d.router.bias"}

// fp4 are the values of the E2M1 codes.
var fp4 = [16]float64{0, 0.5, 1, 1.5, 2, 3, 4, 6, 0, -0.5, -1, -1.5, -2, -3, -4, -6}

// TestMXFP4Experts binds experts stored as MXFP4 blocks and scales in the
// Hugging Face layout (gate and up rows interleaved) and checks every row
// against the values dequantized directly from that layout: element k of
// a block is the low (k even) or high nibble of byte k/2, times
// 2^(scale-127).
func TestMXFP4Experts(t *testing.T) {
	const ne, ff, hid = 2, 32, 64
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(n int, lo, span int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(lo + rng.IntN(span))
		}
		return b
	}
	guBlocks, guScales := random(ne*2*ff*hid/2, 0, 256), random(ne*2*ff*hid/32, 120, 10)
	dBlocks, dScales := random(ne*hid*ff/2, 0, 256), random(ne*hid*ff/32, 120, 10)
	f := buildST(t, []stTensor{
		{"l.0.gate_up_proj_blocks", "U8", []int{ne, 2 * ff, hid / 32, 16}, guBlocks},
		{"l.0.gate_up_proj_scales", "U8", []int{ne, 2 * ff, hid / 32}, guScales},
		{"l.0.down_proj_blocks", "U8", []int{ne, hid, ff / 32, 16}, dBlocks},
		{"l.0.down_proj_scales", "U8", []int{ne, hid, ff / 32}, dScales},
	})
	b := binder{src: SafetensorsSource{M: f, Dir: "test"}}
	gate, up, down, fill := b.transposedExperts(oaiNames, 0, ne, ff, hid)
	if b.err != nil {
		t.Fatal(b.err)
	}
	l := &MoE{Experts: make([]Expert, ne), packOnce: make([]sync.Once, ne), fill: fill}
	for x := range ne {
		l.Experts[x] = Expert{Gate: gate[x], Up: up[x], Down: down[x]}
	}
	// An expert is converted only once it is used.
	if !allZero(gate[1].Data) || !allZero(down[1].Data) {
		t.Fatal("expert 1 is converted before its first use")
	}
	l.ready(0)
	if allZero(gate[0].Data) || !allZero(gate[1].Data) {
		t.Fatal("using expert 0 did not convert it alone")
	}
	l.ready(1)
	// want returns row r (of cols values) of expert x as dequantized from
	// the checkpoint's layout.
	want := func(blocks, scales []byte, rows, cols, x, r int) []float64 {
		out := make([]float64, cols)
		for k := range cols {
			blk := (x*rows+r)*cols/32 + k/32
			byt := blocks[16*blk+k%32/2]
			code := byt & 0xf
			if k%2 == 1 {
				code = byt >> 4
			}
			out[k] = fp4[code] * math.Exp2(float64(scales[blk])-127)
		}
		return out
	}
	check := func(what string, m *kernels.Matrix, blocks, scales []byte, rows, cols, x int, row func(int) int) {
		t.Helper()
		if m.Type != kernels.MXFP4 || m.Cols != cols {
			t.Fatalf("%s of expert %d: %v with %d columns, want MXFP4 with %d", what, x, m.Type, m.Cols, cols)
		}
		got := make([]float32, cols)
		for r := range m.Rows {
			m.Row(r, got)
			w := want(blocks, scales, rows, cols, x, row(r))
			for k := range got {
				if float64(got[k]) != w[k] {
					t.Fatalf("%s of expert %d, row %d, column %d: %v, want %v", what, x, r, k, got[k], w[k])
				}
			}
		}
	}
	for x := range ne {
		check("gate", gate[x], guBlocks, guScales, 2*ff, hid, x, func(r int) int { return 2 * r })
		check("up", up[x], guBlocks, guScales, 2*ff, hid, x, func(r int) int { return 2*r + 1 })
		check("down", down[x], dBlocks, dScales, hid, ff, x, func(r int) int { return r })
		if gate[x].Rows != ff || up[x].Rows != ff || down[x].Rows != hid {
			t.Errorf("expert %d: %d, %d and %d rows, want %d, %d and %d", x, gate[x].Rows, up[x].Rows, down[x].Rows, ff, ff, hid)
		}
	}

	bad := buildST(t, []stTensor{
		{"l.0.gate_up_proj_blocks", "U8", []int{ne, 2 * ff, hid / 32, 16}, guBlocks},
		{"l.0.gate_up_proj_scales", "U8", []int{ne, 2 * ff, hid / 16}, random(ne*2*ff*hid/16, 120, 10)},
	})
	b = binder{src: SafetensorsSource{M: bad, Dir: "test"}}
	if g, _, _, _ := b.transposedExperts(oaiNames, 0, ne, ff, hid); g != nil {
		t.Error("experts bound from scales of the wrong shape")
	}
	if !errors.Is(b.err, ErrWeights) {
		t.Errorf("scales of the wrong shape: error %v, want ErrWeights", b.err)
	}
}

// TestTransposedExperts binds float experts stored [experts, in, out] with
// gate and up interleaved column by column, and their biases, and checks
// each value against its place in the stored tensors.
func TestTransposedExperts(t *testing.T) {
	const ne, ff, hid = 2, 3, 5
	seq := func(n int, base float32) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = base + float32(i)
		}
		return v
	}
	gu, dn := seq(ne*hid*2*ff, 0), seq(ne*ff*hid, 1000)
	guBias, dnBias, rBias := seq(ne*2*ff, 2000), seq(ne*hid, 3000), seq(ne, 4000)
	f := buildST(t, []stTensor{
		{"l.0.gate_up_proj", "F32", []int{ne, hid, 2 * ff}, f32Bytes(gu)},
		{"l.0.down_proj", "F32", []int{ne, ff, hid}, f32Bytes(dn)},
		{"l.0.gate_up_proj_bias", "F32", []int{ne, 2 * ff}, f32Bytes(guBias)},
		{"l.0.down_proj_bias", "F32", []int{ne, hid}, f32Bytes(dnBias)},
		{"l.0.router.bias", "F32", []int{ne}, f32Bytes(rBias)},
	})
	b := binder{src: SafetensorsSource{M: f, Dir: "test"}}
	gate, up, down, fill := b.transposedExperts(oaiNames, 0, ne, ff, hid)
	l := &MoE{Experts: make([]Expert, ne)}
	b.expertBiases(l, oaiNames, 0, ff, hid)
	if b.err != nil {
		t.Fatal(b.err)
	}
	if gate[0].Type != kernels.F32 || !allZero(down[1].Data) {
		t.Fatalf("experts of type %v, converted before use: %v; want F32, not yet", gate[0].Type, !allZero(down[1].Data))
	}
	for x := range ne {
		fill(x)
	}
	row := make([]float32, hid)
	for x := range ne {
		for r := range ff {
			gate[x].Row(r, row)
			for c := range hid {
				if want := gu[(x*hid+c)*2*ff+2*r]; row[c] != want {
					t.Fatalf("gate of expert %d [%d][%d] = %v, want %v", x, r, c, row[c], want)
				}
			}
			up[x].Row(r, row)
			for c := range hid {
				if want := gu[(x*hid+c)*2*ff+2*r+1]; row[c] != want {
					t.Fatalf("up of expert %d [%d][%d] = %v, want %v", x, r, c, row[c], want)
				}
			}
			e := l.Experts[x]
			if e.GateBias[r] != guBias[x*2*ff+2*r] || e.UpBias[r] != guBias[x*2*ff+2*r+1] {
				t.Fatalf("expert %d biases [%d]: %v, %v", x, r, e.GateBias[r], e.UpBias[r])
			}
		}
		for r := range hid {
			down[x].Row(r, row[:ff])
			for c := range ff {
				if want := dn[(x*ff+c)*hid+r]; row[c] != want {
					t.Fatalf("down of expert %d [%d][%d] = %v, want %v", x, r, c, row[c], want)
				}
			}
			if l.Experts[x].DownBias[r] != dnBias[x*hid+r] {
				t.Fatalf("expert %d down bias [%d] = %v", x, r, l.Experts[x].DownBias[r])
			}
		}
	}
	if l.RouterBias[1] != rBias[1] {
		t.Errorf("router bias %v, want %v", l.RouterBias, rBias)
	}
}

// TestExpertBiasesBadShape checks that interleaved expert biases of the
// wrong shape (one vector instead of one row per expert) are a weights
// error, not a panic.
func TestExpertBiasesBadShape(t *testing.T) {
	const ne, ff, hid = 2, 3, 5
	f := buildST(t, []stTensor{
		{"l.0.gate_up_proj_bias", "F32", []int{2 * ff}, f32Bytes(make([]float32, 2*ff))},
		{"l.0.down_proj_bias", "F32", []int{ne, hid}, f32Bytes(make([]float32, ne*hid))},
		{"l.0.router.bias", "F32", []int{ne}, f32Bytes(make([]float32, ne))},
	})
	b := binder{src: SafetensorsSource{M: f, Dir: "test"}}
	b.expertBiases(&MoE{Experts: make([]Expert, ne)}, oaiNames, 0, ff, hid)
	if !errors.Is(b.err, ErrWeights) || !strings.Contains(b.err.Error(), "gate_up_proj_bias") {
		t.Errorf("error %v, want ErrWeights naming the tensor", b.err)
	}
}

// TestClampedSwiGLU checks the experts' activation against its definition
// with gates and ups inside and outside the limit.
func TestClampedSwiGLU(t *testing.T) {
	const limit = 7
	gate := []float32{-80, -9, -1, 0.5, 6.9, 8, 30}
	up := []float32{2, -12, -6.5, 0, 3, 7.5, -8}
	want := make([]float64, len(gate))
	for i := range gate {
		g := math.Min(float64(gate[i]), limit)
		u := math.Max(-limit, math.Min(float64(up[i]), limit))
		want[i] = g / (1 + math.Exp(-1.702*g)) * (u + 1)
	}
	clampedSwiGLU(gate, up, limit)
	for i, w := range want {
		if math.Abs(float64(gate[i])-w) > 1e-5*math.Max(1, math.Abs(w)) {
			t.Errorf("value %d: %v, want %v", i, gate[i], w)
		}
	}
}

// allZero reports whether every byte of b is zero.
func allZero(b []byte) bool {
	for _, v := range b {
		if v != 0 {
			return false
		}
	}
	return true
}
