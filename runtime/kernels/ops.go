package kernels

import "math"

// RMSNorm sets dst[i] = x[i] / sqrt(mean(x²) + eps) * weight[i]. The sum of
// squares is accumulated in float64. dst may be x.
func RMSNorm(dst, x, weight []float32, eps float32) {
	dst = dst[:len(x)]
	weight = weight[:len(x)]
	var ss float64
	for _, v := range x {
		ss += float64(v) * float64(v)
	}
	scale := float32(1 / math.Sqrt(ss/float64(len(x))+float64(eps)))
	for i, v := range x {
		dst[i] = v * scale * weight[i]
	}
}

// Softmax replaces x with exp(x[i] - max) / Σ exp(x[j] - max). Entries equal
// to -Inf (masked) become 0, and so does everything when all are masked. An
// empty slice is left alone.
func Softmax(x []float32) {
	if len(x) == 0 {
		return
	}
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		}
	}
	if math.IsInf(float64(m), -1) {
		clear(x)
		return
	}
	inv := float32(1 / impl().expShift(x, m))
	for i := range x {
		x[i] *= inv
	}
}

// Scale multiplies every x[i] by s.
func Scale(x []float32, s float32) {
	for i := range x {
		x[i] *= s
	}
}

// Add adds x[i] to dst[i] for i < len(dst); x must be at least as long as dst.
// It runs as the vectorised Axpy with alpha 1, whose fused 1·x + dst is
// the plain sum rounded once.
func Add(dst, x []float32) {
	impl().axpy(1, x[:len(dst)], dst)
}

// LayerNorm sets dst[i] = (x[i] - mean(x)) / sqrt(var(x) + eps) * weight[i]
// + bias[i], the mean and the variance accumulated in float64; a nil bias
// adds nothing. dst may be x.
func LayerNorm(dst, x, weight, bias []float32, eps float32) {
	dst = dst[:len(x)]
	weight = weight[:len(x)]
	var sum float64
	for _, v := range x {
		sum += float64(v)
	}
	mean := sum / float64(len(x))
	var ss float64
	for _, v := range x {
		d := float64(v) - mean
		ss += d * d
	}
	scale := 1 / math.Sqrt(ss/float64(len(x))+float64(eps))
	for i, v := range x {
		dst[i] = float32((float64(v)-mean)*scale) * weight[i]
	}
	if bias != nil {
		Add(dst, bias)
	}
}
