package kernels

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// The tests of Decode build blocks from random fields the way ggml's
// quantizers pack them and compare the decoded values with each format's
// formula, worked out here independently of blocks.go.

// enc appends little-endian fields.
type enc struct{ b []byte }

func (e *enc) u8(v uint8) *enc   { e.b = append(e.b, v); return e }
func (e *enc) u16(v uint16) *enc { e.b = binary.LittleEndian.AppendUint16(e.b, v); return e }
func (e *enc) u32(v uint32) *enc { e.b = binary.LittleEndian.AppendUint32(e.b, v); return e }
func (e *enc) raw(p []byte) *enc { e.b = append(e.b, p...); return e }

// A blockGen builds one block of a type from random fields, packed the way
// ggml's quantizers pack them, and returns the values the block stands for
// (by the type's formula, in float64) and the magnitude of the largest term,
// which scales the rounding tolerance.
type blockGen func(r *rand.Rand, e *enc) (want []float64, mag float64)

// halfField writes a random F16 scale in ±[lo, hi) and returns its value.
func halfField(r *rand.Rand, e *enc, lo, hi float32) float64 {
	x := lo + r.Float32()*(hi-lo)
	if r.IntN(2) == 0 {
		x = -x
	}
	h := f32ToF16(x)
	e.u16(h)
	return float64(f16ToF32(h))
}

// ints returns n random integers in [0, max).
func ints(r *rand.Rand, n, max int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = r.IntN(max)
	}
	return out
}

// nibbles packs 32 4-bit values: element j low, element j+16 high.
func nibbles(e *enc, q []int) {
	for j := range 16 {
		e.u8(uint8(q[j]&15 | (q[j+16]&15)<<4))
	}
}

// highBits32 packs bit 4 of 32 values into a u32 (bit j for element j).
func highBits32(e *enc, q []int) {
	var qh uint32
	for j, v := range q {
		qh |= uint32(v>>4&1) << j
	}
	e.u32(qh)
}

// kScales packs eight 6-bit scales and mins as Q4_K/Q5_K store them.
func packKScales(e *enc, sc, mn []int) {
	var s [12]uint8
	for j := range 8 {
		if j < 4 {
			s[j], s[j+4] = uint8(sc[j]), uint8(mn[j])
			continue
		}
		s[j+4] = uint8(sc[j]&15 | (mn[j]&15)<<4)
		s[j-4] |= uint8(sc[j]>>4) << 6
		s[j] |= uint8(mn[j]>>4) << 6
	}
	e.raw(s[:])
}

var blockGens = map[DType]blockGen{
	Q4_0: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, q := halfField(r, e, 0.001, 0.1), ints(r, 32, 16)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v-8) * d }), 8 * math.Abs(d)
	},
	Q4_1: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, m, q := halfField(r, e, 0.001, 0.1), halfField(r, e, 0.01, 1), ints(r, 32, 16)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v)*d + m }), 15*math.Abs(d) + math.Abs(m)
	},
	Q5_0: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, q := halfField(r, e, 0.001, 0.1), ints(r, 32, 32)
		highBits32(e, q)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v-16) * d }), 16 * math.Abs(d)
	},
	Q5_1: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, m, q := halfField(r, e, 0.001, 0.1), halfField(r, e, 0.01, 1), ints(r, 32, 32)
		highBits32(e, q)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v)*d + m }), 31*math.Abs(d) + math.Abs(m)
	},
	Q8_0: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, q := halfField(r, e, 0.001, 0.1), ints(r, 32, 256)
		for _, v := range q {
			e.u8(uint8(v))
		}
		return mapInts(q, func(n, v int) float64 { return float64(int8(v)) * d }), 128 * math.Abs(d)
	},
	Q4_K:  func(r *rand.Rand, e *enc) ([]float64, float64) { return genQ45K(r, e, 16) },
	Q5_K:  func(r *rand.Rand, e *enc) ([]float64, float64) { return genQ45K(r, e, 32) },
	Q6_K:  genQ6K,
	MXFP4: genMXFP4,
	F32: func(r *rand.Rand, e *enc) ([]float64, float64) {
		x := float32(r.NormFloat64())
		e.u32(math.Float32bits(x))
		return []float64{float64(x)}, 0
	},
	F16: func(r *rand.Rand, e *enc) ([]float64, float64) {
		return []float64{halfField(r, e, 0, 1000)}, 0
	},
	BF16: func(r *rand.Rand, e *enc) ([]float64, float64) {
		b := f32ToBF16(float32(r.NormFloat64() * 1e10))
		e.u16(b)
		return []float64{float64(math.Float32frombits(uint32(b) << 16))}, 0
	},
}

// mapInts applies f to each (index, value).
func mapInts(q []int, f func(n, v int) float64) []float64 {
	out := make([]float64, len(q))
	for n, v := range q {
		out[n] = f(n, v)
	}
	return out
}

// Q4_K (bits 16) and Q5_K (bits 32): eight sub-blocks of 32 with 6-bit
// scale and min: x = d·sc·q - dmin·m. Every 64 values share 32 bytes of
// nibbles; Q5_K's fifth bit of value 64c+l is bit 2c of qh[l], of value
// 64c+32+l bit 2c+1.
func genQ45K(r *rand.Rand, e *enc, levels int) ([]float64, float64) {
	d, dmin := halfField(r, e, 0.001, 0.1), halfField(r, e, 0.001, 0.1)
	sc, mn, q := ints(r, 8, 64), ints(r, 8, 64), ints(r, 256, levels)
	packKScales(e, sc, mn)
	if levels == 32 {
		var qh [32]uint8
		for n, v := range q {
			qh[n%32] |= uint8(v>>4) << (n / 32)
		}
		e.raw(qh[:])
	}
	for c := range 4 {
		for l := range 32 {
			e.u8(uint8(q[64*c+l]&15 | (q[64*c+32+l]&15)<<4))
		}
	}
	return mapInts(q, func(n, v int) float64 {
		return d*float64(sc[n/32]*v) - dmin*float64(mn[n/32])
	}), 63*float64(levels)*math.Abs(d) + 63*math.Abs(dmin)
}

// Q6_K: 6-bit values, 16 int8 scales: x = d·sc·(q-32).
func genQ6K(r *rand.Rand, e *enc) ([]float64, float64) {
	sc, q := ints(r, 16, 256), ints(r, 256, 64)
	var ql [128]uint8
	var qh [64]uint8
	for n, v := range q {
		h, k, l := n/128, n%128/32, n%32
		ql[64*h+32*(k%2)+l] |= uint8(v&15) << (4 * (k / 2))
		qh[32*h+l] |= uint8(v>>4) << (2 * k)
	}
	e.raw(ql[:]).raw(qh[:])
	for _, v := range sc {
		e.u8(uint8(v))
	}
	d := halfField(r, e, 0.001, 0.1)
	return mapInts(q, func(n, v int) float64 {
		return d * float64(int(int8(sc[n/16]))*(v-32))
	}), 128 * 32 * math.Abs(d)
}

// genMXFP4 builds one MXFP4 block: an E8M0 scale byte (2^(e-127)) and 32
// E2M1 codes packed as nibbles (element j low, element j+16 high).
func genMXFP4(r *rand.Rand, e *enc) ([]float64, float64) {
	sc := 100 + r.IntN(50)
	e.u8(uint8(sc))
	q := ints(r, 32, 16)
	nibbles(e, q)
	d := math.Ldexp(1, sc-127)
	return mapInts(q, func(n, v int) float64 { return e2m1(v) * d }), 6 * d
}

// TestDecodeBlocks builds random blocks of every format Decode takes and
// checks the decoded values against the formula, eight blocks at a time.
func TestDecodeBlocks(t *testing.T) {
	for typ, gen := range blockGens {
		r := rand.New(rand.NewPCG(uint64(typ), 7))
		e, mags := new(enc), []float64{}
		var want []float64
		for range 8 {
			w, mag := gen(r, e)
			want = append(want, w...)
			mags = append(mags, mag)
		}
		if len(e.b) != 8*typ.blockBytes() || len(want) != 8*typ.blockElems() {
			t.Fatalf("%s: test built %d bytes for %d values", typ, len(e.b), len(want))
		}
		got := make([]float32, len(want))
		if err := Decode(typ, e.b, got); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		for n, w := range want {
			tol := 1e-6*mags[n/typ.blockElems()] + math.Abs(w)*1e-6
			if math.Abs(float64(got[n])-w) > tol {
				t.Fatalf("%s value %d: %g, want %g", typ, n, got[n], w)
			}
		}
	}
	for _, typ := range allTypes {
		if _, ok := blockGens[typ]; !ok && typ != MLXAffine {
			t.Errorf("%s: no block test", typ)
		}
	}
}

// TestDecodeArbitraryBytes decodes random bytes of every format: whatever
// the scales hold, Decode must not panic.
func TestDecodeArbitraryBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for typ := range blockGens {
		src := make([]byte, 4*typ.blockBytes())
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		if err := Decode(typ, src, make([]float32, 4*typ.blockElems())); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, typ := range []DType{MLXAffine, MLXAffine + 1} {
		if err := Decode(typ, nil, nil); !errors.Is(err, ErrMatrix) || !strings.Contains(err.Error(), typ.String()) {
			t.Errorf("%s: err = %v", typ, err)
		}
	}
	sizes := []struct {
		typ    DType
		src, n int
	}{
		{Q4_0, 18, 31},
		{Q4_0, 17, 32},
		{Q4_0, 36 + 1, 64},
		{Q6_K, 210, 32},
		{F16, 3, 2},
	}
	for _, tc := range sizes {
		err := Decode(tc.typ, make([]byte, tc.src), make([]float32, tc.n))
		if !errors.Is(err, ErrMatrix) || !strings.Contains(err.Error(), tc.typ.String()) {
			t.Errorf("%s %d bytes → %d values: err = %v", tc.typ, tc.src, tc.n, err)
		}
	}
	if err := Decode(Q4_K, nil, nil); err != nil {
		t.Errorf("empty input: %v", err)
	}
}
