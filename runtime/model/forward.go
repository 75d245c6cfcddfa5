package model

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// Forward runs the batch through the model and returns the logits of its
// Out rows: len(Out)×vocab values in the state's memory, valid until the
// next call. The keys and values of every row are stored in its cache.
func (s *State) Forward(b *Batch) ([]float32, error) {
	if err := s.check(b, s.maxOut); err != nil {
		return nil, err
	}
	if s.m.Output == nil {
		return nil, fmt.Errorf("%w: an encoder gives hidden states, not logits", ErrUnsupported)
	}
	if err := s.trunk(b); err != nil {
		return nil, err
	}
	m, c := s.m, s.m.Config
	hid := c.HiddenSize
	if b.AllHidden {
		n := len(b.Tokens)
		if len(s.hall) < s.maxRows*hid {
			s.hall = make([]float32, s.maxRows*hid)
		}
		for r := range n {
			kernels.RMSNorm(s.hall[r*hid:(r+1)*hid], s.x[r*hid:(r+1)*hid], m.OutputNorm, c.RMSNormEps)
		}
		for j, r := range b.Out {
			copy(s.hout[j*hid:(j+1)*hid], s.hall[r*hid:(r+1)*hid])
		}
		s.hidden = s.hall[:n*hid]
	} else {
		for j, r := range b.Out {
			if len(b.Out) < len(b.Tokens) {
				r = j // the last layer kept only the output rows, in order
			}
			kernels.RMSNorm(s.hout[j*hid:(j+1)*hid], s.x[r*hid:(r+1)*hid], m.OutputNorm, c.RMSNormEps)
		}
		s.hidden = s.hout[:len(b.Out)*hid]
	}
	out := len(b.Out) * c.VocabSize
	s.pool.MatMul(m.Output, s.hout, len(b.Out), s.logits[:out])
	if c.FinalSoftcap > 0 {
		kernels.Softcap(s.logits[:out], c.FinalSoftcap)
	}
	return s.logits[:out], nil
}

// Hiddens returns the final hidden states, after the output norm, that
// the last Forward computed the logits from: of every row of a batch with
// AllHidden, else of its Out rows. They are valid until the next call.
func (s *State) Hiddens() []float32 { return s.hidden }

// Hidden runs the batch through the model and returns the final hidden
// state of every row, after the output norm: len(Tokens)×hidden values in
// the state's memory, valid until the next call. It is the input of the
// output layer, which it skips: what embeddings pool. It sets b.Out to
// every row. Attention takes its float32 path whatever the batch, so that
// a row's state does not depend on the other sequences in the batch. The keys and values of every row are stored in its cache.
func (s *State) Hidden(b *Batch) ([]float32, error) {
	b.Out = b.Out[:0]
	for i := range b.Tokens {
		b.Out = append(b.Out, i)
	}
	if err := s.check(b, s.maxRows); err != nil {
		return nil, err
	}
	s.exact = true
	err := s.trunk(b)
	s.exact = false
	if err != nil {
		return nil, err
	}
	m, c := s.m, s.m.Config
	n, hid := len(b.Tokens), c.HiddenSize
	if m.OutputNorm == nil {
		return s.x[:n*hid], nil // an encoder's layers end with their norm
	}
	for r := range n {
		kernels.RMSNorm(s.xn[r*hid:(r+1)*hid], s.x[r*hid:(r+1)*hid], m.OutputNorm, c.RMSNormEps)
	}
	return s.xn[:n*hid], nil
}

// trunk embeds the batch's tokens and runs every layer, leaving the
// residual stream in s.x: every row, or on a batch with fewer output rows
// than tokens, the output rows in order.
func (s *State) trunk(b *Batch) error {
	if s.m.stateElems > 0 {
		if err := s.lin.group(b); err != nil {
			return err
		}
		defer s.lin.advance()
	}
	m, c := s.m, s.m.Config
	n, hid := len(b.Tokens), c.HiddenSize
	for i, t := range b.Tokens {
		x := s.x[i*hid : (i+1)*hid]
		m.Embed.Row(int(t), x)
		if m.embedScale != 0 {
			kernels.Scale(x, m.embedScale)
		}
		if m.Enc != nil {
			s.embedEncoder(x, b.Pos[i])
		}
		h := s.rope.pairs
		s.rope.angles(b.Pos[i], s.cos[i*h:(i+1)*h], s.sin[i*h:(i+1)*h])
		if m.ropeLocal != nil {
			h = m.ropeLocal.pairs
			m.ropeLocal.angles(b.Pos[i], s.cosL[i*h:(i+1)*h], s.sinL[i*h:(i+1)*h])
		}
	}
	if s.ends != nil {
		s.seqEnds(b)
	}
	if m.MTP != nil {
		s.mtpInput(n, b.Hidden)
	}
	if m.PLEmbed != nil {
		s.pool.MatMul(m.PLProj, s.x, n, s.pli)
		s.rows(stepPLInput, 0, b, n)
	}
	for li := range m.Layers {
		s.layer(li, b, n)
	}
	return nil
}

// layer runs transformer block li on the n rows of s.x. The last layer
// goes on, after storing every row's key and value, with the output rows
// only, moved to the front of s.x: no other row's result is used.
func (s *State) layer(li int, b *Batch, n int) {
	l := &s.m.Layers[li]
	s.rows(stepAttnNorm, li, b, n)
	if l.Linear != nil {
		n = s.linear(li, b, n)
	} else {
		n = s.attention(li, b, n)
	}
	s.rows(stepFFNNorm, li, b, n)
	switch {
	case l.Down != nil && l.Gate == nil: // ungated: act(up) in gate
		s.pool.MatMul(l.Up, s.xn, n, s.gate)
		s.rows(stepAct, li, b, n)
		s.pool.MatMul(l.Down, s.gate, n, s.xn)
	case l.Down != nil:
		gateUp := [...]*kernels.Matrix{l.Gate, l.Up}
		s.pool.MatMuls(gateUp[:], s.xn, n, [][]float32{s.gate, s.up})
		s.rows(stepAct, li, b, n)
		s.pool.MatMul(l.Down, s.gate, n, s.xn)
	}
	switch {
	case l.MoE != nil && l.Down != nil:
		s.rows(stepMoEIn, li, b, n)
		s.moe(l.MoE, n)
		s.rows(stepMoEOut, li, b, n)
	case l.MoE != nil:
		s.moe(l.MoE, n)
	}
	s.rows(stepResidual, li, b, n)
	if l.PLGate != nil {
		s.pool.MatMul(l.PLGate, s.x, n, s.plg)
		s.rows(stepPLGate, li, b, n)
		s.pool.MatMul(l.PLProj, s.plg, n, s.xn)
		s.rows(stepPLOut, li, b, n)
	}
}

// attention runs the attention of layer li on the n rows of s.xn and
// leaves its output in s.xn. It returns the rows left: on the last layer,
// only the output rows, moved to the front.
func (s *State) attention(li int, b *Batch, n int) int {
	l := &s.m.Layers[li]
	mats, outs, k := [3]*kernels.Matrix{l.Q, l.K, l.V}, [3][]float32{s.q, s.k, s.v}, 3
	switch {
	case l.Shared:
		k = 1
	case l.KEqV:
		k = 2
	}
	if l.Gated {
		outs[0] = s.qg
	}
	s.pool.MatMuls(mats[:k], s.xn, n, outs[:k])
	s.rows(stepQKV, li, b, n)
	var rows []int
	if li == len(s.m.Layers)-1 && len(b.Out) < n && !b.AllHidden {
		rows = b.Out
	}
	s.attn.run(b, li, n, rows)
	if l.Gated {
		s.gateAttention(l, n, rows)
	}
	if rows != nil {
		s.keepRows(l, rows)
		n = len(rows)
	}
	s.pool.MatMul(l.O, s.att, n, s.xn)
	addRows(s.xn, l.OBias, n)
	return n
}

// addRows adds bias to each of the first n rows of x (rows of len(bias));
// a nil bias adds nothing.
func addRows(x, bias []float32, n int) {
	if bias == nil {
		return
	}
	d := len(bias)
	for i := range n {
		kernels.Add(x[i*d:(i+1)*d], bias)
	}
}

// keepRows moves the residual, attention and per-layer input rows listed
// (ascending) to the front of their buffers.
func (s *State) keepRows(l *Layer, rows []int) {
	c := s.m.Config
	hid, qd, pl := c.HiddenSize, c.Heads*l.HeadDim, c.Layers*c.PerLayerInput
	for j, r := range rows {
		copy(s.x[j*hid:(j+1)*hid], s.x[r*hid:(r+1)*hid])
		copy(s.att[j*qd:(j+1)*qd], s.att[r*qd:(r+1)*qd])
		if s.pli != nil {
			copy(s.pli[j*pl:(j+1)*pl], s.pli[r*pl:(r+1)*pl])
		}
	}
}

// check validates a batch, with up to maxOut output rows, against the
// state's sizes and the model.
func (s *State) check(b *Batch, maxOut int) error {
	n, c := len(b.Tokens), s.m.Config
	switch {
	case n == 0 || n > s.maxRows:
		return fmt.Errorf("%w: batch of %d rows (1 to %d)", ErrBatch, n, s.maxRows)
	case len(b.Pos) != n || len(b.Cache) != n:
		return fmt.Errorf("%w: %d tokens with %d positions and %d caches", ErrBatch, n, len(b.Pos), len(b.Cache))
	case len(b.Out) == 0 || len(b.Out) > maxOut:
		return fmt.Errorf("%w: %d output rows (1 to %d)", ErrBatch, len(b.Out), maxOut)
	case s.m.MTP != nil && len(b.Hidden) != n*c.HiddenSize:
		return fmt.Errorf("%w: %d hidden values for %d rows of a multi-token prediction layer of %d", ErrBatch, len(b.Hidden), n, c.HiddenSize)
	}
	for j, r := range b.Out {
		if r < 0 || r >= n || (j > 0 && r <= b.Out[j-1]) {
			return fmt.Errorf("%w: output rows %v are not ascending rows of %d", ErrBatch, b.Out, n)
		}
	}
	if s.m.Bidirectional() {
		if err := checkWhole(b); err != nil {
			return err
		}
	}
	for i, t := range b.Tokens {
		kc, p := b.Cache[i], b.Pos[i]
		switch {
		case t < 0 || int(t) >= c.VocabSize:
			return fmt.Errorf("%w: token id %d outside the vocabulary of %d", ErrBatch, t, c.VocabSize)
		case !s.m.fits(kc):
			return fmt.Errorf("%w: row %d has no cache of %d layers × %d heads × %d values", ErrBatch, i, len(s.m.kvShapes), c.KVHeads, c.HeadDim)
		case p < 0 || p >= kc.Context() || p >= s.ctx:
			return fmt.Errorf("%w: position %d outside a context of %d", ErrBatch, p, min(kc.Context(), s.ctx))
		}
	}
	return nil
}

// fits reports whether kc has the model's cache layers.
func (m *Model) fits(kc *kvcache.Cache) bool {
	if kc == nil || kc.Layers() != len(m.kvShapes) {
		return false
	}
	for i, sh := range m.kvShapes {
		if kc.Shape(i) != sh {
			return false
		}
	}
	return true
}
