// Package model is the transformer shared by the decoder-only architectures
// the runtime runs (Llama, Mistral, Qwen2, Qwen3, ...): weights bound by
// name from a GGUF file or a Hugging Face directory, and a forward pass over
// a batch of token rows, each with its position and its sequence's KV cache.
//
// An architecture is a small description (Arch) that registers itself from
// the init function of its package under runtime/arch: which optional
// tensors it has, which tensor names it uses, and how its GGUF files lay out
// the rotary embedding.
package model

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Errors returned (wrapped) by this package.
var (
	// ErrUnsupported reports a model this runtime cannot run: an unknown
	// architecture, a tensor type the kernels cannot compute, a setting that
	// is not implemented.
	ErrUnsupported = errors.New("unsupported model")
	// ErrWeights reports a missing tensor or a tensor of the wrong shape.
	ErrWeights = errors.New("bad model weights")
	// ErrBatch reports a forward pass asked for something its state or the
	// model cannot hold (too many rows, a token outside the vocabulary, a
	// position outside the context).
	ErrBatch = errors.New("bad batch")
)

// RopeStyle is how the rotary embedding pairs the dimensions of a head.
type RopeStyle uint8

// The rotary layouts.
const (
	// RopeNeox rotates dimension i with i+d/2 ("rotate half"), as Hugging
	// Face checkpoints and the Qwen GGUF files do.
	RopeNeox RopeStyle = iota
	// RopeInterleaved rotates dimension 2i with 2i+1, the layout llama.cpp's
	// converter gives Llama GGUF files by permuting the Q and K rows.
	RopeInterleaved
)

// Arch describes one architecture family.
type Arch struct {
	Name     string    // config.Model.Arch it serves
	QKVBias  bool      // the q, k and v projections always have biases (Qwen2)
	QKNorm   bool      // queries and keys get a per-head RMSNorm before RoPE (Qwen3)
	GGUFRope RopeStyle // layout of the rotary dimensions in its GGUF files
	GGUF     *Names    // tensor names in GGUF files
	HF       *Names    // tensor names in Hugging Face checkpoints
}

var (
	archMu sync.RWMutex
	archs  = map[string]Arch{}
)

// Register makes an architecture available to Build. It panics on a
// duplicate name or a missing name table, which are programming errors.
func Register(a Arch) {
	archMu.Lock()
	defer archMu.Unlock()
	if _, dup := archs[a.Name]; dup || a.Name == "" || a.GGUF == nil || a.HF == nil {
		panic(fmt.Sprintf("model: bad or duplicate registration of architecture %q", a.Name))
	}
	archs[a.Name] = a
}

// Lookup returns the registered architecture of that name.
func Lookup(name string) (Arch, error) {
	archMu.RLock()
	defer archMu.RUnlock()
	if a, ok := archs[name]; ok {
		return a, nil
	}
	return Arch{}, fmt.Errorf("%w: architecture %q (supported: %v)", ErrUnsupported, name, archNames())
}

func archNames() []string {
	names := make([]string, 0, len(archs))
	for n := range archs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
