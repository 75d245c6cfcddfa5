package config

import (
	"fmt"
	"math"
)

// ggufLayerInts returns the per-layer values of an array key (llama.cpp
// writes head_count_kv as one when layers differ), nil when the key is
// absent or a single number.
func ggufLayerInts(g *ggufReader, key string) []int64 {
	v, ok := g.f.Lookup(g.arch + "." + key)
	if !ok || v.Len() == 0 {
		return nil
	}
	ints, ok := g.f.Ints(g.arch + "." + key)
	if !ok || len(ints) > maxLayers {
		g.fail(g.arch+"."+key, "want at most %d integers", maxLayers)
		return nil
	}
	return ints
}

// ggufGlobal reads the keys of files whose full-attention layers differ
// from the sliding-window ones (Gemma 4): head and rotary sizes of each
// kind, the per-layer pattern as a list of booleans, per-layer KV heads,
// KV sharing, per-layer inputs, and values taken from the keys where a
// full-attention layer has no attn_v.
func ggufGlobal(g *ggufReader, m *Model, kvHeads []int64) {
	if v, ok := g.f.Lookup(g.arch + ".attention.sliding_window_pattern"); ok && v.Len() > 0 {
		m.SlidingPattern = ggufPattern(g, v.Any(), m.Layers)
	}
	if kvHeads != nil {
		ggufKVHeads(g, m, kvHeads)
	}
	swa := g.uint("attention.key_length_swa", 0, false)
	if swa == 0 {
		return
	}
	m.GlobalHeadDim, m.HeadDim = m.HeadDim, swa
	m.GlobalRopeDim, m.RopeDim = m.RopeDim, g.uint("rope.dimension_count_swa", swa, false)
	m.KVSharedLayers = g.uint("attention.shared_kv_layers", 0, false)
	if m.PerLayerInput = g.uint("embedding_length_per_layer_input", 0, false); m.PerLayerInput > 0 {
		m.PerLayerVocab = m.VocabSize
	}
	for i := range m.Layers - m.KVSharedLayers {
		if !m.LayerSliding(i) {
			m.KEqV = g.has(fmt.Sprintf("blk.%d.attn_k.weight", i)) && !g.has(fmt.Sprintf("blk.%d.attn_v.weight", i))
			break
		}
	}
}

// ggufPattern turns a list of booleans (true: sliding window) into the
// period of the full-attention layers.
func ggufPattern(g *ggufReader, list any, layers int) int {
	items, _ := list.([]any)
	types := make([]string, len(items))
	for i, it := range items {
		sliding, ok := it.(bool)
		if !ok {
			g.fail(g.arch+".attention.sliding_window_pattern", "want a list of booleans")
			return 0
		}
		types[i] = "full_attention"
		if sliding {
			types[i] = "sliding_attention"
		}
	}
	r := &reader{f: fields{}}
	p := patternOf(r, types, layers)
	if r.err != nil && g.err == nil {
		g.err = r.err
	}
	return p
}

// ggufKVHeads sets the KV heads of the sliding-window and full-attention
// layers from per-layer values, which must follow the layer kinds.
func ggufKVHeads(g *ggufReader, m *Model, kv []int64) {
	if len(kv) != m.Layers {
		g.fail(g.arch+".attention.head_count_kv", "has %d values for %d layers", len(kv), m.Layers)
		return
	}
	m.KVHeads = 0
	for i, n := range kv {
		if n <= 0 || n > maxHeads {
			g.fail(g.arch+".attention.head_count_kv", "%d KV heads", n)
			return
		}
		dst := &m.KVHeads
		if !m.LayerSliding(i) && m.SlidingWindow > 0 {
			dst = &m.GlobalKVHeads
		}
		if *dst != 0 && *dst != int(n) {
			g.fail(g.arch+".attention.head_count_kv", "layers of one kind have %d and %d KV heads", *dst, n)
			return
		}
		*dst = int(n)
	}
	if m.KVHeads == 0 {
		m.KVHeads = m.GlobalKVHeads
	}
}

// ggufProportional turns the rope_freqs of a file with proportional RoPE
// on its full-attention layers into Model.RopeProportional: llama.cpp's
// converter writes a divisor of 1 for each rotated pair and one too large
// to turn (1e30) for the others.
func ggufProportional(m *Model, s RopeScaling) RopeScaling {
	if m.GlobalHeadDim == 0 || s.Freqs == nil {
		return s
	}
	rotated := 0
	for rotated < len(s.Freqs) && s.Freqs[rotated] == 1 {
		rotated++
	}
	for _, f := range s.Freqs[rotated:] {
		if f < 1e20 || math.IsInf(float64(f), 0) {
			return s
		}
	}
	m.GlobalRopeDim, m.RopeProportional = 2*rotated, true
	return RopeScaling{}
}

// ggufFFN reads a per-layer list of MLP sizes, as llama.cpp's converter
// writes it for Gemma 4's double-wide MLPs: the KV-shared layers' twice
// the others'.
func ggufFFN(g *ggufReader, m *Model, ffn []int64) {
	if ffn == nil {
		return
	}
	if len(ffn) != m.Layers {
		g.fail(g.arch+".feed_forward_length", "has %d values for %d layers", len(ffn), m.Layers)
		return
	}
	m.DoubleWideMLP = m.KVSharedLayers > 0 && ffn[len(ffn)-1] == 2*ffn[0]
	for i, n := range ffn {
		if int(n) != m.LayerFFN(i) {
			g.fail(g.arch+".feed_forward_length", "layer %d has %d, which is neither the MLP size %d nor twice it on a KV-shared layer", i, n, m.FFNSize)
			return
		}
	}
}
