//go:build !noasm

package kernels

//go:noescape
func scoresF16AVX2(dst, q *float32, k *uint16, n, hd, stride int)

//go:noescape
func scoresF16SeqAVX2(dst, q *float32, k *uint16, n, hd, stride int)

//go:noescape
func scoresF32AVX2(dst, q *float32, k *float32, n, hd, stride int)

//go:noescape
func accumF16AVX2(dst, p *float32, v *uint16, n, m, stride int)

//go:noescape
func accumF32AVX2(dst, p *float32, v *float32, n, m, stride int)

//go:noescape
func axpyHalfAVX2(alpha float32, x, y *uint16, n int)

//go:noescape
func accumHalfAVX2(acc *uint16, p *float32, v *uint16, n, m, stride int)

//go:noescape
func scaleHalfAVX2(y *uint16, s float32, n int)

// initAttnAVX2 installs the attention kernels; the Go wrappers give the
// assembly whole vectors and finish the tails with the reference code.
func initAttnAVX2(k *kernelSet) {
	k.scoresF16 = blockScores(scoresF16AVX2, axpyF16Ref)
	k.scoresF16Seq = func(dst, q []float32, k []uint16, stride int) {
		n := len(dst) &^ 7
		if len(q) == 0 {
			n = 0
		}
		if n > 0 {
			scoresF16SeqAVX2(&dst[0], &q[0], &k[0], n, len(q), stride)
		}
		scoresF16SeqRef(dst[n:], q, k[min(n, len(k)):], stride)
	}
	k.scoresF32 = blockScores(scoresF32AVX2, axpyRef)
	k.accumF16 = blockAccum(accumF16AVX2, axpyF16Ref)
	k.accumF32 = blockAccum(accumF32AVX2, axpyRef)
	k.axpyHalf = func(alpha float32, x, y []uint16) {
		n := len(y) &^ 7
		if n > 0 {
			axpyHalfAVX2(alpha, &x[0], &y[0], n)
		}
		inFloats(y[n:], f16ToF32Ref, f32ToF16Ref, func(i int, buf []float32) { axpyF16Ref(alpha, x[n+i:n+i+len(buf)], buf) })
	}
	k.accumHalf = func(acc []uint16, p []float32, v []uint16, stride int) {
		if len(p) == 0 {
			return
		}
		n := len(acc) &^ 7
		if n > 0 {
			accumHalfAVX2(&acc[0], &p[0], &v[0], n, len(p), stride)
		}
		if n < len(acc) {
			for t, x := range p {
				k.axpyHalf(x, v[t*stride+n:t*stride+len(acc)], acc[n:])
			}
		}
	}
	k.scaleHalf = func(y []uint16, s float32) {
		n := len(y) &^ 7
		if n > 0 {
			scaleHalfAVX2(&y[0], s, n)
		}
		inFloats(y[n:], f16ToF32Ref, f32ToF16Ref, func(_ int, buf []float32) { Scale(buf, s) })
	}
}

// blockScores wraps a score kernel: whole vectors of positions in assembly,
// a last partial one through a vector on the stack when the rows have room
// for it, else with the reference axpy.
func blockScores[T uint16 | float32](kern func(dst, q *float32, k *T, n, hd, stride int), axpy func(float32, []T, []float32)) func(dst, q []float32, k []T, stride int) {
	return func(dst, q []float32, k []T, stride int) {
		n := len(dst) &^ 7
		if len(q) == 0 {
			n = 0
		} else if n > 0 {
			kern(&dst[0], &q[0], &k[0], n, len(q), stride)
		}
		if n == len(dst) {
			return
		}
		if len(q) > 0 && n+8 <= stride && (len(q)-1)*stride+n+8 <= len(k) {
			var buf [8]float32 // a whole vector, of which the tail is kept
			kern(&buf[0], &q[0], &k[n], 8, len(q), stride)
			copy(dst[n:], buf[:])
			return
		}
		scoresWith(axpy, dst[n:], q, k[min(n, len(k)):], stride)
	}
}

// blockAccum wraps an accumulation kernel: whole vectors of dst in
// assembly, the rest with the reference axpy.
func blockAccum[T uint16 | float32](kern func(dst, p *float32, v *T, n, m, stride int), axpy func(float32, []T, []float32)) func(dst, p []float32, v []T, stride int) {
	return func(dst, p []float32, v []T, stride int) {
		if len(p) == 0 {
			return
		}
		n := len(dst) &^ 7
		if n > 0 {
			kern(&dst[0], &p[0], &v[0], n, len(p), stride)
		}
		if n < len(dst) {
			accumWith(axpy, dst[n:], p, v[n:], stride)
		}
	}
}
