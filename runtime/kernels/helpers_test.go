package kernels

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// quantTypes are the formats whose activations are quantized.
var quantTypes = []DType{Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K, MXFP4}

// allTypes are every weight format (MLXAffine with 4-bit, group 64, BF16 scales).
var allTypes = append([]DType{F32, F16, BF16, MLXAffine}, quantTypes...)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

func randFloats(rng *rand.Rand, n int, scale float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * scale)
	}
	return x
}

func putHalf(b []byte, f float64) { binary.LittleEndian.PutUint16(b, f32ToF16(float32(f))) }

// randomBlocks fills data with random blocks of a GGUF format: random bits
// everywhere, then sane fp16 scales.
func randomBlocks(rng *rand.Rand, t DType, data []byte) {
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	bb := t.blockBytes()
	for o := 0; o+bb <= len(data); o += bb {
		b := data[o : o+bb]
		switch t {
		case Q8_0, Q4_0, Q5_0:
			putHalf(b, 0.001+rng.Float64()*0.02)
		case Q4_1, Q5_1, Q4_K, Q5_K:
			putHalf(b, 0.001+rng.Float64()*0.02)
			putHalf(b[2:], rng.Float64()*0.02)
		case Q6_K:
			putHalf(b[208:], 0.001+rng.Float64()*0.002)
		case MXFP4:
			b[0] = byte(117 + rng.IntN(6)) // 2^-10 … 2^-5
		}
	}
}

// randomMatrix returns a valid rows×cols matrix of type t with random content.
func randomMatrix(tb testing.TB, rng *rand.Rand, t DType, rows, cols int) *Matrix {
	tb.Helper()
	m := Matrix{Type: t, Rows: rows, Cols: cols}
	switch t {
	case F32:
		m.Data = make([]byte, rows*cols*4)
		for i := 0; i < rows*cols; i++ {
			binary.LittleEndian.PutUint32(m.Data[4*i:], math.Float32bits(float32(rng.NormFloat64()*0.1)))
		}
	case F16, BF16:
		m.Data = make([]byte, rows*cols*2)
		for i := 0; i < rows*cols; i++ {
			v := float32(rng.NormFloat64() * 0.1)
			h := f32ToF16(v)
			if t == BF16 {
				h = f32ToBF16(v)
			}
			binary.LittleEndian.PutUint16(m.Data[2*i:], h)
		}
	case MLXAffine:
		m.Bits, m.GroupSize, m.ScaleType = 4, 64, BF16
		m.Data = make([]byte, rows*cols/2)
		for i := range m.Data {
			m.Data[i] = byte(rng.Uint32())
		}
		g := rows * cols / 64
		m.Scales, m.Biases = make([]byte, 2*g), make([]byte, 2*g)
		for i := range g {
			binary.LittleEndian.PutUint16(m.Scales[2*i:], f32ToBF16(float32(rng.NormFloat64()*0.01)))
			binary.LittleEndian.PutUint16(m.Biases[2*i:], f32ToBF16(float32(rng.NormFloat64()*0.05)))
		}
	default:
		m.Data = make([]byte, rows*(cols/t.blockElems())*t.blockBytes())
		randomBlocks(rng, t, m.Data)
	}
	w, err := NewMatrix(m)
	if err != nil {
		tb.Fatalf("NewMatrix(%v %d×%d): %v", t, rows, cols, err)
	}
	return w
}

// dequantMatrix returns all rows of w as float32.
func dequantMatrix(w *Matrix) []float32 {
	out := make([]float32, w.Rows*w.Cols)
	for r := range w.Rows {
		w.Row(r, out[r*w.Cols:(r+1)*w.Cols])
	}
	return out
}

// dequantAct turns one quantized activation row back into floats.
func dequantAct(a actKind, b []byte, cols int) []float32 {
	out := make([]float32, cols)
	switch a {
	case actQ8_0, actQ8_1:
		bb, off := q8_0, 2
		if a == actQ8_1 {
			bb, off = q8_1, 4
		}
		for blk := range cols / qk {
			y := b[blk*bb:]
			d := half(y)
			for j := range qk {
				out[blk*qk+j] = d * float32(int8(y[off+j]))
			}
		}
	case actQ8_K:
		for blk := range cols / qkK {
			y := b[blk*q8K:]
			d := f32At(y)
			for j := range qkK {
				out[blk*qkK+j] = d * float32(int8(y[4+j]))
			}
		}
	}
	return out
}

func dot64(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func absSum(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += math.Abs(float64(a[i]) * float64(b[i]))
	}
	return s
}

// closeTo reports whether got is within tol·scale (+ a tiny absolute slack) of want.
func closeTo(got, want, scale, tol float64) bool {
	return math.Abs(got-want) <= tol*scale+1e-30
}
