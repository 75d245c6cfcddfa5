package server

import (
	"sync"

	"github.com/mlxrun/mlx/server/metrics"
	"github.com/mlxrun/mlx/store"
)

// storeMetrics exports the counters of the response and conversation
// stores, read at each scrape.
type storeMetrics struct {
	entries     *metrics.Gauge   // store
	bytes       *metrics.Gauge   // store
	evictions   *metrics.Counter // store
	expirations *metrics.Counter // store

	mu   sync.Mutex
	last map[string]store.Stats // at the previous scrape
}

func newStoreMetrics(r *metrics.Registry) *storeMetrics {
	return &storeMetrics{
		entries:     r.NewGauge("mlx_store_entries", "Entries held by a store (responses, conversations).", "store"),
		bytes:       r.NewGauge("mlx_store_bytes", "Bytes held by a store, as its byte budget counts them.", "store"),
		evictions:   r.NewCounter("mlx_store_evictions_total", "Entries a store removed to stay within its bounds.", "store"),
		expirations: r.NewCounter("mlx_store_expirations_total", "Entries a store removed because their time to live ran out.", "store"),
		last:        map[string]store.Stats{},
	}
}

// update records the stats of the store called name.
func (m *storeMetrics) update(name string, st store.Stats) {
	m.mu.Lock()
	defer m.mu.Unlock()
	prev := m.last[name]
	m.last[name] = st
	m.entries.Set(float64(st.Entries), name)
	m.bytes.Set(float64(st.Bytes), name)
	m.evictions.Add(float64(st.Evictions-min(prev.Evictions, st.Evictions)), name)
	m.expirations.Add(float64(st.Expirations-min(prev.Expirations, st.Expirations)), name)
}

// collectStores brings the store metrics up to date.
func (s *Server) collectStores() {
	s.obs.stores.update("responses", s.responses.Stats())
	s.obs.stores.update("conversations", s.conversations.Stats())
}
