package gguf

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

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
	h := F32ToF16(x)
	e.u16(h)
	return float64(F16ToF32(h))
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
func kScales(e *enc, sc, mn []int) {
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

// twoBitPlanes packs 256 values' low two bits as Q2_K/Q3_K store them:
// value n goes to byte 32·(n/128) + n%32 at bit 2·((n%128)/32).
func twoBitPlanes(e *enc, q []int) {
	var qs [64]uint8
	for n, v := range q {
		qs[32*(n/128)+n%32] |= uint8(v&3) << (2 * (n % 128 / 32))
	}
	e.raw(qs[:])
}

var blockGens = map[TensorType]blockGen{
	TypeQ4_0: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, q := halfField(r, e, 0.001, 0.1), ints(r, 32, 16)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v-8) * d }), 8 * math.Abs(d)
	},
	TypeQ4_1: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, m, q := halfField(r, e, 0.001, 0.1), halfField(r, e, 0.01, 1), ints(r, 32, 16)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v)*d + m }), 15*math.Abs(d) + math.Abs(m)
	},
	TypeQ5_0: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, q := halfField(r, e, 0.001, 0.1), ints(r, 32, 32)
		highBits32(e, q)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v-16) * d }), 16 * math.Abs(d)
	},
	TypeQ5_1: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, m, q := halfField(r, e, 0.001, 0.1), halfField(r, e, 0.01, 1), ints(r, 32, 32)
		highBits32(e, q)
		nibbles(e, q)
		return mapInts(q, func(n, v int) float64 { return float64(v)*d + m }), 31*math.Abs(d) + math.Abs(m)
	},
	TypeQ8_0: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, q := halfField(r, e, 0.001, 0.1), ints(r, 32, 256)
		for _, v := range q {
			e.u8(uint8(v))
		}
		return mapInts(q, func(n, v int) float64 { return float64(int8(v)) * d }), 128 * math.Abs(d)
	},
	TypeQ8_1: func(r *rand.Rand, e *enc) ([]float64, float64) {
		d, _, q := halfField(r, e, 0.001, 0.1), halfField(r, e, 1, 2), ints(r, 32, 256)
		for _, v := range q {
			e.u8(uint8(v))
		}
		return mapInts(q, func(n, v int) float64 { return float64(int8(v)) * d }), 128 * math.Abs(d)
	},
	TypeQ2_K:   genQ2K,
	TypeQ3_K:   genQ3K,
	TypeQ4_K:   func(r *rand.Rand, e *enc) ([]float64, float64) { return genQ45K(r, e, 16) },
	TypeQ5_K:   func(r *rand.Rand, e *enc) ([]float64, float64) { return genQ45K(r, e, 32) },
	TypeQ6_K:   genQ6K,
	TypeQ8_K:   genQ8K,
	TypeIQ4_NL: genIQ4NL,
	TypeIQ4_XS: genIQ4XS,
	TypeF32: func(r *rand.Rand, e *enc) ([]float64, float64) {
		x := float32(r.NormFloat64())
		e.u32(math.Float32bits(x))
		return []float64{float64(x)}, 0
	},
	TypeF16: func(r *rand.Rand, e *enc) ([]float64, float64) {
		return []float64{halfField(r, e, 0, 1000)}, 0
	},
	TypeBF16: func(r *rand.Rand, e *enc) ([]float64, float64) {
		b := F32ToBF16(float32(r.NormFloat64() * 1e10))
		e.u16(b)
		return []float64{float64(math.Float32frombits(uint32(b) << 16))}, 0
	},
	TypeF64: func(r *rand.Rand, e *enc) ([]float64, float64) {
		x := r.NormFloat64()
		e.u64(math.Float64bits(x))
		return []float64{float64(float32(x))}, 0
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

// Q2_K: 16 sub-blocks of 16 with 4-bit scale and min: x = d·sc·q - dmin·m.
func genQ2K(r *rand.Rand, e *enc) ([]float64, float64) {
	sc, mn, q := ints(r, 16, 16), ints(r, 16, 16), ints(r, 256, 4)
	for j := range 16 {
		e.u8(uint8(sc[j] | mn[j]<<4))
	}
	twoBitPlanes(e, q)
	d, dmin := halfField(r, e, 0.001, 0.1), halfField(r, e, 0.001, 0.1)
	return mapInts(q, func(n, v int) float64 {
		return d*float64(sc[n/16]*v) - dmin*float64(mn[n/16])
	}), 45*math.Abs(d) + 15*math.Abs(dmin)
}

// Q3_K: 3-bit values (high bit in hmask: byte n%32, bit n/32), 16 signed
// 6-bit scales: x = d·(sc-32)·(q-4).
func genQ3K(r *rand.Rand, e *enc) ([]float64, float64) {
	sc, q := ints(r, 16, 64), ints(r, 256, 8)
	var hmask [32]uint8
	for n, v := range q {
		hmask[n%32] |= uint8(v>>2) << (n / 32)
	}
	e.raw(hmask[:])
	twoBitPlanes(e, q)
	var s [12]uint8
	for j, v := range sc {
		s[j%8] |= uint8(v&15) << (4 * (j / 8))
		s[8+j%4] |= uint8(v>>4) << (2 * (j / 4))
	}
	e.raw(s[:])
	d := halfField(r, e, 0.001, 0.1)
	return mapInts(q, func(n, v int) float64 {
		return d * float64((sc[n/16]-32)*(v-4))
	}), 32 * 4 * math.Abs(d)
}

// Q4_K (bits 16) and Q5_K (bits 32): eight sub-blocks of 32 with 6-bit
// scale and min: x = d·sc·q - dmin·m. Every 64 values share 32 bytes of
// nibbles; Q5_K's fifth bit of value 64c+l is bit 2c of qh[l], of value
// 64c+32+l bit 2c+1.
func genQ45K(r *rand.Rand, e *enc, levels int) ([]float64, float64) {
	d, dmin := halfField(r, e, 0.001, 0.1), halfField(r, e, 0.001, 0.1)
	sc, mn, q := ints(r, 8, 64), ints(r, 8, 64), ints(r, 256, levels)
	kScales(e, sc, mn)
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

// Q8_K: float32 d, 256 int8, 16 int16 sums: x = d·q.
func genQ8K(r *rand.Rand, e *enc) ([]float64, float64) {
	d := float32(r.Float64() * 0.01)
	q := ints(r, 256, 256)
	e.u32(math.Float32bits(d))
	var sums [16]int
	for n, v := range q {
		e.u8(uint8(v))
		sums[n/16] += int(int8(v))
	}
	for _, s := range sums {
		e.u16(uint16(int16(s)))
	}
	return mapInts(q, func(n, v int) float64 { return float64(d) * float64(int8(v)) }), 128 * float64(d)
}

// IQ4_NL: 32 4-bit codebook indices: x = d·codebook[q].
func genIQ4NL(r *rand.Rand, e *enc) ([]float64, float64) {
	d, q := halfField(r, e, 0.001, 0.1), ints(r, 32, 16)
	nibbles(e, q)
	return mapInts(q, func(n, v int) float64 { return d * float64(iq4Values[v]) }), 127 * math.Abs(d)
}

// IQ4_XS: eight IQ4_NL-style sub-blocks with 6-bit scales (low nibble in
// scales_l, top two bits in scales_h): x = d·(ls-32)·codebook[q].
func genIQ4XS(r *rand.Rand, e *enc) ([]float64, float64) {
	d := halfField(r, e, 0.001, 0.1)
	ls, q := ints(r, 8, 64), ints(r, 256, 16)
	var hi uint16
	var lo [4]uint8
	for ib, v := range ls {
		hi |= uint16(v>>4) << (2 * ib)
		lo[ib/2] |= uint8(v&15) << (4 * (ib % 2))
	}
	e.u16(hi).raw(lo[:])
	for ib := range 8 {
		nibbles(e, q[32*ib:32*ib+32])
	}
	return mapInts(q, func(n, v int) float64 {
		return d * float64((ls[n/32]-32)*int(iq4Values[v]))
	}), 32 * 127 * math.Abs(d)
}

// TestDequantizeBlocks builds random blocks of every computable type and
// checks Dequantize against the formula, one block and several at a time.
func TestDequantizeBlocks(t *testing.T) {
	if iq4Values[0] != -127 || iq4Values[15] != 113 { // ggml's kvalues_iq4nl
		t.Fatalf("IQ4 codebook %v", iq4Values)
	}
	for typ := range dequantizers {
		gen, ok := blockGens[typ]
		if !ok {
			t.Errorf("%s: no block test", typ)
			continue
		}
		r := rand.New(rand.NewPCG(uint64(typ), 7))
		e, mags := new(enc), []float64{}
		var want []float64
		for range 8 {
			w, mag := gen(r, e)
			want = append(want, w...)
			mags = append(mags, mag)
		}
		if len(e.b) != 8*typ.TypeSize() || len(want) != 8*typ.BlockSize() {
			t.Fatalf("%s: test built %d bytes for %d values", typ, len(e.b), len(want))
		}
		got := make([]float32, len(want))
		if err := Dequantize(typ, e.b, got); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		for n, w := range want {
			tol := 1e-6*mags[n/typ.BlockSize()] + math.Abs(w)*1e-6
			if math.Abs(float64(got[n])-w) > tol {
				t.Fatalf("%s value %d: %g, want %g", typ, n, got[n], w)
			}
		}
	}
}

func TestDequantizeErrors(t *testing.T) {
	for typ := range typeInfos {
		if _, ok := dequantizers[typ]; ok {
			continue
		}
		err := Dequantize(typ, nil, nil)
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), typ.String()) {
			t.Errorf("%s: err = %v", typ, err)
		}
	}
	sizes := []struct {
		typ    TensorType
		src, n int
	}{
		{TypeQ4_0, 18, 31},
		{TypeQ4_0, 17, 32},
		{TypeQ4_0, 36 + 1, 64},
		{TypeQ6_K, 210, 32},
		{TypeF16, 3, 2},
	}
	for _, tc := range sizes {
		err := Dequantize(tc.typ, make([]byte, tc.src), make([]float32, tc.n))
		if !errors.Is(err, ErrSize) || !strings.Contains(err.Error(), tc.typ.String()) {
			t.Errorf("%s %d bytes → %d values: err = %v", tc.typ, tc.src, tc.n, err)
		}
	}
	if err := Dequantize(TypeQ4_K, nil, nil); err != nil {
		t.Errorf("empty input: %v", err)
	}
}
