package sample

import "math"

// The exponential of the passes over the vocabulary: a table of 2^(j/64)
// and a cubic on the remainder (|r| ≤ ln2/128, truncation error below
// 4e-11), in float64 so that the shift by the maximum loses nothing.
const (
	expTabBits = 6
	expTabSize = 1 << expTabBits
	roundMagic = 6755399441055744.0 // 1.5 * 2^52: adding it rounds a float64 to an integer
	expMin     = -87.33             // below this e^x is under the smallest normal float32
)

// exp2Tab holds the bits of 2^(j/64).
var exp2Tab = func() (t [expTabSize]uint64) {
	for j := range t {
		t[j] = math.Float64bits(math.Exp2(float64(j) / expTabSize))
	}
	return t
}()

// exp64 returns e^y for y ≤ 0 (positive y work up to float32 range); 0
// below expMin, for -Inf and for NaN, so that masked or broken logits carry
// no probability mass. It is small enough to be inlined into the loops over
// the vocabulary.
func exp64(y float64) float64 {
	if !(y >= expMin) {
		return 0
	}
	t := y*(expTabSize/math.Ln2) + roundMagic
	k := int64(math.Float64bits(t)) // low bits: round(y·64/ln2), two's complement
	r := y - (t-roundMagic)*(math.Ln2/expTabSize)
	return (1 + r*(1+r*(1.0/2+r*(1.0/6)))) * math.Float64frombits(exp2Tab[k&(expTabSize-1)]+uint64(k>>expTabBits)<<52)
}

// expShift sets dst[i] = exp((src[i]-m)*scale) and returns the sum in
// float64. len(dst) ≥ len(src).
func expShift(dst, src []float32, m, scale float64) float64 {
	dst = dst[:len(src)]
	sum := 0.0
	for i, x := range src {
		e := exp64((float64(x) - m) * scale)
		dst[i] = float32(e)
		sum += e
	}
	return sum
}

// sumExp returns Σ exp((x-m)*scale) over src, through a stack buffer.
func sumExp(src []float32, m, scale float64) float64 {
	var buf [512]float32
	sum := 0.0
	for len(src) > 0 {
		n := min(len(src), len(buf))
		sum += expShift(buf[:], src[:n], m, scale)
		src = src[n:]
	}
	return sum
}
