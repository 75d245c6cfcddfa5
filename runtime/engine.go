package runtime

import (
	"context"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/chatmodel"
	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"
)

// Engine runs one model. Its methods are safe for concurrent use; the model
// itself is used only by the engine's scheduler goroutine.
type Engine struct {
	info Info
	cfg  *config.Model
	gen  config.Generation
	tok  *tokenizer.Tokenizer
	chat *chatmodel.Model
	eos  []int32
	opt  Options
	gpu  *gpu // the GPU the pool offloads to, or nil

	// Owned by the scheduler goroutine.
	model   *model.Model
	pool    *kernels.Pool
	state   *model.State
	kv      *kvcache.Pool
	batch   model.Batch
	outSeqs []*runningSeq // the sequence of each logits row of the batch
	waiting []*submission // admitted to the queue, first come first
	running []*runningSeq // by admission order
	prefill *runningSeq   // the sequence whose prompt is being computed
	order   uint64        // admissions so far

	gvocab *grammar.Vocab // the vocabulary trie of constraints, built on first use
	spec   *speculator

	admission chan struct{}    // a token per request queued or running
	queue     chan *submission // to the scheduler; never full
	mu        sync.Mutex       // orders sends on queue with Close
	closed    bool
	quit      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeFile func() error
	stats     statCounters
}

// Info describes a loaded engine.
type Info struct {
	Path        string
	Format      string // "gguf", "safetensors" or "mlx"
	Arch        string
	WeightType  string // storage of most weights: "Q8_0", "F16", "MLX4", ...
	Params      int64
	WeightBytes int64 // weights in use, mostly mapped from the file
	KVBytes     int64 // the KV cache
	StateBytes  int64 // forward-pass scratch memory
	Context     int
	KVType      kvcache.Type
	KVBlocks    int   // blocks of BlockSize positions in the KV cache
	KVPerToken  int64 // bytes of keys and values one position takes over all layers
	Threads     int
	Parallel    int // sequences run at once
	Batch       int // token budget of one forward pass
	LoadTime    time.Duration
	Device      string // "CPU", or the GPU that computes part of the forward pass
	Offload     string // what the GPU computes and what stays on the CPU; "" on the CPU
}

// Load opens the model at ref (a .gguf file or a Hugging Face model
// directory), binds its weights without copying them, loads its tokenizer,
// allocates the KV cache and starts the scheduler.
func Load(ctx context.Context, ref string, opt Options) (*Engine, error) {
	start := time.Now()
	o, err := openRef(ref)
	if err != nil {
		return nil, err
	}
	e, err := build(ctx, ref, o, opt)
	if err != nil {
		o.close()
		return nil, err
	}
	e.info.LoadTime = time.Since(start)
	go e.loop()
	return e, nil
}

func build(ctx context.Context, ref string, o *opened, opt Options) (*Engine, error) {
	cfg := o.cfg
	opt = opt.withDefaults(cfg.ContextLength, kernels.PhysicalCores())
	if err := opt.check(cfg.ContextLength); err != nil {
		return nil, err
	}
	text := loadTextSide(ref, o.src, opt.Tokenizer, o.gen)
	m, err := model.Build(cfg, o.src)
	ts := <-text // always: the caller closes the file on an error, and the tokenizer may be reading it
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if ts.err != nil {
		return nil, ts.err
	}
	tok := ts.tok
	// Parsing the metadata and building the tokenizer leave garbage behind
	// (17 MiB for a 151k-token vocabulary) in pages already resident; hand
	// them back before the KV cache and the scratch buffers are allocated,
	// so that they do not add to the peak memory. The heap is mostly
	// pointer-free weights: this collection takes a few milliseconds.
	debug.FreeOSMemory()
	slots := opt.Parallel + opt.Queue
	e := &Engine{cfg: cfg, gen: o.gen, tok: tok, chat: ts.chat, opt: opt, model: m,
		admission: make(chan struct{}, slots), queue: make(chan *submission, slots),
		quit: make(chan struct{}), done: make(chan struct{}), closeFile: o.close}
	e.eos = eosSet(cfg, o.gen)
	// Each running sequence has a recurrent state, and the prefix cache
	// keeps snapshots of them: three per parallel sequence (before a
	// prompt's last token, after it, and at the end of the answer), so
	// that a repeated prompt and a conversation's next turn find theirs.
	snapshots := 3 * opt.Parallel
	stateBytes := 4 * int64(m.StateElems()) * int64(opt.Parallel+snapshots)
	if err := opt.KVType.Fits(m.KVShapes()); err != nil {
		return nil, err
	}
	blocks, err := opt.kvBlocks(kvcache.BlockBytesShapes(opt.KVType, m.KVShapes(), BlockSize), stateBytes)
	if err != nil {
		return nil, err
	}
	arena, err := kvcache.NewArenaShapes(opt.KVType, m.KVShapes(), BlockSize, blocks)
	if err != nil {
		return nil, err
	}
	if err := arena.SetState(m.StateElems()); err != nil {
		return nil, err
	}
	e.kv = kvcache.NewPool(arena)
	if m.StateElems() > 0 {
		e.kv.SetSnapshots(snapshots)
	}
	if e.gpu, err = openDevice(opt.Device); err != nil {
		return nil, err
	}
	e.pool = kernels.NewPool(opt.Threads)
	if e.gpu != nil {
		e.pool.SetOffload(e.gpu)
	}
	rows := min(opt.Batch, opt.Ctx+opt.Parallel)
	if m.Bidirectional() {
		rows = max(rows, opt.Ctx) // an encoder computes each input whole in one pass
	}
	if e.state, err = m.NewState(e.pool, rows, min(max(minOut, opt.Parallel+1, opt.Spec.outRows(opt.Parallel)), rows), opt.Ctx); err != nil {
		e.pool.Close()
		e.gpu.close()
		return nil, err
	}
	e.info = Info{Path: ref, Format: o.format, Arch: cfg.Arch, WeightType: m.WeightType(), Params: m.Params(), WeightBytes: m.WeightBytes(),
		KVBytes: arena.Bytes() + stateBytes, StateBytes: e.state.Bytes(), Context: opt.Ctx, KVType: opt.KVType, KVBlocks: blocks,
		KVPerToken: kvcache.BlockBytesShapes(opt.KVType, m.KVShapes(), BlockSize) / BlockSize,
		Threads:    opt.Threads, Parallel: opt.Parallel, Batch: rows}
	e.info.Device, e.info.Offload = e.gpu.describe()
	e.stats.total.Store(int64(blocks))
	if e.spec, err = newSpeculator(ctx, e, o.src, opt.Spec); err != nil {
		e.pool.Close()
		e.gpu.close()
		return nil, err
	}
	return e, nil
}

// eosSet merges the end-of-sequence ids of the config and of the generation
// defaults.
func eosSet(cfg *config.Model, gen config.Generation) []int32 {
	var ids []int32
	for _, list := range [][]int{cfg.EOS, gen.EOS} {
		for _, id := range list {
			if id >= 0 && id < cfg.VocabSize {
				ids = append(ids, int32(id))
			}
		}
	}
	return ids
}

// Close stops the scheduler (requests still queued fail with ErrClosed),
// then releases the workers and the model files. It waits for the running
// step to finish.
func (e *Engine) Close() error {
	var err error
	e.closeOnce.Do(func() {
		e.mu.Lock()
		e.closed = true
		close(e.quit)
		e.mu.Unlock()
		<-e.done
		e.pool.Close()
		e.gpu.close()
		err = e.closeFile()
	})
	return err
}

// Info describes the engine: sizes, memory, load time.
func (e *Engine) Info() Info { return e.info }

// Config returns the model's description.
func (e *Engine) Config() *config.Model { return e.cfg }

// Generation returns the model's default sampling settings.
func (e *Engine) Generation() config.Generation { return e.gen }

// Tokenizer returns the model's tokenizer.
func (e *Engine) Tokenizer() *tokenizer.Tokenizer { return e.tok }

// ChatTemplate returns the source of the model's default chat template
// (Jinja), "" when the model has none.
func (e *Engine) ChatTemplate() string {
	if ts := e.chat.Templates(); ts != nil && ts.Default != nil {
		return ts.Default.Source
	}
	return ""
}

// Chat returns the model's chat side: templates, prompt tokenization and
// sampling defaults, built once at load.
func (e *Engine) Chat() *chatmodel.Model { return e.chat }

// EOS returns the ids that end a sequence.
func (e *Engine) EOS() []int32 { return e.eos }
