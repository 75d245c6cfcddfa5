package runtime

import "sync/atomic"

// Stats is a snapshot of an engine's load.
type Stats struct {
	Running int // sequences running
	Waiting int // requests queued, not yet running
	// KVBlocks is the number of blocks of BlockSize positions of the KV
	// cache; KVBlocksUsed of them are held by running sequences,
	// KVBlocksCached kept, unreferenced, for the prefixes they hold.
	KVBlocks, KVBlocksUsed, KVBlocksCached int
	// PromptTokens counts the prompt tokens of the sequences started so
	// far, CachedTokens those of them found in the prefix cache.
	PromptTokens, CachedTokens int64
	// Preemptions counts the sequences taken back to the queue to free
	// cache blocks.
	Preemptions int64
}

// statCounters are the numbers behind Stats, written by the scheduler.
type statCounters struct {
	running, used, cached, total atomic.Int64
	prompt, cachedTokens         atomic.Int64
	preemptions                  atomic.Int64
}

// publishStats records the scheduler's state for Stats.
func (e *Engine) publishStats() {
	e.stats.running.Store(int64(len(e.running)))
	e.stats.used.Store(int64(e.kv.Used()))
	e.stats.cached.Store(int64(e.kv.Cached()))
}

// Stats returns the engine's current load.
func (e *Engine) Stats() Stats {
	s := &e.stats
	running := int(s.running.Load())
	return Stats{Running: running, Waiting: max(0, len(e.admission)-running),
		KVBlocks: int(s.total.Load()), KVBlocksUsed: int(s.used.Load()), KVBlocksCached: int(s.cached.Load()),
		PromptTokens: s.prompt.Load(), CachedTokens: s.cachedTokens.Load(), Preemptions: s.preemptions.Load()}
}
