package model

import (
	"math"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// rowStep is a part of a layer done row by row, between the matmuls.
type rowStep uint8

const (
	stepAttnNorm rowStep = iota // xn = RMSNorm(x)
	stepQKV                     // q, k, v biases and norms, RoPE, k and v into the cache
	stepFFNNorm                 // x += attention output (in xn, post-normed if so); xn = RMSNorm(x)
	stepAct                     // gate = act(gate) * up
	stepResidual                // x += MLP output (in xn, post-normed if so)
	stepMoEIn                   // dense = PostFFNNorm1(xn); xn = PreFFNNorm2(x); the router's input
	stepMoEOut                  // xn = PostFFNNorm2(xn) + dense
	stepPLInput                 // the rows' per-layer inputs, from their embeddings (pli)
	stepPLGate                  // plg = act(plg) * the layer's input
	stepPLOut                   // x += RMSNorm(xn), the projected per-layer input
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
		if l.Enc != nil {
			copy(xn, x) // an encoder normalises after attention
		} else {
			kernels.RMSNorm(xn, x, l.AttnNorm, eps)
		}
	case stepQKV:
		s.qkv(l, li, b, i)
	case stepFFNNorm:
		if e := l.Enc; e != nil {
			kernels.Add(x, xn)
			s.m.layerNorm(x, e.AttnNorm, e.AttnNormBias)
			copy(xn, x)
			return
		}
		if l.PostAttnNorm != nil {
			kernels.RMSNorm(xn, xn, l.PostAttnNorm, eps)
		}
		kernels.Add(x, xn)
		kernels.RMSNorm(xn, x, l.FFNNorm, eps)
	case stepAct:
		ff := l.FFN
		if l.Enc != nil {
			s.encoderAct(l, s.gate[i*ff:(i+1)*ff], s.up[i*ff:(i+1)*ff])
			return
		}
		s.m.act(s.gate[i*ff:(i+1)*ff], s.up[i*ff:(i+1)*ff])
	case stepResidual:
		if e := l.Enc; e != nil {
			if e.DownBias != nil {
				kernels.Add(xn, e.DownBias)
			}
			kernels.Add(x, xn)
			s.m.layerNorm(x, e.OutNorm, e.OutNormBias)
			return
		}
		if l.PostFFNNorm != nil {
			kernels.RMSNorm(xn, xn, l.PostFFNNorm, eps)
		}
		kernels.Add(x, xn)
		if l.PLGate == nil && l.Scalar != 0 {
			kernels.Scale(x, l.Scalar)
		}
	case stepMoEIn:
		ms := &s.moeS
		kernels.RMSNorm(ms.dense[i*hid:(i+1)*hid], xn, l.PostFFNNorm1, eps)
		kernels.RMSNorm(xn, x, l.PreFFNNorm2, eps)
		if l.MoE.RouterScale != nil {
			kernels.RMSNorm(ms.rin[i*hid:(i+1)*hid], x, l.MoE.RouterScale, eps)
		}
	case stepMoEOut:
		kernels.RMSNorm(xn, xn, l.PostFFNNorm2, eps)
		kernels.Add(xn, s.moeS.dense[i*hid:(i+1)*hid])
	case stepPLInput:
		s.perLayerInput(b, i)
	case stepPLGate:
		p := c.PerLayerInput
		in := s.pli[(i*c.Layers+li)*p : (i*c.Layers+li+1)*p]
		s.m.act(s.plg[i*p:(i+1)*p], in)
	case stepPLOut:
		kernels.RMSNorm(xn, xn, l.PLPostNorm, eps)
		kernels.Add(x, xn)
		if l.Scalar != 0 {
			kernels.Scale(x, l.Scalar)
		}
	}
}

// act sets gate = act(gate) * up with the model's gated activation.
func (m *Model) act(gate, up []float32) {
	switch m.MLP {
	case GeGLUTanh:
		kernels.GELUTanhMul(gate, up)
	case GeGLU:
		kernels.GELU(gate)
		for i, u := range up[:len(gate)] {
			gate[i] *= u
		}
	default:
		kernels.SiLUMul(gate, up)
	}
}

// perLayerInput finishes row i's per-layer inputs: its projection (in pli)
// scaled by 1/√hidden and normalised per layer, plus its second embedding,
// both scaled by 1/√2.
func (s *State) perLayerInput(b *Batch, i int) {
	m, c := s.m, s.m.Config
	p, all := c.PerLayerInput, c.Layers*c.PerLayerInput
	pli, emb := s.pli[i*all:(i+1)*all], s.ple[i*all:(i+1)*all]
	clear(emb)
	if t := int(b.Tokens[i]); t < m.PLEmbed.Rows {
		m.PLEmbed.Row(t, emb)
	}
	kernels.Scale(pli, m.plProjScale)
	for l := 0; l < all; l += p {
		kernels.RMSNorm(pli[l:l+p], pli[l:l+p], m.PLNorm, c.RMSNormEps)
	}
	kernels.Scale(emb, m.plEmbedScale)
	kernels.Add(pli, emb)
	kernels.Scale(pli, float32(1/math.Sqrt2))
}

// qkv finishes the projections of row i: biases, per-head norms, RoPE,
// then stores its key and value in the row's cache (unless the layer
// reads another layer's).
func (s *State) qkv(l *Layer, li int, b *Batch, i int) {
	c := s.m.Config
	hd, eps := l.HeadDim, c.RMSNormEps
	qd, kvd := c.Heads*hd, l.KVHeads*hd
	q, k, v := s.q[i*qd:(i+1)*qd], s.k[i*kvd:(i+1)*kvd], s.v[i*kvd:(i+1)*kvd]
	if l.Gated {
		s.splitGate(l, i)
	}
	t, cos, sin := s.rope, s.cos, s.sin
	if l.Local {
		t, cos, sin = s.m.ropeLocal, s.cosL, s.sinL
	}
	h := t.pairs
	cos, sin = cos[i*h:(i+1)*h], sin[i*h:(i+1)*h]
	if l.QBias != nil && !l.Gated {
		kernels.Add(q, l.QBias)
	}
	if l.QNorm != nil {
		headNorm(q, l.QNorm, eps)
	}
	if !s.m.Blocks.AbsolutePos {
		rope(s.m.Rope, q, hd, t.off, cos, sin)
	}
	if l.Shared {
		return
	}
	if l.KEqV {
		copy(v, k)
	}
	if l.KBias != nil {
		kernels.Add(k, l.KBias)
		kernels.Add(v, l.VBias)
	}
	if l.KNorm != nil {
		headNorm(k, l.KNorm, eps)
	}
	if l.VNorm != nil {
		headNorm(v, l.VNorm, eps)
	}
	if !s.m.Blocks.AbsolutePos {
		rope(s.m.Rope, k, hd, t.off, cos, sin)
	}
	b.Cache[i].Store(l.KVLayer, b.Pos[i], k, v, s.kh[i*kvd:(i+1)*kvd])
}

// headNorm applies RMSNorm with weight w to every head of x (heads of len(w)).
func headNorm(x, w []float32, eps float32) {
	hd := len(w)
	for h := 0; h+hd <= len(x); h += hd {
		kernels.RMSNorm(x[h:h+hd], x[h:h+hd], w, eps)
	}
}
