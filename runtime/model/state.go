package model

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// Batch is the input of one forward pass: token rows, each at a position of
// its sequence, whose keys and values go to that sequence's cache. Rows of
// one sequence must be in position order, and every position before a row's
// own must already be in its cache or earlier in the batch.
type Batch struct {
	Tokens []int32
	Pos    []int
	Cache  []*kvcache.Cache // one per row
	// Out lists the rows, ascending, whose logits are wanted.
	Out []int
	// AllHidden keeps every row through the last layer, so that
	// State.Hiddens gives the final hidden state of each, not only of the
	// Out rows (what a multi-token prediction layer reads).
	AllHidden bool
	// Hidden is, for a multi-token prediction model (Model.MTP), the
	// final hidden state the main model gave each row's position: its
	// input beside the token's embedding. Nil for other models.
	Hidden []float32
}

// State is the scratch memory of forward passes of up to MaxRows token rows
// with up to MaxOut rows of logits, for caches of up to Context positions.
// It is not safe for concurrent use; the forward pass does not allocate.
type State struct {
	m       *Model
	pool    *kernels.Pool
	maxRows int
	maxOut  int
	ctx     int

	x, xn, q, k, v, att, gate, up []float32
	kh                            []uint16 // keys converted for a half-precision cache
	rope                          *ropeTable
	cos, sin                      []float32 // per row, RopeDim/2 each
	cosL, sinL                    []float32 // the same for the sliding-window layers' base, if any
	pli, ple, plg                 []float32 // per-layer inputs, second embeddings, gates (Gemma 4)
	hout                          []float32 // normalized rows for the output layer
	hall                          []float32 // every row normalized, with Batch.AllHidden (allocated on first use)
	hidden                        []float32 // what Hiddens returns
	mtpIn                         []float32 // per row, the normalized embedding and hidden state (Model.MTP)
	logits                        []float32
	ends                          []int // per row, the last position of its sequence (encoders)

	moeS      moeScratch
	attn      attnJob
	lin       linJob    // the linear-attention layers, if any
	qg        []float32 // queries and gates of gated attention, per row
	ag        []float32 // the output gate of gated attention, per row
	rj        rowJob
	rowFn     func(int) // s.rowTask, bound once
	routeTies int       // see RouteTies
	// exact makes attention take its float32 path for every batch, so
	// that a row's result does not depend on the rows beside it.
	exact bool
}

// NewState allocates scratch for batches of maxRows rows, maxOut of them with
// logits, over caches of up to ctx positions, computed on pool.
func (m *Model) NewState(pool *kernels.Pool, maxRows, maxOut, ctx int) (*State, error) {
	if maxRows <= 0 || maxOut <= 0 || maxOut > maxRows || ctx <= 0 {
		return nil, fmt.Errorf("%w: state for %d rows, %d outputs, context %d", ErrUnsupported, maxRows, maxOut, ctx)
	}
	c := m.Config
	hid, ff := c.HiddenSize, 0
	q, kv := 0, 0
	for _, l := range m.Layers {
		q, kv, ff = max(q, c.Heads*l.HeadDim), max(kv, l.KVHeads*l.HeadDim), max(ff, l.FFN)
	}
	s := &State{m: m, pool: pool, maxRows: maxRows, maxOut: maxOut, ctx: ctx, rope: &m.rope}
	if m.ropeLong != nil && ctx > c.RopeScaling.OriginalContext {
		// LongRoPE's long factors for a context beyond the original one,
		// as llama.cpp chooses them, by the context rather than by the
		// length of each sequence.
		s.rope = m.ropeLong
	}
	n := maxRows
	s.x, s.xn = make([]float32, n*hid), make([]float32, n*max(hid, q))
	s.q, s.att = make([]float32, n*q), make([]float32, n*q)
	s.k, s.v = make([]float32, n*kv), make([]float32, n*kv)
	s.kh = make([]uint16, n*kv)
	s.gate, s.up = make([]float32, n*ff), make([]float32, n*ff)
	s.cos, s.sin = make([]float32, n*m.rope.pairs), make([]float32, n*m.rope.pairs)
	if m.ropeLocal != nil {
		s.cosL, s.sinL = make([]float32, n*m.ropeLocal.pairs), make([]float32, n*m.ropeLocal.pairs)
	}
	if p := c.PerLayerInput; m.PLEmbed != nil {
		s.pli, s.ple, s.plg = make([]float32, n*c.Layers*p), make([]float32, n*c.Layers*p), make([]float32, n*p)
	}
	if m.Blocks.AttnGate {
		s.qg, s.ag = make([]float32, 2*n*q), make([]float32, n*q)
	}
	if m.stateElems > 0 {
		s.lin.init(s, n)
	}
	if m.Bidirectional() {
		s.ends = make([]int, n)
	}
	s.hout = make([]float32, maxOut*hid)
	if m.MTP != nil {
		s.mtpIn = make([]float32, 2*n*hid)
	}
	s.logits = make([]float32, maxOut*c.VocabSize)
	if m.Config.MoE.Experts > 0 {
		s.moeS.init(m, n)
	}
	s.attn.init(s, pool.Threads())
	s.rowFn = s.rowTask
	return s, nil
}

// RouteTies counts the experts picked so far, over every row and sparse
// layer of every Forward, by a lead of less than RouteTieGap over the next
// expert: products summed in another order, on another device or with
// another kernel set, may pick the other one there, and that row and the
// later positions that attend to it then differ by more than rounding.
func (s *State) RouteTies() int { return s.routeTies }

// MaxRows returns the most token rows a batch may have.
func (s *State) MaxRows() int { return s.maxRows }

// MaxOut returns the most rows of logits a batch may ask for.
func (s *State) MaxOut() int { return s.maxOut }

// Bytes returns the memory of the scratch buffers.
func (s *State) Bytes() int64 {
	n := len(s.kh)/2 + len(s.x) + len(s.xn) + len(s.q) + len(s.att) + len(s.k) + len(s.v) + len(s.gate) + len(s.up) +
		len(s.cos) + len(s.sin) + len(s.cosL) + len(s.sinL) + len(s.pli) + len(s.ple) + len(s.plg) + len(s.hout) + len(s.logits) + len(s.attn.scores) +
		s.moeS.floats() + len(s.qg) + len(s.ag) + s.lin.floats() + len(s.mtpIn)
	return 4 * int64(n)
}
