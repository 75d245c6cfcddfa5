package kernels

import "fmt"

// Kernels of attention over a KV cache block: keys stored transposed (row d
// holds dimension d of every position of the block), values by position.

// ScoresF16 sets dst[t] = Σ_d q[d]·k[d*stride+t] for t < len(dst), the keys k
// being IEEE halves stored transposed, stride positions per row (a cache
// block). It panics if len(dst) > stride or k is too short.
func ScoresF16(dst, q []float32, k []uint16, stride int) {
	checkBlock("ScoresF16", len(dst), len(q), len(k), stride)
	impl().scoresF16(dst, q, k, stride)
}

// ScoresF32 is ScoresF16 for float32 keys.
func ScoresF32(dst, q []float32, k []float32, stride int) {
	checkBlock("ScoresF32", len(dst), len(q), len(k), stride)
	impl().scoresF32(dst, q, k, stride)
}

// AccumF16 adds Σ_t p[t]·v[t*stride+d] to dst[d] for d < len(dst), the
// values v being IEEE halves, one row of stride per position. It panics if
// len(dst) > stride or v is too short.
func AccumF16(dst, p []float32, v []uint16, stride int) {
	checkBlock("AccumF16", len(dst), len(p), len(v), stride)
	impl().accumF16(dst, p, v, stride)
}

// AccumF32 is AccumF16 for float32 values.
func AccumF32(dst, p []float32, v []float32, stride int) {
	checkBlock("AccumF32", len(dst), len(p), len(v), stride)
	impl().accumF32(dst, p, v, stride)
}

// AxpyHalf sets y[i] to the half nearest f32(y[i]) + alpha·f32(x[i]) for
// i < len(y), as ggml's ggml_vec_mad_f16: an accumulator kept in halves. x
// must be at least as long as y.
func AxpyHalf(alpha float32, x, y []uint16) {
	x = x[:len(y)]
	impl().axpyHalf(alpha, x, y)
}

// ScaleHalf sets y[i] to the half nearest f32(y[i])·s.
func ScaleHalf(y []uint16, s float32) { impl().scaleHalf(y, s) }

// AccumHalf runs AxpyHalf(p[t], v[t*stride:], acc) for t < len(p) in order:
// a half-precision accumulator, rounded after every position, as ggml's
// flash attention keeps its sum of values. It panics if len(acc) > stride
// or v is too short.
func AccumHalf(acc []uint16, p []float32, v []uint16, stride int) {
	checkBlock("AccumHalf", len(acc), len(p), len(v), stride)
	impl().accumHalf(acc, p, v, stride)
}

// checkBlock panics unless n outputs over m rows of stride fit in size.
func checkBlock(op string, n, m, size, stride int) {
	if n > stride || (m > 0 && n > 0 && (m-1)*stride+n > size) {
		panic(fmt.Sprintf("kernels: %s of %d over %d rows of stride %d: %d elements", op, n, m, stride, size))
	}
}

// compose fills the attention operations of a kernel set that an
// architecture file did not replace, from the set's own axpy and
// conversions.
func (k *kernelSet) compose() {
	axpy, axpyF16, toF32, toF16 := k.axpy, k.axpyF16, k.f16ToF32, k.f32ToF16
	if k.scoresF16 == nil {
		k.scoresF16 = func(dst, q []float32, kt []uint16, stride int) { scoresWith(axpyF16, dst, q, kt, stride) }
	}
	if k.scoresF32 == nil {
		k.scoresF32 = func(dst, q []float32, kt []float32, stride int) { scoresWith(axpy, dst, q, kt, stride) }
	}
	if k.accumF16 == nil {
		k.accumF16 = func(dst, p []float32, v []uint16, stride int) { accumWith(axpyF16, dst, p, v, stride) }
	}
	if k.accumF32 == nil {
		k.accumF32 = func(dst, p []float32, v []float32, stride int) { accumWith(axpy, dst, p, v, stride) }
	}
	if k.axpyHalf == nil {
		k.axpyHalf = func(alpha float32, x, y []uint16) {
			inFloats(y, toF32, toF16, func(i int, buf []float32) { axpyF16(alpha, x[i:i+len(buf)], buf) })
		}
	}
	if k.accumHalf == nil {
		axpyHalf := k.axpyHalf
		k.accumHalf = func(acc []uint16, p []float32, v []uint16, stride int) {
			for t, x := range p {
				axpyHalf(x, v[t*stride:t*stride+len(acc)], acc)
			}
		}
	}
	for i, t := range []DType{Q8_0, Q4_0} {
		if k.scoresQ[i] == nil {
			k.scoresQ[i] = scoresQWith(k.qdot[t], t)
		}
		if k.accumQ[i] == nil {
			k.accumQ[i] = accumQRef(t)
		}
		if k.decodeQ[i] == nil {
			k.decodeQ[i] = func(dst []float32, src []byte) { dequant32(t, src, dst) }
		}
	}
	if k.scaleHalf == nil {
		k.scaleHalf = func(y []uint16, s float32) {
			inFloats(y, toF32, toF16, func(_ int, buf []float32) { Scale(buf, s) })
		}
	}
}

// scoresWith is ScoresF16/F32 as one axpy per key row.
func scoresWith[T uint16 | float32](axpy func(float32, []T, []float32), dst, q []float32, k []T, stride int) {
	clear(dst)
	for d, x := range q {
		axpy(x, k[d*stride:d*stride+len(dst)], dst)
	}
}

// accumWith is AccumF16/F32 as one axpy per position.
func accumWith[T uint16 | float32](axpy func(float32, []T, []float32), dst, p []float32, v []T, stride int) {
	for t, x := range p {
		axpy(x, v[t*stride:t*stride+len(dst)], dst)
	}
}

// inFloats runs op on y converted to float32, 64 values at a time (i the
// offset of buf in y), and converts the result back to halves.
func inFloats(y []uint16, toF32 func([]float32, []uint16), toF16 func([]uint16, []float32), op func(i int, buf []float32)) {
	if len(y) == 0 {
		return // before buf, which escapes: no allocation for the empty tails of the vector kernels
	}
	var buf [64]float32
	for i := 0; i < len(y); i += len(buf) {
		b := buf[:min(len(buf), len(y)-i)]
		toF32(b, y[i:i+len(b)])
		op(i, b)
		toF16(y[i:i+len(b)], b)
	}
}
