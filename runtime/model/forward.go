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
		m.Embed.Row(int(t), s.x[i*hid:(i+1)*hid])
		m.rope.angles(b.Pos[i], s.cos[i*half:(i+1)*half], s.sin[i*half:(i+1)*half])
	}
	for li := range m.Layers {
		s.layer(li, b, n)
	}
	for j, r := range b.Out {
		kernels.RMSNorm(s.hout[j*hid:(j+1)*hid], s.x[r*hid:(r+1)*hid], m.OutputNorm, c.RMSNormEps)
	}
	out := len(b.Out) * c.VocabSize
	s.pool.MatMul(m.Output, s.hout, len(b.Out), s.logits[:out])
	return s.logits[:out], nil
}

// layer runs transformer block li on the n rows of s.x.
func (s *State) layer(li int, b *Batch, n int) {
	l, c := &s.m.Layers[li], s.m.Config
	hid, hd, eps := c.HiddenSize, c.HeadDim, c.RMSNormEps
	qd, kvd, half := c.Heads*hd, c.KVHeads*hd, c.RopeDim/2
	for i := range n {
		kernels.RMSNorm(s.xn[i*hid:(i+1)*hid], s.x[i*hid:(i+1)*hid], l.AttnNorm, eps)
	}
	s.pool.MatMul(l.Q, s.xn, n, s.q)
	s.pool.MatMul(l.K, s.xn, n, s.k)
	s.pool.MatMul(l.V, s.xn, n, s.v)
	for i := range n {
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
		rope(s.m.Rope, q, hd, cos, sin)
		rope(s.m.Rope, k, hd, cos, sin)
		b.Cache[i].Store(li, b.Pos[i], k, v)
	}
	s.attn.run(b, li, n)
	s.pool.MatMul(l.O, s.att, n, s.xn)
	kernels.Add(s.x[:n*hid], s.xn[:n*hid])
	for i := range n {
		kernels.RMSNorm(s.xn[i*hid:(i+1)*hid], s.x[i*hid:(i+1)*hid], l.FFNNorm, eps)
	}
	ff := c.FFNSize
	s.pool.MatMul(l.Gate, s.xn, n, s.gate)
	s.pool.MatMul(l.Up, s.xn, n, s.up)
	kernels.SiLUMul(s.gate[:n*ff], s.up[:n*ff])
	s.pool.MatMul(l.Down, s.gate, n, s.xn)
	kernels.Add(s.x[:n*hid], s.xn[:n*hid])
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
	kvd := c.KVHeads * c.HeadDim
	for i, t := range b.Tokens {
		kc, p := b.Cache[i], b.Pos[i]
		switch {
		case t < 0 || int(t) >= c.VocabSize:
			return fmt.Errorf("%w: token id %d outside the vocabulary of %d", ErrBatch, t, c.VocabSize)
		case kc == nil || kc.Dim() != kvd || kc.Layers() != len(s.m.Layers):
			return fmt.Errorf("%w: row %d has no cache of %d layers × %d values", ErrBatch, i, len(s.m.Layers), kvd)
		case p < 0 || p >= kc.Context() || p >= s.ctx:
			return fmt.Errorf("%w: position %d outside a context of %d", ErrBatch, p, min(kc.Context(), s.ctx))
		}
	}
	return nil
}
