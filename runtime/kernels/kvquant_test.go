package kernels

import (
	"fmt"
	"math"
	"testing"
)

var kvFormats = []DType{Q8_0, Q4_0}

// TestQuantizeRowError checks that a quantized cache row decodes to within
// half a step (Q8_0) or one step (Q4_0, whose top value is clamped) of
// every value, and that the value of largest magnitude of a Q4_0 block is
// its scale times -8, as ggml stores it.
func TestQuantizeRowError(t *testing.T) {
	rng := newRand(7)
	for _, typ := range kvFormats {
		for _, n := range []int{32, 64, 128, 256} {
			x := randFloats(rng, n, 2)
			x[3] = 0 // zeros and a zero block stay exact
			if n >= 64 {
				clear(x[32:64])
			}
			b := make([]byte, QuantRowBytes(typ, n))
			QuantizeRow(typ, b, x)
			got := make([]float32, n)
			dequant32(typ, b, got)
			for blk := range n / qk {
				d := math.Abs(float64(half(b[blk*typ.blockBytes():])))
				step := d / 2
				if typ == Q4_0 {
					step = d
				}
				for j := blk * qk; j < (blk+1)*qk; j++ {
					if e := math.Abs(float64(got[j] - x[j])); e > step*1.001+1e-7 {
						t.Fatalf("%v n=%d: value %d = %v decodes to %v (step %v)", typ, n, j, x[j], got[j], d)
					}
				}
			}
			if got[3] != 0 && x[3] == 0 && typ == Q8_0 {
				t.Errorf("%v: zero decodes to %v", typ, got[3])
			}
		}
	}
}

// TestScoresQMatchesDecoded compares ScoresQ, in the kernels in use and in
// the reference ones, with float dot products of the decoded rows.
func TestScoresQMatchesDecoded(t *testing.T) {
	rng := newRand(8)
	for _, typ := range kvFormats {
		for _, hd := range []int{32, 64, 128} {
			for _, rows := range []int{1, 3, 4, 5, 8} {
				for _, n := range []int{1, 7, 33} {
					name := fmt.Sprintf("%v/hd=%d/rows=%d/n=%d", typ, hd, rows, n)
					qb, kb := QuantRowBytes(Q8_0, hd), QuantRowBytes(typ, hd)
					q, k := make([]byte, rows*qb), make([]byte, n*kb)
					for r := range rows {
						QuantizeRow(Q8_0, q[r*qb:], randFloats(rng, hd, 1))
					}
					for p := range n {
						QuantizeRow(typ, k[p*kb:], randFloats(rng, hd, 1))
					}
					qf, kf := make([]float32, rows*hd), make([]float32, n*hd)
					dequant32(Q8_0, q, qf)
					dequant32(typ, k, kf)
					for _, set := range []*kernelSet{&refKernels, &fastKernels} {
						dst, check := guarded(rows*n, 1)
						current.Store(set)
						ScoresQ(typ, dst, rows, q, k, hd)
						current.Store(&fastKernels)
						check(t)
						for r := range rows {
							for p := range n {
								want := float64(dotRef(qf[r*hd:(r+1)*hd], kf[p*hd:(p+1)*hd]))
								if !closeTo(float64(dst[r*n+p]), want, float64(hd), 1e-4) {
									t.Fatalf("%s %s: score[%d][%d] = %v, want %v", set.name, name, r, p, dst[r*n+p], want)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestAccumQMatchesDecoded compares AccumQ, in the kernels in use and in
// the reference ones, with the weighted sum of the decoded rows.
func TestAccumQMatchesDecoded(t *testing.T) {
	rng := newRand(9)
	for _, typ := range kvFormats {
		for _, hd := range []int{32, 64, 128, 256} {
			for _, n := range []int{0, 1, 2, 7, 64} {
				vb := QuantRowBytes(typ, hd)
				v := make([]byte, n*vb)
				for p := range n {
					QuantizeRow(typ, v[p*vb:], randFloats(rng, hd, 1))
				}
				vf := make([]float32, n*hd)
				dequant32(typ, v, vf)
				p, init := randFloats(rng, n, 0.3), randFloats(rng, hd, 1)
				want := append([]float32(nil), init...)
				for i, w := range p {
					axpyRef(w, vf[i*hd:(i+1)*hd], want)
				}
				for _, set := range []*kernelSet{&refKernels, &fastKernels} {
					dst, check := guarded(hd, 1)
					copy(dst, init)
					current.Store(set)
					AccumQ(typ, dst, p, v)
					current.Store(&fastKernels)
					check(t)
					for d := range hd {
						if !closeTo(float64(dst[d]), float64(want[d]), float64(n)+1, 1e-5) {
							t.Fatalf("%s %v hd=%d n=%d: dst[%d] = %v, want %v", set.name, typ, hd, n, d, dst[d], want[d])
						}
					}
				}
			}
		}
	}
}

// TestQuantKernelsRefuseBadShapes checks the panics that guard the
// kernels' bounds.
func TestQuantKernelsRefuseBadShapes(t *testing.T) {
	for name, f := range map[string]func(){
		"format":   func() { QuantizeRow(Q4_1, make([]byte, 20), make([]float32, 32)) },
		"partial":  func() { QuantizeRow(Q8_0, make([]byte, 68), make([]float32, 48)) },
		"short":    func() { QuantizeRow(Q8_0, make([]byte, 33), make([]float32, 32)) },
		"rows":     func() { ScoresQ(Q8_0, make([]float32, 5), 2, make([]byte, 68), make([]byte, 34*3), 32) },
		"keys":     func() { ScoresQ(Q4_0, make([]float32, 4), 1, make([]byte, 34), make([]byte, 18*3), 32) },
		"values":   func() { AccumQ(Q8_0, make([]float32, 32), make([]float32, 2), make([]byte, 34)) },
		"head dim": func() { AccumQ(Q4_0, make([]float32, 40), make([]float32, 1), make([]byte, 64)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestDecodeQMatchesReference checks DecodeQ, in the kernels in use and in
// the reference ones, against ggml's dequantization, exactly.
func TestDecodeQMatchesReference(t *testing.T) {
	rng := newRand(10)
	for _, typ := range kvFormats {
		for _, n := range []int{32, 64, 96, 256} {
			b := make([]byte, QuantRowBytes(typ, n))
			QuantizeRow(typ, b, randFloats(rng, n, 3))
			want := make([]float32, n)
			dequant32(typ, b, want)
			for _, set := range []*kernelSet{&refKernels, &fastKernels} {
				got, check := guarded(n, 1)
				current.Store(set)
				DecodeQ(typ, got, b)
				current.Store(&fastKernels)
				check(t)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s %v n=%d: value %d = %v, want %v", set.name, typ, n, i, got[i], want[i])
					}
				}
			}
		}
	}
}
