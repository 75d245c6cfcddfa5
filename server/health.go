package server

import (
	"bytes"
	"net/http"
	"os"

	"github.com/mlxrun/mlx/server/metrics"
	"github.com/mlxrun/mlx/server/upstream"
)

// health is the body of GET /health.
type health struct {
	Status  string `json:"status"` // "ok" or "loading"
	Loaded  int    `json:"models_loaded"`
	Loading int    `json:"models_loading"`
	PID     int    `json:"pid"` // of the server process, so that mlx stop signals the right one
	// Upstreams are the upstream servers and what their last model
	// listing found.
	Upstreams []upstream.Health `json:"upstreams,omitempty"`
}

// handleHealth answers 200 when the models named at start are loaded,
// 503 while they load.
func (s *Server) handleHealth(c *call) {
	h := health{Status: "ok", Loaded: s.models.loaded(), Loading: s.models.loading(), PID: os.Getpid()}
	for _, up := range s.opt.Upstreams {
		h.Upstreams = append(h.Upstreams, up.Health())
	}
	status := http.StatusOK
	if s.starting.Load() > 0 {
		h.Status, status = "loading", http.StatusServiceUnavailable
	}
	writeJSON(c.rc, status, h)
}

// handleMetrics writes the Prometheus exposition.
func (s *Server) handleMetrics(c *call) {
	s.collectStores()
	s.collectEngines()
	var b bytes.Buffer
	_ = s.obs.reg.Write(&b) // a bytes.Buffer does not fail
	c.rc.SetContentType(metrics.ContentType)
	c.rc.SetBody(b.Bytes())
}
