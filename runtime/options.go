package runtime

import (
	"fmt"
	"time"

	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// Defaults of Options.
const (
	DefaultContext  = 4096
	DefaultBatch    = 512
	DefaultParallel = 1
	DefaultQueue    = 64
)

// BlockSize is the number of positions of one KV cache block: the unit in
// which sequences take cache memory and in which the prefix cache shares
// it (a partial block is copied). Attention over a prompt chunk costs a
// call per head dimension and block, so blocks are large.
const BlockSize = 128

// Options configure Load. The zero value is usable.
type Options struct {
	// Threads is the number of compute workers; 0 means one per physical core.
	Threads int
	// Ctx is the context length in tokens; 0 means the model's, at most
	// DefaultContext. It may not exceed the model's.
	Ctx int
	// KVType is the KV cache element type (F16 by default).
	KVType kvcache.Type
	// Batch is the token budget of one forward pass: the next token of
	// every running sequence plus a chunk of one prompt being computed; 0
	// means DefaultBatch. It is raised to Parallel+1 when below.
	Batch int
	// Parallel is how many sequences run at once; 0 means
	// DefaultParallel.
	Parallel int
	// KVMem is the memory of the KV cache in bytes, which all sequences
	// share in blocks of BlockSize positions; 0 means enough for Parallel
	// sequences of Ctx positions.
	KVMem int64
	// Queue is how many requests may wait beyond the Parallel running
	// ones; 0 means DefaultQueue. QueueTimeout is how long a request waits
	// for room in a full queue before failing with ErrBusy; 0 fails it at
	// once.
	Queue        int
	QueueTimeout time.Duration
	// Tokenizer replaces the tokenizer that Load reads from the model.
	Tokenizer *tokenizer.Tokenizer
	// Spec configures speculative decoding (a draft model, prompt lookup).
	Spec SpecOptions
	// Pooling replaces the model's pooling of embeddings (config.PoolMean,
	// PoolCLS, PoolLast or PoolNone); "" keeps the model's.
	Pooling string
	// Device is where the forward pass computes: DeviceAuto, DeviceCPU
	// (also "") or DeviceVulkan.
	Device string
}

// MaxParallel bounds Options.Parallel: every running sequence takes a
// row of logits (a vocabulary of floats) in the forward state.
const MaxParallel = 1024

// minOut is the fewest logit rows a forward pass can return (scoring runs
// in chunks of it); a step returns one per running sequence.
const minOut = 16

func (o Options) withDefaults(modelCtx, cores int) Options {
	if o.Threads <= 0 {
		o.Threads = cores
	}
	if o.Ctx <= 0 {
		o.Ctx = min(modelCtx, DefaultContext)
	}
	if o.Parallel <= 0 {
		o.Parallel = DefaultParallel
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	o.Batch = max(o.Batch, o.Parallel+1)
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	return o
}

// check refuses options the engine cannot take.
func (o Options) check(modelCtx int) error {
	switch {
	case o.Ctx > modelCtx:
		return fmt.Errorf("%w: context of %d tokens exceeds the model's %d", ErrOptions, o.Ctx, modelCtx)
	case o.Parallel > MaxParallel:
		return fmt.Errorf("%w: %d parallel sequences (at most %d)", ErrOptions, o.Parallel, MaxParallel)
	case o.Pooling != "" && !poolings[o.Pooling]:
		return fmt.Errorf("%w: pooling %q (want mean, cls, last, none or rank)", ErrOptions, o.Pooling)
	}
	return nil
}

// kvBlocks returns how many cache blocks of blockBytes the options give,
// with stateBytes of the budget kept for the recurrent states of the
// parallel sequences.
func (o Options) kvBlocks(blockBytes, stateBytes int64) (int, error) {
	perSeq := int64((o.Ctx + BlockSize - 1) / BlockSize)
	if o.KVMem <= 0 {
		return int(min(perSeq*int64(o.Parallel), kvcache.MaxBytes/blockBytes)), nil
	}
	n := (o.KVMem - stateBytes) / blockBytes
	if n < 1 {
		return 0, fmt.Errorf("%w: a KV cache of %d bytes holds no block of %d positions (%d bytes) beside %d bytes of recurrent state",
			ErrOptions, o.KVMem, BlockSize, blockBytes, stateBytes)
	}
	return int(min(n, kvcache.MaxBytes/blockBytes)), nil
}
