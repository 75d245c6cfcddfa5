package model

import (
	"math"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// The chunked form of the gated delta rule (transformers'
// torch_chunk_gated_delta_rule) computes a run of rows of one value head
// chunk by chunk. Within a chunk of positions 1…C, with G_t the sum of the
// log decays g up to t, the state before the chunk S₀ (key dim × value dim)
// and the writes u_t = β_t(v_t − S_{t−1}ᵀk_t·e^{g_t}), the recurrence unrolls
// to
//
//	u_t = β_t(v_t − e^{G_t}S₀ᵀk_t) − Σ_{s<t} β_t e^{G_t−G_s}(k_t·k_s)u_s
//	o_t = e^{G_t}S₀ᵀq_t + Σ_{s≤t} e^{G_t−G_s}(q_t·k_s)u_s
//	S_C = e^{G_C}S₀ + Σ_s e^{G_C−G_s}k_s u_sᵀ
//
// so the writes come from a unit lower-triangular system solved row by
// row, and the state is read and written once per chunk rather than once
// per row. Every exponent is ≤ 0: nothing overflows.

// chunkLen is the rows of one chunk, as transformers' chunk_size.
const chunkLen = 64

// minChunkRows is the fewest rows of one sequence that take the chunked
// form; shorter runs (decoding, verifying a few drafted tokens) take the
// recurrent one, which has no per-chunk set-up.
var minChunkRows = 16

// chunkScratch is one worker's buffers for the chunked form.
type chunkScratch struct {
	st   []float32 // Sᵀ: KeyDim rows of ValueDim
	kt   []float32 // the chunk's keys transposed: KeyDim rows of chunkLen
	u    []float32 // the chunk's writes: chunkLen rows of ValueDim
	g    [chunkLen]float32
	beta [chunkLen]float32
	p    [chunkLen]float32
}

// newChunkScratch allocates the buffers for heads of dk × dv.
func newChunkScratch(dk, dv int) *chunkScratch {
	return &chunkScratch{st: make([]float32, dk*dv), kt: make([]float32, dk*chunkLen), u: make([]float32, chunkLen*dv)}
}

// chunkFloats returns the floats of a chunkScratch for heads of dk × dv.
func chunkFloats(dk, dv int) int { return dk*dv + dk*chunkLen + chunkLen*dv + 3*chunkLen }

// headRows are the inputs and outputs of the delta rule for one value
// head over a sequence's rows of a batch.
type headRows struct {
	j      *linJob
	q      *linSeq
	h, kh  int
	S      []float32 // the head's state, ValueDim rows of KeyDim
	qo, ko int       // offsets of the head's query and key in a convolved row
	vo     int       // offset of its value
}

// row returns the convolved row, the output and the decay and write
// strength of the x-th row of the run.
func (r *headRows) row(x int) (qv, kv, v, o []float32, g, beta float32) {
	j, d := r.j, r.j.s.m.Config.DeltaNet
	c, dk, dv, hv := d.ConvDim(), d.KeyDim, d.ValueDim, d.ValueHeads
	i := j.order[r.q.first+x]
	row := j.conv[i*c : (i+1)*c]
	g = j.l.Decay[r.h] * softplus(j.alpha[i*hv+r.h]+j.l.DtBias[r.h])
	beta = 1 / (1 + float32(math.Exp(float64(-j.beta[i*hv+r.h]))))
	o = j.out[i*hv*dv+r.h*dv : i*hv*dv+(r.h+1)*dv]
	return row[r.qo : r.qo+dk], row[r.ko : r.ko+dk], row[r.vo : r.vo+dv], o, g, beta
}

// recurrent runs the rule one row at a time.
func (r *headRows) recurrent() {
	d := r.j.s.m.Config.DeltaNet
	dk, dv := d.KeyDim, d.ValueDim
	for x := range r.q.count {
		qv, kv, v, o, g, beta := r.row(x)
		decay := float32(math.Exp(float64(g)))
		for e := range dv {
			Se := r.S[e*dk : (e+1)*dk]
			delta := (v[e] - decay*kernels.Dot(Se, kv)) * beta
			kernels.Scale(Se, decay)
			kernels.Axpy(delta, kv, Se)
			o[e] = kernels.Dot(Se, qv)
		}
	}
}

// chunked runs the rule chunk by chunk, with sc's buffers.
func (r *headRows) chunked(sc *chunkScratch) {
	d := r.j.s.m.Config.DeltaNet
	dk, dv := d.KeyDim, d.ValueDim
	transpose(sc.st, r.S, dv, dk)
	for x0 := 0; x0 < r.q.count; x0 += chunkLen {
		r.chunk(sc, x0, min(chunkLen, r.q.count-x0))
	}
	transpose(r.S, sc.st, dk, dv)
}

// chunk runs the n rows from the x0-th through the chunked form, the
// state held transposed in sc.st.
func (r *headRows) chunk(sc *chunkScratch, x0, n int) {
	d := r.j.s.m.Config.DeltaNet
	dk, dv := d.KeyDim, d.ValueDim
	st, kt, u := sc.st, sc.kt, sc.u
	var cum float32
	for t := range n {
		_, kv, _, _, g, beta := r.row(x0 + t)
		cum += g
		sc.g[t], sc.beta[t] = cum, beta
		for e, k := range kv {
			kt[e*chunkLen+t] = k
		}
	}
	p := sc.p[:]
	for t := range n {
		qv, kv, v, o, _, _ := r.row(x0 + t)
		gt, bt := sc.g[t], sc.beta[t]
		ut := u[t*dv : (t+1)*dv]
		// The write: β_t(v_t − e^{G_t}S₀ᵀk_t) less the earlier writes it
		// sees through their keys.
		clear(ut)
		kernels.AccumF32(ut, kv, st, dv)
		a := -bt * float32(math.Exp(float64(gt)))
		for e := range ut {
			ut[e] = bt*v[e] + a*ut[e]
		}
		if t > 0 {
			kernels.ScoresF32(p[:t], kv, kt, chunkLen)
			for s := range t {
				p[s] *= -bt * float32(math.Exp(float64(gt-sc.g[s])))
			}
			kernels.AccumF32(ut, p[:t], u, dv)
		}
		// The read: the decayed state before the chunk and the writes so far.
		clear(o)
		kernels.AccumF32(o, qv, st, dv)
		kernels.Scale(o, float32(math.Exp(float64(gt))))
		kernels.ScoresF32(p[:t+1], qv, kt, chunkLen)
		for s := range t + 1 {
			p[s] *= float32(math.Exp(float64(gt - sc.g[s])))
		}
		kernels.AccumF32(o, p[:t+1], u, dv)
	}
	// The state after the chunk: row i of Sᵀ decays and takes the writes
	// through dimension i of each key.
	last := sc.g[n-1]
	kernels.Scale(st, float32(math.Exp(float64(last))))
	var w [chunkLen]float32
	for s := range n {
		w[s] = float32(math.Exp(float64(last - sc.g[s])))
	}
	for i := range dk {
		ki := kt[i*chunkLen : i*chunkLen+n]
		for s, k := range ki {
			p[s] = k * w[s]
		}
		kernels.AccumF32(st[i*dv:(i+1)*dv], p[:n], u, dv)
	}
}

// transpose writes the rows × cols matrix src into dst as cols × rows.
func transpose(dst, src []float32, rows, cols int) {
	for i := range rows {
		for k, v := range src[i*cols : (i+1)*cols] {
			dst[k*rows+i] = v
		}
	}
}
