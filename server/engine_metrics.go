package server

import (
	"sync"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/metrics"
)

// engineMetrics exports the load of the loaded models' engines (models
// that implement StatsReporter), read at each scrape.
type engineMetrics struct {
	running     *metrics.Gauge   // model
	waiting     *metrics.Gauge   // model
	blocks      *metrics.Gauge   // model
	used        *metrics.Gauge   // model
	cached      *metrics.Gauge   // model
	cachedToks  *metrics.Counter // model
	preemptions *metrics.Counter // model

	mu   sync.Mutex
	last map[string]runtime.Stats // at the previous scrape, by model
}

func newEngineMetrics(r *metrics.Registry) *engineMetrics {
	return &engineMetrics{
		running:     r.NewGauge("mlx_engine_sequences_running", "Sequences an engine runs in its batch.", "model"),
		waiting:     r.NewGauge("mlx_engine_requests_waiting", "Requests waiting in an engine's queue.", "model"),
		blocks:      r.NewGauge("mlx_kv_cache_blocks", "Blocks of an engine's KV cache.", "model"),
		used:        r.NewGauge("mlx_kv_cache_blocks_used", "KV cache blocks held by running sequences.", "model"),
		cached:      r.NewGauge("mlx_kv_cache_blocks_cached", "KV cache blocks kept, unreferenced, for the prefixes they hold.", "model"),
		cachedToks:  r.NewCounter("mlx_prompt_cached_tokens_total", "Prompt tokens found in the prefix cache instead of computed.", "model"),
		preemptions: r.NewCounter("mlx_engine_preemptions_total", "Sequences sent back to the queue to free KV cache blocks.", "model"),
		last:        map[string]runtime.Stats{},
	}
}

// update records the stats of the loaded engines; those unloaded since the
// last scrape read zero.
func (m *engineMetrics) update(engines map[string]StatsReporter) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id := range m.last {
		if _, ok := engines[id]; !ok {
			m.set(id, runtime.Stats{}, runtime.Stats{})
			delete(m.last, id)
		}
	}
	for id, e := range engines {
		st := e.Stats()
		m.set(id, m.last[id], st)
		m.last[id] = st
	}
}

// set writes the gauges of st and adds to the counters what grew since prev.
func (m *engineMetrics) set(id string, prev, st runtime.Stats) {
	m.running.Set(float64(st.Running), id)
	m.waiting.Set(float64(st.Waiting), id)
	m.blocks.Set(float64(st.KVBlocks), id)
	m.used.Set(float64(st.KVBlocksUsed), id)
	m.cached.Set(float64(st.KVBlocksCached), id)
	m.cachedToks.Add(float64(max(st.CachedTokens-prev.CachedTokens, 0)), id)
	m.preemptions.Add(float64(max(st.Preemptions-prev.Preemptions, 0)), id)
}

// reporters returns the loaded models that report engine stats, by id.
func (m *manager) reporters() map[string]StatsReporter {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]StatsReporter{}
	for id, e := range m.entries {
		if r, ok := e.model.(StatsReporter); ok {
			out[id] = r
		}
	}
	return out
}

// collectEngines brings the engine metrics up to date.
func (s *Server) collectEngines() { s.obs.engines.update(s.models.reporters()) }
