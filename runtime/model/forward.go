package model

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// Forward runs the batch through the model and returns the logits of its
// Out rows: len(Out)×vocab values in the state's memory, valid until the
// next call. The keys and values of every row are stored in its cache.
func (s *State) Forward(b *Batch) ([]float32, error) {
	if err := s.check(b); err != nil {
		return nil, err
	}
	m, c := s.m, s.m.Config
	n, hid, half := len(b.Tokens), c.HiddenSize, c.RopeDim/2
	for i, t := range b.Tokens {
		x := s.x[i*hid : (i+1)*hid]
		m.Embed.Row(int(t), x)
		if m.embedScale != 0 {
			kernels.Scale(x, m.embedScale)
		}
		s.rope.angles(b.Pos[i], s.cos[i*half:(i+1)*half], s.sin[i*half:(i+1)*half])
		if m.ropeLocal != nil {
			m.ropeLocal.angles(b.Pos[i], s.cosL[i*half:(i+1)*half], s.sinL[i*half:(i+1)*half])
		}
	}
	for li := range m.Layers {
		s.layer(li, b, n)
	}
	for j, r := range b.Out {
		if len(b.Out) < n {
			r = j // the last layer kept only the output rows, in order
		}
		kernels.RMSNorm(s.hout[j*hid:(j+1)*hid], s.x[r*hid:(r+1)*hid], m.OutputNorm, c.RMSNormEps)
	}
	out := len(b.Out) * c.VocabSize
	s.pool.MatMul(m.Output, s.hout, len(b.Out), s.logits[:out])
	if c.FinalSoftcap > 0 {
		kernels.Softcap(s.logits[:out], c.FinalSoftcap)
	}
	return s.logits[:out], nil
}

// layer runs transformer block li on the n rows of s.x. The last layer
// goes on, after storing every row's key and value, with the output rows
// only, moved to the front of s.x: no other row's result is used.
func (s *State) layer(li int, b *Batch, n int) {
	l := &s.m.Layers[li]
	s.rows(stepAttnNorm, li, b, n)
	qkv := [...]*kernels.Matrix{l.Q, l.K, l.V}
	s.pool.MatMuls(qkv[:], s.xn, n, [][]float32{s.q, s.k, s.v})
	s.rows(stepQKV, li, b, n)
	if li == len(s.m.Layers)-1 && len(b.Out) < n {
		s.attn.run(b, li, n, b.Out)
		s.keepRows(b.Out)
		n = len(b.Out)
	} else {
		s.attn.run(b, li, n, nil)
	}
	s.pool.MatMul(l.O, s.att, n, s.xn)
	s.rows(stepFFNNorm, li, b, n)
	gateUp := [...]*kernels.Matrix{l.Gate, l.Up}
	s.pool.MatMuls(gateUp[:], s.xn, n, [][]float32{s.gate, s.up})
	s.rows(stepAct, li, b, n)
	s.pool.MatMul(l.Down, s.gate, n, s.xn)
	s.rows(stepResidual, li, b, n)
}

// keepRows moves the residual and attention rows listed (ascending) to the
// front of s.x and s.att.
func (s *State) keepRows(rows []int) {
	c := s.m.Config
	hid, qd := c.HiddenSize, c.Heads*c.HeadDim
	for j, r := range rows {
		copy(s.x[j*hid:(j+1)*hid], s.x[r*hid:(r+1)*hid])
		copy(s.att[j*qd:(j+1)*qd], s.att[r*qd:(r+1)*qd])
	}
}

// rowStep is a part of a layer done row by row, between the matmuls.
type rowStep uint8

const (
	stepAttnNorm rowStep = iota // xn = RMSNorm(x)
	stepQKV                     // q, k, v biases and norms, RoPE, k and v into the cache
	stepFFNNorm                 // x += attention output (in xn, post-normed if so); xn = RMSNorm(x)
	stepAct                     // gate = act(gate) * up
	stepResidual                // x += MLP output (in xn, post-normed if so)
)

// parallelRows is the batch size from which row steps are split over the pool.
const parallelRows = 4

// rowJob is the row step under way, read by the pool's workers.
type rowJob struct {
	step  rowStep
	layer int
	b     *Batch
	n     int
	chunk int
}

// rows runs a row step on n rows, across the pool for larger batches.
func (s *State) rows(step rowStep, li int, b *Batch, n int) {
	if n < parallelRows {
		for i := range n {
			s.row(step, li, b, i)
		}
		return
	}
	chunk := max(1, n/(4*s.pool.Threads()))
	s.rj = rowJob{step: step, layer: li, b: b, n: n, chunk: chunk}
	s.pool.Parallel((n+chunk-1)/chunk, s.rowFn)
	s.rj.b = nil
}

// rowTask runs the row step under way on one chunk of rows.
func (s *State) rowTask(t int) {
	j := &s.rj
	for i := t * j.chunk; i < min((t+1)*j.chunk, j.n); i++ {
		s.row(j.step, j.layer, j.b, i)
	}
}

// row runs one row step on row i.
func (s *State) row(step rowStep, li int, b *Batch, i int) {
	l, c := &s.m.Layers[li], s.m.Config
	hid, eps := c.HiddenSize, c.RMSNormEps
	x, xn := s.x[i*hid:(i+1)*hid], s.xn[i*hid:(i+1)*hid]
	switch step {
	case stepAttnNorm:
		kernels.RMSNorm(xn, x, l.AttnNorm, eps)
	case stepQKV:
		s.qkv(l, li, b, i)
	case stepFFNNorm:
		if l.PostAttnNorm != nil {
			kernels.RMSNorm(xn, xn, l.PostAttnNorm, eps)
		}
		kernels.Add(x, xn)
		kernels.RMSNorm(xn, x, l.FFNNorm, eps)
	case stepAct:
		ff := c.FFNSize
		if s.m.MLP == GeGLUTanh {
			kernels.GELUTanhMul(s.gate[i*ff:(i+1)*ff], s.up[i*ff:(i+1)*ff])
		} else {
			kernels.SiLUMul(s.gate[i*ff:(i+1)*ff], s.up[i*ff:(i+1)*ff])
		}
	case stepResidual:
		if l.PostFFNNorm != nil {
			kernels.RMSNorm(xn, xn, l.PostFFNNorm, eps)
		}
		kernels.Add(x, xn)
	}
}

// qkv finishes the projections of row i: biases, per-head norms, RoPE,
// then stores its key and value in the row's cache.
func (s *State) qkv(l *Layer, li int, b *Batch, i int) {
	c := s.m.Config
	hd, eps := c.HeadDim, c.RMSNormEps
	qd, kvd, half := c.Heads*hd, c.KVHeads*hd, c.RopeDim/2
	q, k, v := s.q[i*qd:(i+1)*qd], s.k[i*kvd:(i+1)*kvd], s.v[i*kvd:(i+1)*kvd]
	if l.QBias != nil {
		kernels.Add(q, l.QBias)
		kernels.Add(k, l.KBias)
		kernels.Add(v, l.VBias)
	}
	if l.QNorm != nil {
		headNorm(q, l.QNorm, eps)
		headNorm(k, l.KNorm, eps)
	}
	cos, sin := s.cos[i*half:(i+1)*half], s.sin[i*half:(i+1)*half]
	if l.Local {
		cos, sin = s.cosL[i*half:(i+1)*half], s.sinL[i*half:(i+1)*half]
	}
	rope(s.m.Rope, q, hd, cos, sin)
	rope(s.m.Rope, k, hd, cos, sin)
	b.Cache[i].Store(li, b.Pos[i], k, v, s.kh[i*kvd:(i+1)*kvd])
}

// headNorm applies RMSNorm with weight w to every head of x (heads of len(w)).
func headNorm(x, w []float32, eps float32) {
	hd := len(w)
	for h := 0; h+hd <= len(x); h += hd {
		kernels.RMSNorm(x[h:h+hd], x[h:h+hd], w, eps)
	}
}

// check validates a batch against the state's sizes and the model.
func (s *State) check(b *Batch) error {
	n, c := len(b.Tokens), s.m.Config
	switch {
	case n == 0 || n > s.maxRows:
		return fmt.Errorf("%w: batch of %d rows (1 to %d)", ErrBatch, n, s.maxRows)
	case len(b.Pos) != n || len(b.Cache) != n:
		return fmt.Errorf("%w: %d tokens with %d positions and %d caches", ErrBatch, n, len(b.Pos), len(b.Cache))
	case len(b.Out) == 0 || len(b.Out) > s.maxOut:
		return fmt.Errorf("%w: %d output rows (1 to %d)", ErrBatch, len(b.Out), s.maxOut)
	}
	for j, r := range b.Out {
		if r < 0 || r >= n || (j > 0 && r <= b.Out[j-1]) {
			return fmt.Errorf("%w: output rows %v are not ascending rows of %d", ErrBatch, b.Out, n)
		}
	}
	for i, t := range b.Tokens {
		kc, p := b.Cache[i], b.Pos[i]
		switch {
		case t < 0 || int(t) >= c.VocabSize:
			return fmt.Errorf("%w: token id %d outside the vocabulary of %d", ErrBatch, t, c.VocabSize)
		case kc == nil || kc.Heads() != c.KVHeads || kc.HeadDim() != c.HeadDim || kc.Layers() != len(s.m.Layers):
			return fmt.Errorf("%w: row %d has no cache of %d layers × %d heads × %d values", ErrBatch, i, len(s.m.Layers), c.KVHeads, c.HeadDim)
		case p < 0 || p >= kc.Context() || p >= s.ctx:
			return fmt.Errorf("%w: position %d outside a context of %d", ErrBatch, p, min(kc.Context(), s.ctx))
		}
	}
	return nil
}
