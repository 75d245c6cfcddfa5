package kernels

// Dot returns the sum of a[i]*b[i] over i < len(a); b must be at least as
// long as a.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	return impl().dot(a, b)
}

// DotF16 returns the sum of a[i]*b[i] over i < len(a), a holding IEEE halves;
// b must be at least as long as a.
func DotF16(a []uint16, b []float32) float32 {
	b = b[:len(a)]
	return impl().dotF16(a, b)
}

// Axpy adds alpha*x[i] to y[i] for i < len(x); y must be at least as long as x.
func Axpy(alpha float32, x, y []float32) {
	y = y[:len(x)]
	impl().axpy(alpha, x, y)
}

// AxpyF16 adds alpha*x[i] to y[i] for i < len(x), x holding IEEE halves
// (a row of an F16 KV cache); y must be at least as long as x.
func AxpyF16(alpha float32, x []uint16, y []float32) {
	y = y[:len(x)]
	impl().axpyF16(alpha, x, y)
}

// dotRef is the reference dot product: four partial sums, combined at the
// end, which is both faster than one chain and closer to the SIMD order.
func dotRef(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func dotF16Ref(a []uint16, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += f16ToF32(a[i]) * b[i]
		s1 += f16ToF32(a[i+1]) * b[i+1]
		s2 += f16ToF32(a[i+2]) * b[i+2]
		s3 += f16ToF32(a[i+3]) * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += f16ToF32(a[i]) * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotBF16Ref is dotF16Ref for bfloat16 weights.
func dotBF16Ref(a []uint16, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += bf16ToF32(a[i]) * b[i]
		s1 += bf16ToF32(a[i+1]) * b[i+1]
		s2 += bf16ToF32(a[i+2]) * b[i+2]
		s3 += bf16ToF32(a[i+3]) * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += bf16ToF32(a[i]) * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func axpyRef(alpha float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

func axpyF16Ref(alpha float32, x []uint16, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * f16ToF32(v)
	}
}
