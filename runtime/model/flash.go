package model

import (
	"math"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// flashSpan is the context from which the rows of one sequence take the
// flash path over a float cache. Over a long context the row-by-row paths
// read the cache once per row and query head (and the half-precision one
// rounds its sums at every position), where the flash path reads each
// block once per task and keeps its sums in float32. Below it, the rows
// keep the row-by-row paths, whose two-pass softmax the reference results
// were measured with: the flash path's online softmax rounds otherwise,
// which can tip a near tie of a mixture's router.
const flashSpan = 1024

// widenPairs is the (row, query head) pairs of a flash task from which
// the blocks of a block format are decoded to float32 once per task.
const widenPairs = 16

// flashRows holds the online softmax of every (row, head) pair of a run:
// the running maximum and sum of weights, and for caches of a block format
// the query in Q8_0.
type flashRows struct {
	m, l []float32
	q    []byte
	qd   []float32   // the queries scaled for the float scores (as Q8_0 decodes them for a block format)
	kv   [][]float32 // per task: a block of one KV head's keys and values in float32

	// A decode step of one row over a long context with fewer KV heads
	// than the threads want tasks splits each head's blocks into parts
	// (split-K): part p of head h keeps its own softmax at p*heads+h and
	// its own output in out, and merge combines them.
	parts int
	out   []float32
}

// maxParts is the most parts a decode step's blocks split into per
// thread.
const maxParts = 2

func (f *flashRows) init(rows, heads, hd, qb, tasks, threads int) {
	pairs := max(rows, maxParts*threads) * heads
	f.m, f.l = make([]float32, pairs), make([]float32, pairs)
	f.q, f.qd = make([]byte, pairs*qb), make([]float32, pairs*hd)
	f.kv = make([][]float32, tasks)
	f.out = make([]float32, maxParts*threads*heads*hd)
}

// splitParts returns the parts into which a run of count rows over
// blocks cache blocks splits each KV head's blocks: enough for twice as
// many tasks as threads, for a lone row with at least four blocks a part.
func splitParts(count, units, threads, blocks int) int {
	if count != 1 || units >= 2*threads {
		return 1
	}
	return max(1, min((2*threads+units-1)/units, maxParts*threads/units, blocks/4))
}

// pair returns head h of the k-th row and the index of its softmax, with
// the output of the part when the run splits its blocks.
func (a *attnJob) pair(k, h, part int) (span, int) {
	sp, heads := a.spanOf(a.rowAt(k), h), a.s.m.Config.Heads
	if a.parts == 1 {
		return sp, k*heads + h
	}
	j := part*heads + h
	sp.out = a.flashRows.out[j*a.hd : (j+1)*a.hd]
	return sp, j
}

// merge combines the parts of each head of a split run into its output:
// out = Σ_p out_p·e^(m_p−M) / (Σ_p l_p·e^(m_p−M) + e^(sink−M)).
func (a *attnJob) merge() {
	f, heads := &a.flashRows, a.s.m.Config.Heads
	for h := range heads {
		sp, _ := a.pair(0, h, 0)
		out := a.spanOf(a.rowAt(0), h).out
		m := sp.sink
		for p := range a.parts {
			m = max(m, f.m[p*heads+h])
		}
		clear(out)
		var l float32
		if !math.IsInf(float64(sp.sink), -1) {
			l = float32(math.Exp(float64(sp.sink - m)))
		}
		for p := range a.parts {
			j := p*heads + h
			if math.IsInf(float64(f.m[j]), -1) {
				continue // a part without visible positions
			}
			r := float32(math.Exp(float64(f.m[j] - m)))
			l += f.l[j] * r
			kernels.Axpy(r, f.out[j*a.hd:(j+1)*a.hd], out)
		}
		kernels.Scale(out, 1/l)
	}
}

// widen converts the keys and values of KV head kvh in block bi of a
// half-precision cache, or decodes those of a cache of a block format, to
// float32 in the task's buffer: keys transposed (HeadDim rows of
// BlockSize), then values by position (BlockSize rows of HeadDim). The
// rows and query heads of the task then share one conversion of the
// block.
func (a *attnJob) widen(t int, kc *kvcache.Cache, kvh, bi int) (k, v []float32) {
	bs, hd := kc.BlockSize(), a.hd
	f := &a.flashRows
	if len(f.kv[t]) < 2*bs*hd {
		f.kv[t] = make([]float32, 2*bs*hd)
	}
	k, v = f.kv[t][:bs*hd], f.kv[t][bs*hd:2*bs*hd]
	if typ := kc.Type(); typ.Quantized() {
		if len(f.kv[t]) < 3*bs*hd {
			f.kv[t] = make([]float32, 3*bs*hd)
			k, v = f.kv[t][:bs*hd], f.kv[t][bs*hd:2*bs*hd]
		}
		rows := f.kv[t][2*bs*hd : 3*bs*hd]
		kernels.DecodeQ(typ.DType(), rows, kc.KeyRows(a.cacheLayer, kvh, bi))
		for p := range bs {
			for d, x := range rows[p*hd : (p+1)*hd] {
				k[d*bs+p] = x
			}
		}
		kernels.DecodeQ(typ.DType(), v, kc.ValueRows(a.cacheLayer, kvh, bi))
		return k, v
	}
	k16, _ := kc.KeyBlock(a.cacheLayer, kvh, bi)
	kernels.F16ToF32(k, k16)
	v16, _ := kc.ValueBlock(a.cacheLayer, bi)
	dim, o := kc.Dim(a.cacheLayer), kvh*hd
	for p := range bs {
		kernels.F16ToF32(v[p*hd:(p+1)*hd], v16[p*dim+o:p*dim+o+hd])
	}
	return k, v
}

// useFlash reports whether the run takes the flash path: the rows of one
// sequence, over a cache of a block format or over a long context.
func (a *attnJob) useFlash() bool {
	if a.mixed {
		return false
	}
	last := a.b.Pos[a.rowAt(a.count-1)]
	return a.b.Cache[0].Type().Quantized() || last+1 >= flashSpan
}

// rowAt returns the batch row of the k-th row to compute.
func (a *attnJob) rowAt(k int) int {
	if a.rows != nil {
		return a.rows[k]
	}
	return k
}

// flashTask computes the rows k ≡ g (mod a.g) for the query heads of unit u
// in one pass over the cache blocks they attend to: for each block, every
// (row, head) pair takes its scores, updates its online softmax and adds
// its weighted values, so that the block is read from memory once for
// the task rather than once per row and head. scores holds a block.
func (a *attnJob) flashTask(t, u, g, part int, scores []float32) {
	h0, h1 := u*a.per, (u+1)*a.per
	f := &a.flashRows
	first, last := math.MaxInt, -1
	// A block of a block format is decoded for a task of many rows (a
	// prefill chunk), where its cost is shared; a decode step's few
	// pairs score the blocks with integer dot products instead.
	typ := a.b.Cache[0].Type()
	pairs := (a.count - g + a.g - 1) / a.g * a.per
	widen := typ == kvcache.F16 || typ.Quantized() && pairs >= widenPairs
	// The float scores take the query scaled by the attention scale; the
	// decoded blocks take it as Q8_0 decodes it, so that a row gives the
	// scores of the integer dot products (up to the rounding of the sums)
	// whatever the rows beside it.
	for k := g; k < a.count; k += a.g {
		for h := h0; h < h1; h++ {
			sp, j := a.pair(k, h, part)
			clear(sp.out)
			f.m[j], f.l[j] = float32(math.Inf(-1)), 0
			qd := f.qd[j*a.hd : (j+1)*a.hd]
			switch {
			case typ.Quantized():
				kernels.QuantizeRow(kernels.Q8_0, f.q[j*a.qb:(j+1)*a.qb], sp.q)
				if widen {
					kernels.DecodeQ(kernels.Q8_0, qd, f.q[j*a.qb:(j+1)*a.qb])
					kernels.Scale(qd, sp.scale)
				}
			default:
				copy(qd, sp.q)
				kernels.Scale(qd, sp.scale)
			}
			first, last = min(first, sp.start/sp.bs), max(last, sp.end/sp.bs)
		}
	}
	if a.parts > 1 {
		n := last + 1 - first
		first, last = first+part*n/a.parts, first+(part+1)*n/a.parts-1
	}
	for bi := first; bi <= last; bi++ {
		var k32, v32 []float32
		if widen {
			k32, v32 = a.widen(t, a.b.Cache[0], u, bi)
		}
		for k := g; k < a.count; k += a.g {
			for h := h0; h < h1; h++ {
				sp, j := a.pair(k, h, part)
				lo, hi := max(sp.start, bi*sp.bs), min(sp.end+1, (bi+1)*sp.bs)
				if lo < hi {
					a.flashBlock(&sp, j, bi, lo, hi, scores[:hi-lo], k32, v32)
				}
			}
		}
	}
	if a.parts > 1 {
		return // merge finishes the heads
	}
	for k := g; k < a.count; k += a.g {
		for h := h0; h < h1; h++ {
			sp, j := a.pair(k, h, part)
			l := f.l[j]
			if !math.IsInf(float64(sp.sink), -1) {
				l += float32(math.Exp(float64(sp.sink - f.m[j])))
			}
			kernels.Scale(sp.out, 1/l)
		}
	}
}

// flashBlock adds positions [lo, hi) of block bi to the softmax and the
// output of pair j; k32 and v32, when not nil, hold the block's keys and
// values of the pair's KV head widened to float32.
func (a *attnJob) flashBlock(sp *span, j, bi, lo, hi int, sc, k32, v32 []float32) {
	f := &a.flashRows
	o := lo - bi*sp.bs
	t := sp.kc.Type()
	q := f.qd[j*a.hd : (j+1)*a.hd] // scaled: the float scores need no scaling
	switch {
	case k32 != nil:
		kernels.ScoresF32(sc, q, k32[o:], sp.bs)
	case t.Quantized():
		rb := kernels.QuantRowBytes(t.DType(), a.hd)
		kernels.ScoresQ(t.DType(), sc, 1, f.q[j*a.qb:(j+1)*a.qb], sp.kc.KeyRows(sp.layer, sp.kvh, bi)[o*rb:], a.hd)
		kernels.Scale(sc, sp.scale)
	default:
		_, k := sp.kc.KeyBlock(sp.layer, sp.kvh, bi)
		kernels.ScoresF32(sc, q, k[o:], sp.bs)
	}
	if sp.softcap > 0 {
		kernels.Softcap(sc, sp.softcap)
	}
	m := maxFrom(f.m[j], sc)
	if m > f.m[j] {
		r := float32(math.Exp(float64(f.m[j] - m)))
		kernels.Scale(sp.out, r)
		f.l[j] *= r
		f.m[j] = m
	}
	f.l[j] += kernels.ExpShift(sc, m)
	switch {
	case v32 != nil:
		kernels.AccumF32(sp.out, sc, v32[o*a.hd:], a.hd)
	case t.Quantized():
		rb := kernels.QuantRowBytes(t.DType(), a.hd)
		kernels.AccumQ(t.DType(), sp.out, sc, sp.kc.ValueRows(sp.layer, sp.kvh, bi)[o*rb:])
	case t == kvcache.F16:
		v, _ := sp.kc.ValueBlock(sp.layer, bi)
		kernels.AccumF16(sp.out, sc, v[o*sp.dim+sp.kvo:], sp.dim)
	default:
		_, v := sp.kc.ValueBlock(sp.layer, bi)
		kernels.AccumF32(sp.out, sc, v[o*sp.dim+sp.kvo:], sp.dim)
	}
}

// maxFrom returns the largest of m and the values of x, in four
// independent chains so that the comparisons do not wait on each other.
func maxFrom(m float32, x []float32) float32 {
	m0, m1, m2, m3 := m, m, m, m
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		if v[0] > m0 {
			m0 = v[0]
		}
		if v[1] > m1 {
			m1 = v[1]
		}
		if v[2] > m2 {
			m2 = v[2]
		}
		if v[3] > m3 {
			m3 = v[3]
		}
	}
	for _, v := range x[i:] {
		if v > m0 {
			m0 = v
		}
	}
	return max(m0, m1, m2, m3)
}
