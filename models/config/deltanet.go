package config

import (
	"fmt"
	"slices"
)

// DeltaNet is the shape of the Gated DeltaNet linear-attention layers of a
// hybrid model (Qwen3.5, Qwen3-Next): KeyHeads heads of KeyDim for queries
// and keys, ValueHeads heads of ValueDim for values, and a causal
// depthwise convolution of ConvKernel taps over the three projections.
// Every Interval-th layer is full attention, the others are linear.
type DeltaNet struct {
	KeyHeads, KeyDim     int
	ValueHeads, ValueDim int
	ConvKernel           int
	Interval             int
}

// ConvDim returns the channels of the convolution: queries, keys, values.
func (d *DeltaNet) ConvDim() int { return 2*d.KeyHeads*d.KeyDim + d.ValueHeads*d.ValueDim }

// StateElems returns the floats of one layer's per-sequence state: the
// last ConvKernel-1 inputs of the convolution and a KeyDim × ValueDim
// matrix per value head.
func (d *DeltaNet) StateElems() int {
	return (d.ConvKernel-1)*d.ConvDim() + d.ValueHeads*d.KeyDim*d.ValueDim
}

// LayerLinear reports whether layer i is a Gated DeltaNet layer.
func (m *Model) LayerLinear(i int) bool {
	return m.DeltaNet != nil && (i+1)%m.DeltaNet.Interval != 0
}

// Bounds of the linear-attention shape.
const (
	maxConvKernel = 64
	// maxStateElems bounds the recurrent state of one sequence over all layers.
	maxStateElems = 1 << 30
)

// hfDeltaNet reads the linear-attention keys of a family that has them
// (fam.DeltaNet holds its defaults); errors are left in r.
func hfDeltaNet(r *reader, fam *Family, m *Model) {
	def := fam.DeltaNet
	if def == nil {
		return
	}
	d := &DeltaNet{
		KeyHeads: r.int("linear_num_key_heads", def.KeyHeads), KeyDim: r.int("linear_key_head_dim", def.KeyDim),
		ValueHeads: r.int("linear_num_value_heads", def.ValueHeads), ValueDim: r.int("linear_value_head_dim", def.ValueDim),
		ConvKernel: r.int("linear_conv_kernel_dim", def.ConvKernel),
		Interval:   r.int("full_attention_interval", def.Interval),
	}
	var types []string
	if r.decode("layer_types", &types, "a list of strings") {
		d.Interval = intervalOf(r, types, m.Layers)
	}
	m.DeltaNet = d
}

// intervalOf turns a layer_types list ("linear_attention"/"full_attention")
// into the period of its full-attention layers.
func intervalOf(r *reader, types []string, layers int) int {
	if len(types) != layers {
		r.fail("layer_types", "has %d entries for %d layers", len(types), layers)
		return 0
	}
	p := slices.Index(types, "full_attention") + 1
	if p == 0 {
		p = layers + 1 // no full-attention layer
	}
	for i, t := range types {
		full := (i+1)%p == 0
		if (t == "full_attention") != full || (t != "full_attention" && t != "linear_attention") {
			r.setErr(fmt.Errorf("%w: layer_types: layer %d is %.80q, which does not follow a regular linear/full pattern",
				ErrUnsupported, i, t))
			return 0
		}
	}
	return p
}

// validate checks the linear-attention shape; nil means none.
func (d *DeltaNet) validate(layers int) error {
	if d == nil {
		return nil
	}
	ints := []struct {
		name  string
		v, hi int
	}{
		{"linear key heads", d.KeyHeads, maxHeads},
		{"linear key head dimension", d.KeyDim, maxRopeDim},
		{"linear value heads", d.ValueHeads, maxHeads},
		{"linear value head dimension", d.ValueDim, maxRopeDim},
		{"linear convolution kernel", d.ConvKernel, maxConvKernel},
		{"full attention interval", d.Interval, layers + 1},
	}
	for _, c := range ints {
		if c.v < 1 || c.v > c.hi {
			return fmt.Errorf("%w: %s %d out of range [1, %d]", ErrInvalid, c.name, c.v, c.hi)
		}
	}
	if d.ValueHeads%d.KeyHeads != 0 {
		return fmt.Errorf("%w: %d linear value heads are not a multiple of %d key heads", ErrInvalid, d.ValueHeads, d.KeyHeads)
	}
	if n := int64(layers) * int64(d.StateElems()); n > maxStateElems {
		return fmt.Errorf("%w: %d recurrent state values per sequence exceed %d", ErrInvalid, n, maxStateElems)
	}
	return nil
}

// ggufDeltaNet reads the linear-attention keys of a hybrid family's GGUF
// file, named as llama.cpp's converter writes them (ssm.*: the key head
// size is state_size, the key heads group_count, the value heads
// time_step_rank, all value dimensions inner_size), and leaves out the
// MTP layers; errors are left in g.
func ggufDeltaNet(g *ggufReader, fam *Family, m *Model) {
	if fam.DeltaNet == nil {
		return
	}
	d := &DeltaNet{
		ConvKernel: g.uint("ssm.conv_kernel", 0, true),
		KeyDim:     g.uint("ssm.state_size", 0, true),
		KeyHeads:   g.uint("ssm.group_count", 0, true),
		ValueHeads: g.uint("ssm.time_step_rank", 0, true),
		Interval:   g.uint("full_attention_interval", fam.DeltaNet.Interval, false),
	}
	// Files converted with the multi-token-prediction layers count them
	// in block_count; they follow the model's layers and are not run.
	if n := g.uint("nextn_predict_layers", 0, false); n > 0 && n < m.Layers {
		m.Layers -= n
	}
	inner := g.uint("ssm.inner_size", 0, true)
	if d.ValueHeads > 0 {
		d.ValueDim = inner / d.ValueHeads
		if inner%d.ValueHeads != 0 {
			g.fail(g.arch+".ssm.inner_size", "%d is not a multiple of %d value heads", inner, d.ValueHeads)
		}
	}
	key := g.arch + ".attention.recurrent_layers"
	if v, ok := g.f.Lookup(key); ok && g.err == nil {
		list, _ := v.Any().([]any)
		if len(list) < m.Layers {
			g.fail(key, "want %d booleans, got %d values", m.Layers, len(list))
		}
		for i := 0; i < m.Layers && i < len(list) && g.err == nil; i++ {
			if rec, ok := list[i].(bool); !ok || rec != (d.Interval > 0 && (i+1)%d.Interval != 0) {
				g.err = fmt.Errorf("%w: %s: layer %d does not follow a full-attention layer every %d", ErrUnsupported, key, i, d.Interval)
			}
		}
	}
	m.DeltaNet = d
}
