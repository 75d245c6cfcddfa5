package kernels

import "encoding/binary"

// Reference dot products of one quantized weight row with up to four
// quantized activation rows (x, x+xstride, ...; out[i] receives row i). The
// integer sums are exactly ggml's (ggml_vec_dot_q4_0_q8_0 and friends); the
// weight block is decoded once and used for every activation row, the shape
// a prefill matmul wants.

func qdot32(t DType, w, x []byte, xstride int, out []float32) {
	var acc [4]float32
	var q [qk]int8
	wb, xb := t.blockBytes(), q8_0
	if t.act() == actQ8_1 {
		xb = q8_1
	}
	for blk := range len(w) / wb {
		d, m := decode32(t, w[blk*wb:], &q)
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

func qdotK(t DType, w, x []byte, xstride int, out []float32) {
	var acc [4]float32
	var q [qkK]int8
	var sc, mn [16]int32
	wb := t.blockBytes()
	for blk := range len(w) / wb {
		d, dmin := decodeK(t, w[blk*wb:], &q, &sc, &mn)
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

func qdotQ8_0Ref(w, x []byte, xs int, out []float32) { qdot32(Q8_0, w, x, xs, out) }
func qdotQ4_0Ref(w, x []byte, xs int, out []float32) { qdot32(Q4_0, w, x, xs, out) }
func qdotQ4_1Ref(w, x []byte, xs int, out []float32) { qdot32(Q4_1, w, x, xs, out) }
func qdotQ5_0Ref(w, x []byte, xs int, out []float32) { qdot32(Q5_0, w, x, xs, out) }
func qdotQ5_1Ref(w, x []byte, xs int, out []float32) { qdot32(Q5_1, w, x, xs, out) }
func qdotQ4_KRef(w, x []byte, xs int, out []float32) { qdotK(Q4_K, w, x, xs, out) }
func qdotQ5_KRef(w, x []byte, xs int, out []float32) { qdotK(Q5_K, w, x, xs, out) }
func qdotQ6_KRef(w, x []byte, xs int, out []float32) { qdotK(Q6_K, w, x, xs, out) }
