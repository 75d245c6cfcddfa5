//go:build (amd64 || arm64) && !noasm

package kernels

// quantQ8_0 wraps an assembly Q8_0 activation quantizer after checking the
// slice bounds.
func quantQ8_0(kern func(dst *byte, src *float32, nb int)) func(dst []byte, src []float32) {
	return func(dst []byte, src []float32) {
		nb := len(src) / qk
		if nb == 0 {
			return
		}
		_ = dst[nb*q8_0-1]
		kern(&dst[0], &src[0], nb)
	}
}

// quantPairs wraps an assembly quantizer of whole pairs of blocks; a last
// odd block (paired with zeros) goes through the reference.
func quantPairs(kern func(dst *byte, src *float32, np int)) func(dst []byte, src []float32) {
	return func(dst []byte, src []float32) {
		np := len(src) / (2 * qk)
		if np > 0 {
			_ = dst[np*pairAct-1]
			kern(&dst[0], &src[0], np)
		}
		if rest := src[np*2*qk:]; len(rest) >= qk {
			quantizePairsRef(dst[np*pairAct:], rest)
		}
	}
}
