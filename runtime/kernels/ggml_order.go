package kernels

import (
	"math"
	"runtime"
)

// Sums in ggml's order. A value that is later rounded to halves (an
// encoder's keys and values over an F16 cache, the input of GELUHalf)
// turns a last-bit difference into a half's step, which a cross-encoder's
// head magnifies; computing the steps before such roundings with ggml's
// order of operations gives llama.cpp's bits, not values a bit away.

// GGMLOrder reports whether GGUF models follow ggml's x86 order of
// operations (Matrix.GGMLSums, LayerNormGGML, an encoder's tiled attention
// over an F16 cache): on amd64, where the llama.cpp builds they are held to
// sum so and these kernels run in assembly. Elsewhere llama.cpp sums in
// another order (NEON), so copying the x86 one would gain nothing and cost
// the faster native kernels.
func GGMLOrder() bool { return runtime.GOARCH == "amd64" }

// DotLanes returns the sum of a[i]*b[i] over i < len(a) (a multiple of 8;
// b at least as long) in the order of ggml's F32 products on x86 (its
// tinyBLAS with AVX2): lane j of eight accumulates a[8t+j]*b[8t+j] with
// fused multiply-adds in order of t, then the lanes are added as
// (l0+l4 + l2+l6) + (l1+l5 + l3+l7).
func DotLanes(a, b []float32) float32 {
	if len(a)%8 != 0 {
		panic("kernels: DotLanes of a length that is not a multiple of 8")
	}
	return impl().dotLanes(a, b[:len(a)])
}

// laneSums reports whether the products of w sum as DotLanes does.
func (w *Matrix) laneSums() bool { return w.GGMLSums && w.Type == F32 && w.Cols%8 == 0 }

// dotLanesRef is DotLanes in Go; fma32 rounds twice (to float64, then to
// float32), which differs from one rounding in rare ties.
func dotLanesRef(a, b []float32) float32 {
	var l [8]float32
	for i := 0; i+8 <= len(a); i += 8 {
		for j := range l {
			l[j] = fma32(a[i+j], b[i+j], l[j])
		}
	}
	return hsum8(&l)
}

// fma32 returns a*b+c rounded once to float64 and then to float32.
func fma32(a, b, c float32) float32 {
	return float32(math.FMA(float64(a), float64(b), float64(c)))
}

// hsum8 adds eight lanes as ggml's hsum of an AVX register does.
func hsum8(l *[8]float32) float32 {
	s0, s1, s2, s3 := l[0]+l[4], l[1]+l[5], l[2]+l[6], l[3]+l[7]
	return float32(s0+s2) + float32(s1+s3)
}

// LayerNormGGML is LayerNorm as ggml's norm, mul and add compute it on
// x86: the mean from a float64 sum rounded to float32 and divided in
// float32; the variance from the float32 squares of x−mean, added eight
// at a time as hsum8 adds them, the groups summed in float64; then
// float32 throughout: 1/sqrt(variance+eps), the scaling, the weight and
// the bias. dst may be x.
func LayerNormGGML(dst, x, weight, bias []float32, eps float32) {
	n := len(x)
	dst, weight = dst[:n], weight[:n]
	var sum float64
	for _, v := range x {
		sum += float64(v)
	}
	mean := float32(sum) / float32(n)
	var ss float64
	i := 0
	for ; i+8 <= n; i += 8 {
		var sq [8]float32
		for j := range sq {
			d := x[i+j] - mean
			dst[i+j] = d
			sq[j] = float32(d * d)
		}
		ss += float64(hsum8(&sq))
	}
	for ; i < n; i++ {
		d := x[i] - mean
		dst[i] = d
		ss += float64(float32(d * d))
	}
	variance := float32(ss / float64(n))
	scale := 1 / float32(math.Sqrt(float64(variance+eps)))
	for i := range dst {
		dst[i] = float32(dst[i]*scale) * weight[i]
	}
	if bias != nil {
		Add(dst, bias)
	}
}

// ScoresF16Seq is ScoresF16 with each score summed as ggml's tiled flash
// attention sums it: one chain of fused multiply-adds in order of the
// dimensions, from zero.
func ScoresF16Seq(dst, q []float32, k []uint16, stride int) {
	checkBlock("ScoresF16Seq", len(dst), len(q), len(k), stride)
	impl().scoresF16Seq(dst, q, k, stride)
}

func scoresF16SeqRef(dst, q []float32, k []uint16, stride int) {
	for p := range dst {
		var s float32
		for d, x := range q {
			s = fma32(f16ToF32(k[d*stride+p]), x, s)
		}
		dst[p] = s
	}
}

// ExpShiftGGML sets x[i] = e^(x[i]−m) as ggml's vector exp computes it on
// x86 (expGGML) and returns their sum as ggml's softmax adds it: eight
// lanes at a time by hsum8, the groups in float64. Element i is in lane
// (lane+i) mod 8; the lanes outside x are zero.
func ExpShiftGGML(x []float32, m float32, lane int) float64 {
	head := min(len(x), (8-lane%8)%8) // the rest of a group begun before x
	sum := expShiftLanes(x[:head], m, lane, 0)
	whole := head + (len(x)-head)&^7
	sum = impl().expShiftGGML(x[head:whole], m, sum)
	return expShiftLanes(x[whole:], m, 0, sum)
}

// expShiftGGMLRef is ExpShiftGGML on whole groups of eight, added to sum.
func expShiftGGMLRef(x []float32, m float32, sum float64) float64 {
	for i := 0; i < len(x); i += 8 {
		sum = expShiftLanes(x[i:i+8], m, 0, sum)
	}
	return sum
}

// expShiftLanes is ExpShiftGGML on at most one group, x from lane on,
// added to sum.
func expShiftLanes(x []float32, m float32, lane int, sum float64) float64 {
	if len(x) == 0 {
		return sum
	}
	var g [8]float32
	for i, v := range x {
		e := expGGML(v - m)
		x[i], g[lane+i] = e, e
	}
	return sum + float64(hsum8(&g))
}

// expGGML is ggml's ggml_v_expf for one lane (after ARM's optimized
// routines): e^x by a rounding to a multiple of ln 2 and a polynomial,
// with its own handling of large |x| (0 for −Inf).
func expGGML(x float32) float32 {
	const r = 0x1.8p23
	z := fma32(x, 0x1.715476p+0, r)
	n := z - r
	b := fma32(-n, 0x1.7f7d1cp-20, fma32(-n, 0x1.62e4p-1, x))
	e := math.Float32bits(z) << 23
	k := math.Float32frombits(e + math.Float32bits(1))
	u := float32(b * b)
	j := fma32(fma32(fma32(0x1.0e4020p-7, b, 0x1.573e2ep-5), u, fma32(0x1.555e66p-3, b, 0x1.fffdb6p-2)), u, float32(0x1.ffffecp-1*b))
	an := float32(math.Abs(float64(n)))
	if !(an > 126) {
		return fma32(j, k, k)
	}
	var g uint32
	if n <= 0 {
		g = 0x82000000
	}
	s1 := math.Float32frombits(g + 0x7f000000)
	s2 := math.Float32frombits(e - g)
	if an > 192 {
		return float32(s1 * s1)
	}
	return float32(fma32(s2, j, s2) * s1)
}
