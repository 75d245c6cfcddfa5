package runtime

import (
	"time"

	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// Defaults of Options.
const (
	DefaultContext      = 4096
	DefaultBatch        = 512
	DefaultQueue        = 16
	DefaultQueueTimeout = 30 * time.Second
)

// Options configure Load. The zero value is usable.
type Options struct {
	// Threads is the number of compute workers; 0 means one per physical core.
	Threads int
	// Ctx is the context length in tokens; 0 means the model's, at most
	// DefaultContext. It may not exceed the model's.
	Ctx int
	// KVType is the KV cache element type (F16 by default).
	KVType kvcache.Type
	// Batch is the most prompt tokens computed in one forward pass; 0 means
	// DefaultBatch.
	Batch int
	// Queue is how many requests may wait for the scheduler; 0 means
	// DefaultQueue. QueueTimeout is how long a request waits for a place in
	// a full queue before failing with ErrBusy; 0 means DefaultQueueTimeout.
	Queue        int
	QueueTimeout time.Duration
	// Tokenizer replaces the tokenizer that Load reads from the model.
	Tokenizer *tokenizer.Tokenizer
}

// maxOut is the most logit rows a forward pass returns (scoring runs in
// chunks of it).
const maxOut = 16

func (o Options) withDefaults(modelCtx, cores int) Options {
	if o.Threads <= 0 {
		o.Threads = cores
	}
	if o.Ctx <= 0 {
		o.Ctx = min(modelCtx, DefaultContext)
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.QueueTimeout <= 0 {
		o.QueueTimeout = DefaultQueueTimeout
	}
	return o
}
