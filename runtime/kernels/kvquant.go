package kernels

import (
	"encoding/binary"
	"fmt"
)

// Attention over KV-cache rows stored in the GGUF block formats Q8_0 and
// Q4_0 (32 values and an fp16 scale per block), as llama.cpp's quantized
// caches hold them: one row per position and KV head. Keys are scored
// against a query quantized to Q8_0 with the integer dot products of the
// weight kernels; values are decoded block by block into the weighted sum.

// QuantRowBytes returns the bytes of a row of n values in format t (Q8_0
// or Q4_0); n must be a multiple of 32.
func QuantRowBytes(t DType, n int) int { return n / qk * t.blockBytes() }

// QuantizeRow writes src (a multiple of 32 values) to dst in format t:
// Q8_0 as ggml's quantize_row_q8_0 (d = amax/127, rounded to nearest even),
// Q4_0 as quantize_row_q4_0 (d = -max/8 of the value of largest magnitude).
// It panics for other formats or when dst is too short.
func QuantizeRow(t DType, dst []byte, src []float32) {
	checkQuant("QuantizeRow", t, len(src))
	_ = dst[QuantRowBytes(t, len(src))-1]
	if t == Q8_0 {
		impl().quantize[actQ8_0](dst, src)
		return
	}
	quantizeQ4_0Ref(dst, src)
}

// quantizeQ4_0Ref is ggml's reference Q4_0 quantizer.
func quantizeQ4_0Ref(dst []byte, src []float32) {
	for i := 0; i+qk <= len(src); i += qk {
		x, b := src[i:i+qk], dst[i/qk*q4_0:][:q4_0]
		var amax, m float32
		for _, v := range x {
			if a := abs32(v); a > amax {
				amax, m = a, v
			}
		}
		d := m / -8
		var id float32
		if d != 0 {
			id = 1 / d
		}
		binary.LittleEndian.PutUint16(b, f32ToF16(d))
		for j := range qk / 2 {
			b[2+j] = nibble(x[j]*id) | nibble(x[j+qk/2]*id)<<4
		}
	}
}

// nibble is ggml's MIN(15, (int8_t)(x + 8.5f)).
func nibble(x float32) byte { return byte(min(15, int8(x+8.5))) }

// ScoresQ sets dst[r*n+t] to the dot product of query row r with key row t,
// for rows query rows and n = len(dst)/rows positions: q holds the rows in
// Q8_0 (QuantRowBytes(Q8_0, hd) bytes each), k the n keys in format t
// (QuantRowBytes(t, hd) bytes each). It panics if the slices are too short.
func ScoresQ(t DType, dst []float32, rows int, q, k []byte, hd int) {
	checkQuant("ScoresQ", t, hd)
	if rows <= 0 || len(dst)%rows != 0 {
		panic(fmt.Sprintf("kernels: ScoresQ of %d outputs over %d rows", len(dst), rows))
	}
	n, kb, qb := len(dst)/rows, QuantRowBytes(t, hd), QuantRowBytes(Q8_0, hd)
	if n == 0 {
		return
	}
	_, _ = q[rows*qb-1], k[n*kb-1]
	impl().scoresQ[t-Q8_0](dst, rows, q, k, hd)
}

// scoresQWith is ScoresQ from a kernel set's dot products: one call per
// key row for up to four query rows.
func scoresQWith(qdot func(w, x []byte, xs int, out []float32), t DType) func(dst []float32, rows int, q, k []byte, hd int) {
	return func(dst []float32, rows int, q, k []byte, hd int) {
		n, kb, qb := len(dst)/rows, QuantRowBytes(t, hd), QuantRowBytes(Q8_0, hd)
		var out [4]float32
		for r0 := 0; r0 < rows; r0 += 4 {
			nr := min(4, rows-r0)
			qs := q[r0*qb:]
			for p := range n {
				qdot(k[p*kb:(p+1)*kb], qs, qb, out[:nr])
				for r, v := range out[:nr] {
					dst[(r0+r)*n+p] = v
				}
			}
		}
	}
}

// AccumQ adds Σ_t p[t]·v_t[d] to dst[d] for d < len(dst), v holding len(p)
// rows of len(dst) values (a multiple of 32) in format t. It panics if v is
// too short.
func AccumQ(t DType, dst, p []float32, v []byte) {
	checkQuant("AccumQ", t, len(dst))
	if len(p) == 0 {
		return
	}
	_ = v[len(p)*QuantRowBytes(t, len(dst))-1]
	impl().accumQ[t-Q8_0](dst, p, v)
}

// accumQRef is AccumQ in plain Go.
func accumQRef(t DType) func(dst, p []float32, v []byte) {
	return func(dst, p []float32, v []byte) {
		bb, rb := t.blockBytes(), QuantRowBytes(t, len(dst))
		var q [qk]int8
		for i, w := range p {
			row := v[i*rb : (i+1)*rb]
			for b := range len(dst) / qk {
				d, _ := decode32(t, row[b*bb:], &q)
				s, out := w*d, dst[b*qk:(b+1)*qk]
				for j, x := range q {
					out[j] += s * float32(x)
				}
			}
		}
	}
}

// checkQuant panics unless t is a KV-cache format and n a whole number of
// its blocks.
func checkQuant(op string, t DType, n int) {
	if (t != Q8_0 && t != Q4_0) || n%qk != 0 {
		panic(fmt.Sprintf("kernels: %s of %d values of %v", op, n, t))
	}
}

// DecodeQ writes the values of src, len(dst)/32 blocks of format t (Q8_0
// or Q4_0), to dst as float32: d·q, as ggml's dequantize_row functions.
// It panics if src is too short.
func DecodeQ(t DType, dst []float32, src []byte) {
	checkQuant("DecodeQ", t, len(dst))
	if len(dst) == 0 {
		return
	}
	_ = src[QuantRowBytes(t, len(dst))-1]
	impl().decodeQ[t-Q8_0](dst, src)
}
