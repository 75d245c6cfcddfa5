package kernels

import "encoding/binary"

// Reference dot products of one quantized weight row with up to four
// quantized activation rows (x, x+xstride, ...; out[i] receives row i). The
// integer sums are exactly ggml's (ggml_vec_dot_q4_0_q8_0 and friends); the
// weight block is decoded once and used for every activation row, the shape
// a prefill matmul wants.

func qdot32(w, x []byte, xstride int, out []float32, wb, xb int, dec block32) {
	var acc [4]float32
	var q [qk]int8
	nb := len(w) / wb
	for blk := range nb {
		d, m := dec(w[blk*wb:], &q)
		for r := range out {
			y := x[r*xstride+blk*xb:][:xb]
			ys := y[xb-qk:]
			var sumi int32
			for j, v := range q {
				sumi += int32(v) * int32(int8(ys[j]))
			}
			acc[r] += float32(sumi) * float32(d*half(y))
			if xb == q8_1 {
				acc[r] += float32(m * half(y[2:]))
			}
		}
	}
	copy(out, acc[:len(out)])
}

func qdotK(w, x []byte, xstride int, out []float32, wb int, dec blockK) {
	var acc [4]float32
	var q [qkK]int8
	var sc, mn [16]int32
	nb := len(w) / wb
	for blk := range nb {
		d, dmin := dec(w[blk*wb:], &q, &sc, &mn)
		for r := range out {
			y := x[r*xstride+blk*q8K:][:q8K]
			ys := y[4 : 4+qkK]
			var sumi, summ int32
			for s := range 16 {
				var p int32
				for j, v := range q[16*s : 16*s+16] {
					p += int32(v) * int32(int8(ys[16*s+j]))
				}
				sumi += sc[s] * p
				summ += mn[s] * int32(int16(binary.LittleEndian.Uint16(y[4+qkK+2*s:])))
			}
			yd := f32At(y)
			acc[r] += float32(d*yd) * float32(sumi)
			acc[r] -= float32(dmin*yd) * float32(summ)
		}
	}
	copy(out, acc[:len(out)])
}

func qdotQ8_0Ref(w, x []byte, xs int, out []float32) { qdot32(w, x, xs, out, q8_0, q8_0, decodeQ8_0) }
func qdotQ4_0Ref(w, x []byte, xs int, out []float32) { qdot32(w, x, xs, out, q4_0, q8_0, decodeQ4_0) }
func qdotQ4_1Ref(w, x []byte, xs int, out []float32) { qdot32(w, x, xs, out, q4_1, q8_1, decodeQ4_1) }
func qdotQ5_0Ref(w, x []byte, xs int, out []float32) { qdot32(w, x, xs, out, q5_0, q8_0, decodeQ5_0) }
func qdotQ5_1Ref(w, x []byte, xs int, out []float32) { qdot32(w, x, xs, out, q5_1, q8_1, decodeQ5_1) }
func qdotQ4_KRef(w, x []byte, xs int, out []float32) { qdotK(w, x, xs, out, q4K, decodeQ4_K) }
func qdotQ5_KRef(w, x []byte, xs int, out []float32) { qdotK(w, x, xs, out, q5K, decodeQ5_K) }
func qdotQ6_KRef(w, x []byte, xs int, out []float32) { qdotK(w, x, xs, out, q6K, decodeQ6_K) }
