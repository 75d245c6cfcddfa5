package model

import (
	"fmt"
	"strings"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// Encoder holds what a bidirectional encoder (config.Model.Encoder: BERT,
// NomicBERT, XLM-RoBERTa) adds to the shared model: embeddings of
// positions and of the token type, normalised with a LayerNorm (a
// cross-encoder's classification head is Model.Head). Its layers normalise
// after attention and after the MLP (EncoderLayer), and it has no output
// layer: it gives hidden states (State.Hidden), not logits.
type Encoder struct {
	Pos        *kernels.Matrix // [positions, hidden], nil with RoPE
	Type       []float32       // the token-type embedding of type 0, nil without
	Norm, Bias []float32       // the LayerNorm of the embeddings
}

// EncoderLayer is the part of an encoder layer the decoder layer lacks:
// the LayerNorms (with biases) after attention and after the MLP, and the
// MLP's biases (nil without).
type EncoderLayer struct {
	AttnNorm, AttnNormBias []float32
	OutNorm, OutNormBias   []float32
	UpBias, DownBias       []float32
}

// Bidirectional reports whether the model is an encoder: attention sees
// the whole input, and there are no logits.
func (m *Model) Bidirectional() bool { return m.Enc != nil || m.Blocks.NonCausal }

// encoderPrefixes are the prefixes under which a checkpoint of a task
// model (BertForSequenceClassification, XLMRobertaForSequenceClassification)
// holds its encoder.
var encoderPrefixes = []string{"bert.", "roberta."}

// encoderNames returns n with its encoder's names under the prefix src
// uses, the head's names (Cls...) left as they are.
func encoderNames(n *Names, src Source) *Names {
	if src.Has(n.Embed) {
		return n
	}
	for _, p := range encoderPrefixes {
		if !src.Has(p + n.Embed) {
			continue
		}
		out := *n
		for _, f := range []*string{&out.Embed, &out.PosEmbed, &out.TypeEmbed, &out.EmbedNorm, &out.EmbedNormBias,
			&out.Q, &out.K, &out.V, &out.QKV, &out.O, &out.QBias, &out.KBias, &out.VBias, &out.OBias,
			&out.AttnOutNorm, &out.AttnOutNormBias, &out.Gate, &out.Up, &out.Down, &out.UpBias, &out.DownBias,
			&out.OutNorm, &out.OutNormBias} {
			if *f != "" && !strings.HasPrefix(*f, p) {
				*f = p + *f
			}
		}
		return &out
	}
	return n
}

// bindEncoder binds the embeddings, head and layers of an encoder.
func (b *binder) bindEncoder(m *Model, cfg *config.Model, n *Names) {
	hid := cfg.HiddenSize
	n = encoderNames(n, b.src)
	e := &Encoder{}
	m.Enc = e
	m.Layers = make([]Layer, cfg.Layers)
	jobs := []func(*binder){
		func(b *binder) { m.Embed = b.matrix(n.Embed, cfg.VocabSize, hid) },
		func(b *binder) { e.Norm, e.Bias = b.vector(n.EmbedNorm, hid), b.vector(n.EmbedNormBias, hid) },
	}
	if cfg.TypeVocab > 0 && b.src.Has(n.TypeEmbed) {
		jobs = append(jobs, func(b *binder) {
			if t := b.matrix(n.TypeEmbed, cfg.TypeVocab, hid); t != nil {
				e.Type = make([]float32, hid)
				t.Row(0, e.Type)
			}
		})
	}
	if m.Blocks.AbsolutePos {
		jobs = append(jobs, func(b *binder) { e.Pos = b.matrix(n.PosEmbed, cfg.ContextLength+cfg.PosOffset, hid) })
	}
	if cfg.Labels > 0 && b.src.Has(n.ClsOut) {
		jobs = append(jobs, func(b *binder) { m.Head = b.head(n, cfg) })
	}
	for i := range m.Layers {
		jobs = append(jobs, func(b *binder) { m.Layers[i] = b.encoderLayer(m, n, i) })
	}
	b.parallel(jobs, len(jobs))
}

// encoderLayer binds layer i of an encoder: q, k and v (or the fused
// qkv), the output projection, the MLP (gated when it has a gate), their
// biases where the file has them, and the two LayerNorms.
func (b *binder) encoderLayer(m *Model, n *Names, i int) Layer {
	cfg := m.Config
	hid, hd, ff := cfg.HiddenSize, cfg.HeadDim, cfg.FFNSize
	qd := cfg.Heads * hd
	l := Layer{HeadDim: hd, KVHeads: cfg.Heads, FFN: ff, KVLayer: m.kvLayer[i]}
	if n.QKV != "" && b.src.Has(layer(n.QKV, i)) {
		b.split(layer(n.QKV, i), hid, []int{qd, qd, qd}, &l.Q, &l.K, &l.V)
	} else {
		l.Q, l.K, l.V = b.matrix(layer(n.Q, i), qd, hid), b.matrix(layer(n.K, i), qd, hid), b.matrix(layer(n.V, i), qd, hid)
	}
	if b.src.Has(layer(n.QBias, i)) {
		l.QBias, l.KBias, l.VBias = b.vector(layer(n.QBias, i), qd), b.vector(layer(n.KBias, i), qd), b.vector(layer(n.VBias, i), qd)
	}
	l.O, l.OBias = b.matrix(layer(n.O, i), hid, qd), b.optional(layer(n.OBias, i), hid)
	if n.Gate != "" {
		l.Gate = b.matrix(layer(n.Gate, i), ff, hid)
	}
	l.Up, l.Down = b.matrix(layer(n.Up, i), ff, hid), b.matrix(layer(n.Down, i), hid, ff)
	l.Enc = &EncoderLayer{
		AttnNorm: b.vector(layer(n.AttnOutNorm, i), hid), AttnNormBias: b.vector(layer(n.AttnOutNormBias, i), hid),
		OutNorm: b.vector(layer(n.OutNorm, i), hid), OutNormBias: b.vector(layer(n.OutNormBias, i), hid),
		UpBias: b.optional(layer(n.UpBias, i), ff), DownBias: b.optional(layer(n.DownBias, i), hid),
	}
	return l
}

// optional binds a vector the file may leave out: nil when absent.
func (b *binder) optional(name string, size int) []float32 {
	if name == "" || !b.src.Has(name) {
		return nil
	}
	return b.vector(name, size)
}

// embedEncoder adds row i's token-type and then position embeddings to
// its token embedding x, in the order of llama.cpp and transformers, and
// normalises it.
func (s *State) embedEncoder(x []float32, pos int) {
	e, c := s.m.Enc, s.m.Config
	if e.Type != nil {
		kernels.Add(x, e.Type)
	}
	if e.Pos != nil {
		p := s.xn[:len(x)] // scratch: the embeddings are made before any layer
		e.Pos.Row(pos+c.PosOffset, p)
		kernels.Add(x, p)
	}
	s.m.layerNorm(x, e.Norm, e.Bias)
}

// layerNorm normalises x in place with weight and bias: for a GGUF file
// where kernels.GGMLOrder holds,
// as llama.cpp computes it (kernels.LayerNormGGML), whose keys and values
// an F16 cache then rounds as llama.cpp's flash attention rounds them;
// in float64 (kernels.LayerNorm) otherwise.
func (m *Model) layerNorm(x, weight, bias []float32) {
	if m.Config.Source == config.SourceGGUF && kernels.GGMLOrder() {
		kernels.LayerNormGGML(x, x, weight, bias, m.Config.RMSNormEps)
		return
	}
	kernels.LayerNorm(x, x, weight, bias, m.Config.RMSNormEps)
}

// seqEnds sets s.ends[i] to the last position of row i's sequence in the
// batch, the last key a bidirectional row attends to. check has made sure
// that each sequence's rows are together and in order.
func (s *State) seqEnds(b *Batch) {
	n := len(b.Tokens)
	for i := n - 1; i >= 0; i-- {
		if i == n-1 || b.Cache[i+1] != b.Cache[i] {
			s.ends[i] = b.Pos[i]
		} else {
			s.ends[i] = s.ends[i+1]
		}
	}
}

// checkWhole reports a batch an encoder cannot compute: every sequence
// must come whole, its positions from 0 in order, in one pass.
func checkWhole(b *Batch) error {
	for i, p := range b.Pos {
		start := i == 0 || b.Cache[i] != b.Cache[i-1]
		if start && p != 0 || !start && p != b.Pos[i-1]+1 {
			return fmt.Errorf("%w: row %d at position %d: an encoder takes each input whole, from position 0, in one pass", ErrBatch, i, p)
		}
	}
	return nil
}

// encoderAct finishes one row of an encoder's MLP: the up projection's
// bias, then gelu(up) in gate for an ungated MLP (BERT), or the model's
// gated activation act(gate)·up (NomicBERT's SwiGLU). The GELU of a
// Hugging Face checkpoint is transformers' (erf); that of a GGUF file is
// llama.cpp's (tanh, through a table of halves), whose scores a
// cross-encoder's head magnifies past what agreement with llama.cpp allows.
func (s *State) encoderAct(l *Layer, gate, up []float32) {
	if l.Gate == nil {
		if l.Enc.UpBias != nil {
			kernels.Add(gate, l.Enc.UpBias)
		}
		if s.m.Config.Source == config.SourceGGUF {
			kernels.GELUHalf(gate) // GGUF files run as llama.cpp runs them
		} else {
			kernels.GELU(gate)
		}
		return
	}
	if l.Enc.UpBias != nil {
		kernels.Add(up, l.Enc.UpBias)
	}
	s.m.act(gate, up)
}

// Project applies the model's projections after pooling (Model.Dense) to
// a pooled embedding v, returning the result (v itself without them).
func (m *Model) Project(v []float32) []float32 {
	for _, d := range m.Dense {
		v = matVec(d, v, nil)
	}
	return v
}
