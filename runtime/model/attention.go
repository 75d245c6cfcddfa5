package model

import (
	"math"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// tiledRows is the batch size from which llama.cpp's CPU flash attention
// switches from its row-by-row kernel (query rounded to halves, output
// accumulated in halves) to its tiled one (all float32). Half-precision
// caches follow the same rule for the rows of one sequence, so that
// results match llama.cpp's defaults closely. A batch of several sequences
// (continuous batching) always takes the float32 path: it has no
// single-sequence result to match, and that path is both the more exact
// and, with its block kernels, the faster one.
const tiledRows = 64

// attnJob computes causal attention for the rows of a batch, split over the
// pool as (unit, row group) tasks: task t takes unit t%units and the rows
// i ≡ t/units (mod groups), so causal rows of growing length spread evenly.
// A unit is one query head, or with enough rows to keep the threads busy,
// the query heads that share a KV head: a task then reads each block of
// keys and values from memory once for all of them, and the cache, read
// whole by every step, is not fetched again per query head.
type attnJob struct {
	s       *State
	threads int
	hd      int       // head size of the layer under way
	scores  []float32 // one context-long buffer per task
	qr      []float32 // one head of rounded queries per task
	half    []uint16  // one head of halves per task
	qq      []byte    // one head of Q8_0 queries per task
	qb      int       // bytes of one head of Q8_0 queries
	fn      func(int) // a.task, bound once so runs do not allocate

	flashRows // the online softmax of the flash path (flash.go)

	// The run under way.
	b          *Batch
	layer      int
	kvHeads    int   // the layer's KV heads
	cacheLayer int   // the cache layer its keys and values are in
	window     int   // its sliding window, 0 for none
	n          int   // rows in the batch
	rows       []int // the rows to compute, nil for all n
	count      int   // len(rows), or n
	units      int   // query heads, or KV heads when a task takes a KV head's query heads
	per        int   // query heads per unit
	g          int   // row groups
	tiled      bool  // float32 attention for every row (see tiledRows)
	mixed      bool  // rows of several sequences: prefetch each row's keys and values
	flash      bool  // one pass over the cache blocks per task (flash.go)
}

func (a *attnJob) init(s *State, threads int) {
	c := s.m.Config
	a.s, a.threads = s, threads
	tasks, hd := c.Heads*attnGroups(c.Heads, threads), 0
	for _, l := range s.m.Layers {
		tasks, hd = max(tasks, l.KVHeads*attnGroups(l.KVHeads, threads)), max(hd, l.HeadDim)
	}
	a.scores = make([]float32, tasks*s.ctx)
	a.qr = make([]float32, tasks*hd)
	a.half = make([]uint16, tasks*hd)
	a.qb = kernels.QuantRowBytes(kernels.Q8_0, hd+31&^31)
	a.qq = make([]byte, tasks*a.qb)
	a.flashRows.init(s.maxRows, c.Heads, hd, a.qb, tasks, threads)
	a.fn = a.task
}

// attnGroups returns the row groups per head: enough for two tasks per
// thread, and if a few more make the tasks share evenly among the threads
// (9 heads on 2 threads: 18 tasks, not 9 with one thread doing 5), those.
func attnGroups(heads, threads int) int {
	g := max(1, (2*threads+heads-1)/heads)
	for e := g; e < g+threads; e++ {
		if heads*e%threads == 0 {
			return e
		}
	}
	return g
}

// run fills s.att with the attention output of layer li for the given rows
// of a batch of n (all of them when rows is nil).
func (a *attnJob) run(b *Batch, li, n int, rows []int) {
	count := n
	if rows != nil {
		count = len(rows)
	}
	c, l := a.s.m.Config, &a.s.m.Layers[li]
	a.b, a.layer, a.n, a.rows, a.count = b, li, n, rows, count
	a.hd, a.kvHeads, a.cacheLayer, a.window = l.HeadDim, l.KVHeads, l.KVLayer, l.Window
	a.units, a.per = c.Heads, 1
	if count >= 2*a.threads {
		a.units, a.per = l.KVHeads, c.Heads/l.KVHeads
	}
	a.g = min(attnGroups(a.units, a.threads), count)
	a.mixed = mixed(b)
	a.tiled = n >= tiledRows || a.mixed || a.s.exact
	a.parts = 1
	if a.flash = a.useFlash(); a.flash {
		a.units, a.per = l.KVHeads, c.Heads/l.KVHeads
		a.g = min(attnGroups(a.units, a.threads), count)
		blocks := (b.Pos[a.rowAt(0)] + 1) / b.Cache[0].BlockSize()
		a.parts = splitParts(count, a.units*a.g, a.threads, blocks)
	}
	a.s.pool.Parallel(a.units*a.g*a.parts, a.fn)
	if a.parts > 1 {
		a.merge()
	}
	a.b, a.rows = nil, nil
}

// mixed reports whether the batch holds rows of more than one cache.
func mixed(b *Batch) bool {
	for _, c := range b.Cache[1:] {
		if c != b.Cache[0] {
			return true
		}
	}
	return false
}

func (a *attnJob) task(t int) {
	hd := a.hd
	u, g := t%a.units, t/a.units
	scores := a.scores[t*a.s.ctx : (t+1)*a.s.ctx]
	qr, half := a.qr[t*hd:(t+1)*hd], a.half[t*hd:(t+1)*hd]
	qq := a.qq[t*a.qb : (t+1)*a.qb]
	if a.flash {
		rest := t / a.units
		a.flashTask(t, u, rest%a.g, rest/a.g, scores)
		return
	}
	h0, h1 := u*a.per, (u+1)*a.per
	count := a.count
	row := func(k int) int {
		if a.rows != nil {
			return a.rows[k]
		}
		return k
	}
	if a.mixed && g < count {
		a.prefetch(row(g), h0)
	}
	for k := g; k < count; k += a.g {
		i := row(k)
		if a.mixed && k+a.g < count {
			a.prefetch(row(k+a.g), h0)
		}
		for h := h0; h < h1; h++ {
			a.row(i, h, scores, qr, half, qq)
		}
	}
}

// span is one head of one row: its query, its output and the cache
// positions it attends to.
type span struct {
	q, out     []float32
	kc         *kvcache.Cache
	layer, kvh int
	kvo, dim   int // offset of the KV head in a value row, and the row size
	bs         int // positions per cache block
	start, end int // visible positions [start, end]
	scale      float32
	softcap    float32 // scores become softcap·tanh(score/softcap); 0 for none
	sink       float32 // the head's sink logit in the softmax denominator; -Inf for none
}

// spanOf returns head h of row i.
func (a *attnJob) spanOf(i, h int) span {
	s, c := a.s, a.s.m.Config
	hd, qd := a.hd, c.Heads*a.hd
	pos, kc := a.b.Pos[i], a.b.Cache[i]
	kvh := h / (c.Heads / a.kvHeads)
	sp := span{
		q:       s.q[i*qd+h*hd : i*qd+(h+1)*hd],
		out:     s.att[i*qd+h*hd : i*qd+(h+1)*hd],
		kc:      kc,
		layer:   a.cacheLayer,
		kvh:     kvh,
		kvo:     kvh * hd,
		dim:     kc.Dim(a.cacheLayer),
		bs:      kc.BlockSize(),
		end:     pos,
		scale:   s.m.attnScale,
		softcap: c.AttnSoftcap,
		sink:    float32(math.Inf(-1)),
	}
	if s.ends != nil {
		sp.end = s.ends[i] // bidirectional: the whole sequence
	}
	if sinks := s.m.Layers[a.layer].Sinks; sinks != nil {
		sp.sink = sinks[h]
	}
	switch w := a.window; {
	case w > 0 && s.ends != nil:
		// A bidirectional model's window is symmetric, as llama.cpp's
		// LLAMA_SWA_TYPE_SYMMETRIC: keys at most w/2 away on either side.
		sp.start, sp.end = max(0, pos-w/2), min(sp.end, pos+w/2)
	case w > 0:
		sp.start = max(0, pos-w+1)
	}
	return sp
}

// row computes head h of row i: softmax(q·K/√d) over the visible positions,
// then the weighted sum of V.
func (a *attnJob) row(i, h int, scores, qr []float32, half []uint16, qq []byte) {
	sp := a.spanOf(i, h)
	sc := scores[:sp.end+1-sp.start]
	switch kc := sp.kc; {
	case kc.Type().Quantized():
		sp.quantized(sc, qq)
	case kc.Type() == kvcache.F16 && a.ggmlTiles():
		sp.flashTiles(sc, i-a.b.Pos[i])
	case kc.Type() == kvcache.F16 && !a.tiled:
		sp.halfAccum(sc, qr, half)
	case kc.Type() == kvcache.F16:
		exact(&sp, sc, f16Block, kernels.ScoresF16, kernels.AccumF16)
	default:
		exact(&sp, sc, f32Block, kernels.ScoresF32, kernels.AccumF32)
	}
}

// prefetch asks for the keys and values that head h of row i attends to
// (those of its KV head), to be read from memory while the task computes
// the row before it. Only for rows of several sequences: a decode step's
// rows attend to blocks that the weights streamed past since the last
// step have pushed out of the cache, while the rows of one prompt share
// blocks that are already there.
func (a *attnJob) prefetch(i, h int) {
	sp := a.spanOf(i, h)
	sp.blocks(func(bi, lo, hi int) {
		lo, hi = lo-bi*sp.bs, hi-bi*sp.bs
		if t := sp.kc.Type(); t.Quantized() {
			rb := kernels.QuantRowBytes(t.DType(), a.hd)
			kernels.PrefetchRows(sp.kc.KeyRows(sp.layer, sp.kvh, bi)[lo*rb:], 1, (hi-lo)*rb, 0)
			kernels.PrefetchRows(sp.kc.ValueRows(sp.layer, sp.kvh, bi)[lo*rb:], 1, (hi-lo)*rb, 0)
			return
		}
		k16, k32 := sp.kc.KeyBlock(sp.layer, sp.kvh, bi)
		v16, v32 := sp.kc.ValueBlock(sp.layer, bi)
		if k16 != nil {
			kernels.PrefetchRows(k16[lo:], a.hd, hi-lo, sp.bs)
			kernels.PrefetchRows(v16[lo*sp.dim+sp.kvo:], hi-lo, a.hd, sp.dim)
			return
		}
		kernels.PrefetchRows(k32[lo:], a.hd, hi-lo, sp.bs)
		kernels.PrefetchRows(v32[lo*sp.dim+sp.kvo:], hi-lo, a.hd, sp.dim)
	})
}

// f16Block and f32Block return the keys of KV head kvh and the values of
// the i-th block of a cache of halves or of float32.
func f16Block(kc *kvcache.Cache, layer, kvh, i int) (k, v []uint16) {
	k, _ = kc.KeyBlock(layer, kvh, i)
	v, _ = kc.ValueBlock(layer, i)
	return k, v
}

func f32Block(kc *kvcache.Cache, layer, kvh, i int) (k, v []float32) {
	_, k = kc.KeyBlock(layer, kvh, i)
	_, v = kc.ValueBlock(layer, i)
	return k, v
}

// blockFn returns the keys and values of a cache block.
type blockFn[T float32 | uint16] func(kc *kvcache.Cache, layer, kvh, i int) (k, v []T)

// scoresFn and accumFn are the block kernels of one cache type
// (kernels.ScoresF16, kernels.AccumF16, ...).
type (
	scoresFn[T float32 | uint16] func(dst, q []float32, k []T, stride int)
	accumFn[T float32 | uint16]  func(dst, p []float32, v []T, stride int)
)

// blocks calls fn for each cache block holding visible positions, with
// the block's index and its visible positions [lo, hi).
func (sp *span) blocks(fn func(bi, lo, hi int)) {
	bs := sp.bs
	for bi := sp.start / bs; bi <= sp.end/bs; bi++ {
		fn(bi, max(sp.start, bi*bs), min(sp.end+1, (bi+1)*bs))
	}
}

// scoresOf sets sc[t-start] = scale·(q·K[t]) for the visible positions t,
// one cache block at a time.
func scoresOf[T float32 | uint16](sp *span, q []float32, sc []float32, blk blockFn[T], scores scoresFn[T]) {
	sp.blocks(func(bi, lo, hi int) {
		k, _ := blk(sp.kc, sp.layer, sp.kvh, bi)
		scores(sc[lo-sp.start:hi-sp.start], q, k[lo-bi*sp.bs:], sp.bs)
	})
	sp.scaleScores(sc)
}

// scaleScores scales the dot products sc of the query with the keys into
// the scores of the softmax, softcapped when the model asks for it.
func (sp *span) scaleScores(sc []float32) {
	kernels.Scale(sc, sp.scale)
	if sp.softcap > 0 {
		kernels.Softcap(sc, sp.softcap)
	}
}

// quantized is attention over a cache of a block format, as llama.cpp's
// flash attention computes it over a quantized cache: the query quantized
// to Q8_0 (qq holds it) for integer dot products with the keys, a float32
// softmax, and the values decoded into a float32 weighted sum.
func (sp *span) quantized(sc []float32, qq []byte) {
	t, hd := sp.kc.Type().DType(), len(sp.q)
	rb := kernels.QuantRowBytes(t, hd)
	kernels.QuantizeRow(kernels.Q8_0, qq, sp.q)
	sp.blocks(func(bi, lo, hi int) {
		k := sp.kc.KeyRows(sp.layer, sp.kvh, bi)
		kernels.ScoresQ(t, sc[lo-sp.start:hi-sp.start], 1, qq, k[(lo-bi*sp.bs)*rb:], hd)
	})
	sp.scaleScores(sc)
	softmaxSink(sc, sp.sink)
	clear(sp.out)
	sp.blocks(func(bi, lo, hi int) {
		v := sp.kc.ValueRows(sp.layer, sp.kvh, bi)
		kernels.AccumQ(t, sp.out, sc[lo-sp.start:hi-sp.start], v[(lo-bi*sp.bs)*rb:])
	})
}

// exact is attention in float32 over a cache of float32 or halves: scores,
// softmax, weighted sum.
func exact[T float32 | uint16](sp *span, sc []float32, blk blockFn[T], scores scoresFn[T], accum accumFn[T]) {
	scoresOf(sp, sp.q, sc, blk, scores)
	softmaxSink(sc, sp.sink)
	clear(sp.out)
	sp.blocks(func(bi, lo, hi int) {
		_, v := blk(sp.kc, sp.layer, sp.kvh, bi)
		accum(sp.out, sc[lo-sp.start:hi-sp.start], v[(lo-bi*sp.bs)*sp.dim+sp.kvo:], sp.dim)
	})
}

// halfAccum is attention over a half-precision cache as ggml's row-by-row
// flash attention computes it: the query rounded to halves, an online
// softmax, and the weighted sum of V kept in halves (rounded after every
// position), divided by the softmax sum at the end.
func (sp *span) halfAccum(sc, qr []float32, acc []uint16) {
	kernels.F32ToF16(acc, sp.q)
	kernels.F16ToF32(qr, acc)
	scoresOf(sp, qr, sc, f16Block, kernels.ScoresF16)
	clear(acc)
	m, sum := float32(math.Inf(-1)), float32(0)
	sp.blocks(func(bi, lo, hi int) {
		_, v := f16Block(sp.kc, sp.layer, sp.kvh, bi)
		for ; lo < hi; lo += maxRun {
			w := sc[lo-sp.start : min(hi, lo+maxRun)-sp.start]
			up := onlineWeights(w, &m)
			vo := (lo-bi*sp.bs)*sp.dim + sp.kvo
			seg := 0
			for t, e := range w {
				if up&(1<<t) == 0 {
					sum += e
					continue
				}
				kernels.AccumHalf(acc, w[seg:t], v[vo+seg*sp.dim:], sp.dim)
				kernels.ScaleHalf(acc, e)
				sum = sum*e + 1
				w[t], seg = 1, t
			}
			kernels.AccumHalf(acc, w[seg:], v[vo+seg*sp.dim:], sp.dim)
		}
	})
	if !math.IsInf(float64(sp.sink), -1) {
		sum += float32(math.Exp(float64(sp.sink - m)))
	}
	kernels.F16ToF32(sp.out, acc)
	kernels.Scale(sp.out, 1/sum)
}

// softmaxSink is the softmax of the scores sc with one more logit, sink,
// in the denominator only (an attention sink: a position that takes some
// of the weight and gives no value). A sink of -Inf is a plain softmax.
func softmaxSink(sc []float32, sink float32) {
	if math.IsInf(float64(sink), -1) {
		kernels.Softmax(sc)
		return
	}
	m := sink
	for _, v := range sc {
		m = max(m, v)
	}
	for i := range sc {
		sc[i] -= m
	}
	kernels.Exp(sc)
	sum := float32(math.Exp(float64(sink - m)))
	for _, v := range sc {
		sum += v
	}
	kernels.Scale(sc, 1/sum)
}

// maxRun is the most positions onlineWeights takes at a time.
const maxRun = 64

// onlineWeights replaces the scores s of up to maxRun positions with the
// factors of an online softmax whose running maximum is *m: where a score
// raises the maximum (bit t of the result is set) the factor e^(m_old−s)
// that rescales what came before, elsewhere the weight e^(s−m).
func onlineWeights(s []float32, m *float32) uint64 {
	var up uint64
	for t, v := range s {
		if v > *m {
			s[t] = *m - v
			*m = v
			up |= 1 << t
		} else {
			s[t] = v - *m
		}
	}
	kernels.Exp(s)
	return up
}
