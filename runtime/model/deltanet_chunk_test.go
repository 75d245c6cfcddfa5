package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mlxrun/mlx/models/config"
)

// ruleCase is one head's rows of random inputs and a random state, run
// through one form of the delta rule.
type ruleCase struct {
	d    *config.DeltaNet
	j    *linJob
	q    *linSeq
	init []float32
}

// newRuleCase fills a job of n rows of one sequence, in a shuffled batch
// order, with random convolved rows (unit-length keys, as the conv step
// leaves them), decays and write strengths.
func newRuleCase(d *config.DeltaNet, n int, seed uint64) *ruleCase {
	rng := rand.New(rand.NewPCG(seed, 1))
	c, hv := d.ConvDim(), d.ValueHeads
	m := &Model{Config: &config.Model{DeltaNet: d}}
	j := &linJob{s: &State{m: m}, order: rng.Perm(n), conv: make([]float32, n*c),
		alpha: make([]float32, n*hv), beta: make([]float32, n*hv), out: make([]float32, n*hv*d.ValueDim)}
	j.l = &DeltaNet{Decay: make([]float32, hv), DtBias: make([]float32, hv)}
	for i := range j.conv {
		j.conv[i] = float32(rng.NormFloat64())
	}
	kd := d.KeyHeads * d.KeyDim
	for i := range n {
		for o := 0; o < 2*kd; o += d.KeyDim {
			l2norm(j.conv[i*c+o : i*c+o+d.KeyDim])
		}
	}
	for i := range j.alpha {
		j.alpha[i], j.beta[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
	}
	for h := range hv {
		j.l.Decay[h], j.l.DtBias[h] = -float32(rng.Float64()), float32(rng.NormFloat64())
	}
	init := make([]float32, d.KeyDim*d.ValueDim)
	for i := range init {
		init[i] = float32(rng.NormFloat64()) / 4
	}
	return &ruleCase{d: d, j: j, q: &linSeq{count: n}, init: init}
}

// run runs head h through one form and returns its reads and final state.
func (rc *ruleCase) run(h int, chunked bool) (out, state []float32) {
	d := rc.d
	kd := d.KeyHeads * d.KeyDim
	kh := h / (d.ValueHeads / d.KeyHeads)
	r := headRows{j: rc.j, q: rc.q, h: h, kh: kh, S: append([]float32(nil), rc.init...),
		qo: kh * d.KeyDim, ko: kd + kh*d.KeyDim, vo: 2*kd + h*d.ValueDim}
	clear(rc.j.out)
	if chunked {
		r.chunked(newChunkScratch(d.KeyDim, d.ValueDim))
	} else {
		r.recurrent()
	}
	return append([]float32(nil), rc.j.out...), r.S
}

// TestChunkedRule checks the chunked form against the recurrent one from
// a non-zero state, over whole chunks, a partial last chunk and a run
// shorter than one chunk.
func TestChunkedRule(t *testing.T) {
	d := &config.DeltaNet{KeyHeads: 2, KeyDim: 16, ValueHeads: 4, ValueDim: 24, ConvKernel: 4}
	for _, n := range []int{1, 17, chunkLen, 2*chunkLen + 37} {
		rc := newRuleCase(d, n, uint64(n))
		for h := range d.ValueHeads {
			wantOut, wantS := rc.run(h, false)
			gotOut, gotS := rc.run(h, true)
			if e := worst(gotOut, wantOut); e > 1e-4 {
				t.Errorf("%d rows, head %d: reads differ by %g", n, h, e)
			}
			if e := worst(gotS, wantS); e > 1e-4 {
				t.Errorf("%d rows, head %d: final states differ by %g", n, h, e)
			}
		}
	}
}

// worst returns the largest difference of a from b relative to b's
// largest magnitude.
func worst(a, b []float32) float64 {
	var e, scale float64
	for i := range b {
		e = max(e, math.Abs(float64(a[i]-b[i])))
		scale = max(scale, math.Abs(float64(b[i])))
	}
	return e / max(scale, 1)
}

// BenchmarkDeltaRule runs one head of Qwen3.5's shape (128 × 128) over
// runs of rows of several lengths in each form.
func BenchmarkDeltaRule(b *testing.B) {
	d := &config.DeltaNet{KeyHeads: 1, KeyDim: 128, ValueHeads: 1, ValueDim: 128, ConvKernel: 4}
	for _, n := range []int{8, 16, 32, 512} {
		rc := newRuleCase(d, n, 1)
		for _, chunked := range []bool{false, true} {
			name := fmt.Sprintf("rows=%d/recurrent", n)
			if chunked {
				name = fmt.Sprintf("rows=%d/chunked", n)
			}
			b.Run(name, func(b *testing.B) {
				kd := d.KeyHeads * d.KeyDim
				r := headRows{j: rc.j, q: rc.q, S: append([]float32(nil), rc.init...), ko: kd, vo: 2 * kd}
				sc := newChunkScratch(d.KeyDim, d.ValueDim)
				b.ReportAllocs()
				b.SetBytes(int64(n) * 4 * int64(d.ConvDim()))
				for b.Loop() {
					if chunked {
						r.chunked(sc)
					} else {
						r.recurrent()
					}
				}
			})
		}
	}
}
