package sample

import (
	"math"
	"slices"
)

// Passes over the whole vocabulary, for requests without top_k. They build
// the same sorted candidate lists as TopK, but only as long as needed.

// Buckets of the nucleus cut: log-probability distance from the maximum in
// steps of 1/bucketScale, up to bucketRange (e^-32 is below float32 rounding
// of any sum that includes the maximum's 1).
const (
	bucketScale = 8
	bucketRange = 32
	buckets     = bucketRange * bucketScale
)

// bucket returns the bucket of a logit x below the maximum m, or buckets
// when it is beyond the range (or NaN).
func bucket(x float32, m float64) int {
	if d := m - float64(x); d < bucketRange {
		return int(d * bucketScale)
	}
	return buckets
}

// nucleusCut applies top_p to the whole vocabulary without sorting it. One
// pass stores exp(logit-max) in probs and sums it per bucket of log
// distance; the buckets give the largest distance the nucleus can reach, and
// only the logits within it, a prefix of the sorted order, are collected,
// sorted and cut exactly: the result equals sorting everything. m is the
// largest logit; the returned weights are aligned with c.
func nucleusCut(dst []TokenLogit, w []float64, probs, logits []float32, m float32, p float64, keys *[]uint64) ([]TokenLogit, []float64) {
	// Four interleaved histograms keep neighbours that fall in the same
	// bucket from waiting on each other's additions.
	var mass [4][buckets + 1]float64
	md, total := float64(m), 0.0
	probs = probs[:len(logits)]
	for i, x := range logits {
		e := exp64(float64(x) - md)
		probs[i] = float32(e)
		total += e
		mass[i&3][bucket(x, md)] += e
	}
	last, cum := buckets, 0.0
	for b := range buckets {
		cum += mass[0][b] + mass[1][b] + mass[2][b] + mass[3][b]
		if cum >= p*total {
			last = b
			break
		}
	}
	// Every logit above the far edge of bucket last: a prefix of the sorted
	// order that holds the nucleus (a few more candidates cost nothing).
	thr := float32(-math.MaxFloat32)
	if last < buckets {
		edge := md - float64(last+1)/bucketScale
		if thr = float32(edge); float64(thr) > edge {
			thr = math.Nextafter32(thr, float32(math.Inf(-1)))
		}
	}
	c := above(dst, logits, thr, keys)
	w = slices.Grow(w[:0], len(c))[:len(c)]
	for i, t := range c {
		w[i] = float64(probs[t.ID])
	}
	return c[:nucleus(w, total, p)], w
}

// above appends to dst[:0] every logit ≥ thr (not NaN), sorted. With thr =
// -MaxFloat32 it lists every finite logit.
func above(dst []TokenLogit, logits []float32, thr float32, keys *[]uint64) []TokenLogit {
	// Starting each block's maximum just below thr keeps its compares
	// predictable: blocks with nothing at thr or above are skipped.
	below := math.Nextafter32(thr, float32(math.Inf(-1)))
	c := dst[:0]
	for base := 0; base < len(logits); base += block {
		blk := logits[base:min(base+block, len(logits))]
		if maxOf(blk, below) < thr {
			continue
		}
		for i, x := range blk {
			if x >= thr {
				c = append(c, TokenLogit{ID: int32(base + i), Logit: x})
			}
		}
	}
	sortLogitsBuf(c, keys)
	return c
}

// drawVocab draws from the softmax of logits*scale over the whole
// vocabulary, in id order, with u uniform in [0, 1). m is the largest
// logit. The first pass keeps a sum per block of probs, so the search for u
// scans a single block. sums is scratch.
func drawVocab(probs []float32, sums []float64, logits []float32, m float32, scale, u float64) (int32, []float64) {
	sums = sums[:0]
	total := 0.0
	for base := 0; base < len(logits); base += block {
		end := min(base+block, len(logits))
		e := expShift(probs[base:end], logits[base:end], float64(m), scale)
		sums = append(sums, e)
		total += e
	}
	target, cum := u*total, 0.0
	for b, e := range sums {
		if cum+e <= target {
			cum += e
			continue
		}
		// Rounding may leave the block short of target: go on after it.
		for i := b * block; i < min((b+1)*block, len(logits)); i++ {
			if cum += float64(probs[i]); cum > target && probs[i] > 0 {
				return int32(i), sums
			}
		}
	}
	// u*total rounded up to total: the last token with any weight.
	last := len(logits) - 1
	for last > 0 && probs[last] == 0 {
		last--
	}
	return int32(last), sums
}
