package model

import (
	"github.com/mlxrun/mlx/runtime/kernels"
)

// Layer is one transformer block.
type Layer struct {
	AttnNorm, FFNNorm         []float32
	PostAttnNorm, PostFFNNorm []float32 // sandwich norms, nil without
	Q, K, V, O                *kernels.Matrix
	QBias, KBias, VBias       []float32       // nil without biases
	QNorm, KNorm, VNorm       []float32       // nil without per-head norms
	OBias                     []float32       // the output projection's bias, nil without
	Sinks                     []float32       // one attention-sink logit per query head, nil without
	Gate, Up, Down            *kernels.Matrix // the dense MLP, nil in a sparse layer (but with Blocks.MoEBeside)
	MoE                       *MoE            // the sparse layer's mixture, nil in a dense one
	// The norms of a mixture beside the dense MLP (Blocks.MoEBeside): of
	// the dense output, of the experts' input and of their output.
	PostFFNNorm1, PreFFNNorm2, PostFFNNorm2 []float32

	// Per-layer input (Gemma 4), nil without: gate(x) activated times the
	// layer's input, projected back, normalised and added to x.
	PLGate, PLProj *kernels.Matrix
	PLPostNorm     []float32
	Scalar         float32 // the layer's output is multiplied by this, 0 for none

	HeadDim, KVHeads int  // the layer's own head size and KV heads
	FFN              int  // the intermediate size of its dense MLP, 0 in a sparse layer
	KVLayer          int  // the cache layer the keys and values are in
	Shared           bool // another layer computes the keys and values (K and V are nil)
	KEqV             bool // the values are the keys before their norm and RoPE (V is nil)
	Window           int  // sliding-window size in tokens, 0 for full attention
	Local            bool // RoPE with the sliding-window layers' table
	Gated            bool // Q gives queries and an output gate per head (Blocks.AttnGate)

	// Enc holds the LayerNorms and MLP biases of an encoder layer, nil
	// in a decoder.
	Enc *EncoderLayer

	// Linear is the Gated DeltaNet token mixer of a linear-attention
	// layer, nil for attention layers (which have no Linear, and whose
	// attention fields are unset).
	Linear *DeltaNet
}

// Matrices returns the weight matrices of the layer but the experts of a
// mixture (MoE.Experts); those it does not have are nil.
func (l *Layer) Matrices() []*kernels.Matrix {
	ws := []*kernels.Matrix{l.Q, l.K, l.V, l.O, l.Gate, l.Up, l.Down, l.PLGate, l.PLProj}
	if l.MoE != nil {
		ws = append(ws, l.MoE.Router)
		if sh := l.MoE.Shared; sh != nil {
			ws = append(ws, sh.Gate, sh.Up, sh.Down)
		}
	}
	if d := l.Linear; d != nil {
		ws = append(ws, d.QKV, d.Z, d.Beta, d.Alpha, d.Out)
	}
	return ws
}

// layer binds layer i.
func (b *binder) layer(m *Model, n *Names, i int) Layer {
	cfg, bl := m.Config, m.Blocks
	hid := cfg.HiddenSize
	hd, kvh, _ := cfg.LayerShape(i)
	qDim, kvDim := cfg.Heads*hd, kvh*hd
	qRows := qDim
	if bl.AttnGate {
		qRows = 2 * qDim
	}
	l := Layer{
		AttnNorm: b.norm(layer(n.AttnNorm, i), hid),
		FFNNorm:  b.norm(layer(n.FFNNorm, i), hid),
		FFN:      cfg.LayerFFN(i),
		HeadDim:  hd, KVHeads: kvh, KVLayer: m.kvLayer[i],
		Shared: i >= cfg.Layers-cfg.KVSharedLayers,
		KEqV:   cfg.KEqV && !cfg.LayerSliding(i),
		Gated:  bl.AttnGate,
	}
	if cfg.LayerLinear(i) {
		l.Linear, l.Gated = b.bindDeltaNet(m, n, i), false
	} else {
		l.O = b.matrix(layer(n.O, i), hid, qDim)
	}
	switch {
	case l.Linear != nil:
	case l.Shared:
		l.KVLayer = sharedSource(m, i)
		l.Q = b.matrix(layer(n.Q, i), qRows, hid)
	case n.QKV != "" && b.src.Has(layer(n.QKV, i)):
		b.split(layer(n.QKV, i), hid, []int{qRows, kvDim, kvDim}, &l.Q, &l.K, &l.V)
	default:
		l.Q, l.K = b.matrix(layer(n.Q, i), qRows, hid), b.matrix(layer(n.K, i), kvDim, hid)
		if !l.KEqV {
			l.V = b.matrix(layer(n.V, i), kvDim, hid)
		}
	}
	if cfg.LayerSparse(i) {
		l.MoE = b.moe(m, n, i)
		if bl.MoEBeside {
			l.PostFFNNorm1 = b.norm(layer(n.PostFFNNorm1, i), hid)
			l.PreFFNNorm2 = b.norm(layer(n.PreFFNNorm2, i), hid)
			l.PostFFNNorm2 = b.norm(layer(n.PostFFNNorm2, i), hid)
		}
	}
	switch {
	case cfg.LayerSparse(i) && !bl.MoEBeside:
		l.FFN = 0
	case n.GateUp != "":
		b.split(layer(n.GateUp, i), hid, []int{l.FFN, l.FFN}, &l.Gate, &l.Up)
		l.Down = b.matrix(layer(n.Down, i), hid, l.FFN)
	default:
		l.Gate, l.Up = b.matrix(layer(n.Gate, i), l.FFN, hid), b.matrix(layer(n.Up, i), l.FFN, hid)
		l.Down = b.matrix(layer(n.Down, i), hid, l.FFN)
	}
	if (bl.QKVBias || cfg.AttentionBias) && !l.Shared && l.Linear == nil {
		l.QBias = b.vector(layer(n.QBias, i), qRows)
		l.KBias = b.vector(layer(n.KBias, i), kvDim)
		l.VBias = b.vector(layer(n.VBias, i), kvDim)
	}
	if bl.Sinks && l.Linear == nil {
		l.Sinks = b.vector(layer(n.Sinks, i), cfg.Heads)
	}
	if bl.OBias && l.Linear == nil {
		l.OBias = b.vector(layer(n.OBias, i), hid)
	}
	if bl.QKNorm && l.Linear == nil {
		l.QNorm = b.norm(layer(n.QNorm, i), hd)
		if !l.Shared {
			l.KNorm = b.norm(layer(n.KNorm, i), hd)
		}
	}
	if bl.VNorm && !l.Shared && l.Linear == nil {
		l.VNorm = ones(hd)
	}
	if bl.PostNorms {
		l.PostAttnNorm = b.norm(layer(n.PostAttnNorm, i), hid)
		l.PostFFNNorm = b.norm(layer(n.PostFFNNorm, i), hid)
	}
	if p := cfg.PerLayerInput; p > 0 {
		l.PLGate = b.matrix(layer(n.PLGate, i), p, hid)
		l.PLProj = b.matrix(layer(n.PLProj, i), hid, p)
		l.PLPostNorm = b.norm(layer(n.PLPostNorm, i), hid)
	}
	if n.LayerScalar != "" && b.src.Has(layer(n.LayerScalar, i)) {
		if v := b.vector(layer(n.LayerScalar, i), 1); v != nil && v[0] != 1 {
			l.Scalar = v[0]
		}
	}
	if cfg.LayerSliding(i) {
		l.Window, l.Local = cfg.SlidingWindow, m.ropeLocal != nil
	}
	return l
}

// sharedSource returns the cache layer a KV-shared layer i reads: that of
// the last layer of its type (sliding or full) before the shared ones.
func sharedSource(m *Model, i int) int {
	cfg := m.Config
	for j := cfg.Layers - cfg.KVSharedLayers - 1; j >= 0; j-- {
		if cfg.LayerSliding(j) == cfg.LayerSliding(i) {
			return j
		}
	}
	return -1
}

// ones returns n ones: the weight of a norm that has none.
func ones(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = 1
	}
	return v
}
