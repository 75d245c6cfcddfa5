// Package model is the transformer shared by the decoder-only architecture
// families the runtime runs: weights bound by name from a GGUF file or a
// Hugging Face directory, and a forward pass over a batch of token rows,
// each with its position and its sequence's KV cache, composed of shared
// blocks (attention, MLP, norms, RoPE) whose options each layer sets.
//
// A family registers itself (Register) from the init function of its
// package under runtime/arch: how its config files read, its tensor names,
// and which blocks and options its layers use. The registry is the one list
// of supported architectures.
package model

import (
	"errors"
	"fmt"
	"sync"

	"github.com/mlxrun/mlx/models/config"
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
	// Face checkpoints and most GGUF files do.
	RopeNeox RopeStyle = iota
	// RopeInterleaved rotates dimension 2i with 2i+1, the layout llama.cpp's
	// converter gives Llama GGUF files by permuting the Q and K rows.
	RopeInterleaved
)

// Family is one architecture family.
type Family struct {
	// Config says how the family's config files read, one entry per
	// transformers config class; every entry has the same Arch, the name
	// the family is registered under.
	Config []config.Family
	// GGUF and HF are the tensor names in GGUF files and in Hugging Face
	// checkpoints.
	GGUF, HF *Names
	// GGUFRope is the layout of the rotary dimensions in its GGUF files.
	GGUFRope RopeStyle
	// GGUFTiledHeads: in its GGUF files the value heads of the linear
	// layers are in tiled order (value head h reads key head h mod the
	// key heads), as llama.cpp's converter reorders them; Hugging Face
	// checkpoints group them (consecutive value heads share a key head).
	GGUFTiledHeads bool
	// Blocks returns the blocks and options of the model cfg describes,
	// or an error wrapping ErrUnsupported for a setting it does not
	// implement.
	Blocks func(cfg *config.Model) (Blocks, error)
}

// Name returns the architecture name the family is registered under.
func (f *Family) Name() string { return f.Config[0].Arch }

var (
	familyMu sync.RWMutex
	families = map[string]*Family{}
)

// Register makes a family available to Build and its config classes to
// the config package. It panics on a duplicate or incomplete registration,
// which is a programming error.
func Register(f Family) {
	familyMu.Lock()
	defer familyMu.Unlock()
	ok := len(f.Config) > 0 && f.GGUF != nil && f.HF != nil && f.Blocks != nil
	for _, c := range f.Config {
		ok = ok && c.Arch == f.Config[0].Arch
	}
	if !ok || families[f.Name()] != nil {
		panic(fmt.Sprintf("model: bad or duplicate registration of family %v", f.Config))
	}
	for _, c := range f.Config {
		config.Register(c)
	}
	families[f.Name()] = &f
}

// Lookup returns the registered family of that name.
func Lookup(name string) (*Family, error) {
	familyMu.RLock()
	defer familyMu.RUnlock()
	if f, ok := families[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("%w: architecture %q (supported: %v)", ErrUnsupported, name, config.Supported())
}
