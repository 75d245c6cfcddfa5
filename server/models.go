package server

import (
	"net/http"
	"time"

	"github.com/mlxrun/mlx/server/openai"
)

// created returns the "created" time of a loaded model.
func created(lm loadedModel) int64 {
	if !lm.Info.Created.IsZero() {
		return lm.Info.Created.Unix()
	}
	return lm.Loaded.Unix()
}

// handleModels lists the loaded models, then those the server would load
// on a request (GET /v1/models), each under its short id.
func (s *Server) handleModels(c *call) {
	list := openai.ModelList{Object: openai.ObjectList, Data: []openai.Model{}}
	seen := map[string]bool{}
	for _, lm := range s.models.list() {
		seen[lm.ID] = true
		list.Data = append(list.Data, openai.Model{ID: lm.ID, Object: openai.ObjectModel, Created: created(lm), OwnedBy: "mlx"})
	}
	for _, a := range s.available() {
		if !seen[a.ID] {
			seen[a.ID] = true
			list.Data = append(list.Data, openai.Model{ID: a.ID, Object: openai.ObjectModel, Created: modified(a), OwnedBy: "mlx"})
		}
	}
	writeJSON(c.rc, http.StatusOK, list)
}

// handleModel describes one model (GET /v1/models/{id}): a loaded one, or
// one the server would load, under the id that was asked for.
func (s *Server) handleModel(c *call, id string) {
	if lm, ok := s.models.lookup(id); ok {
		writeJSON(c.rc, http.StatusOK, openai.Model{ID: id, Object: openai.ObjectModel, Created: created(lm), OwnedBy: "mlx"})
		return
	}
	canonical, err := s.models.resolve(id)
	if err == nil {
		if lm, ok := s.models.lookup(canonical); ok {
			writeJSON(c.rc, http.StatusOK, openai.Model{ID: id, Object: openai.ObjectModel, Created: created(lm), OwnedBy: "mlx"})
			return
		}
		for _, a := range s.available() {
			if a.ID == id || a.ID == canonical {
				writeJSON(c.rc, http.StatusOK, openai.Model{ID: id, Object: openai.ObjectModel, Created: modified(a), OwnedBy: "mlx"})
				return
			}
		}
	}
	writeError(c.rc, openai.NotFound(id))
}

// available returns the models the loader could load, if it knows them.
func (s *Server) available() []Available {
	var out []Available
	if l, ok := s.loader.(Lister); ok {
		out = l.Available()
	}
	for _, up := range s.opt.Upstreams {
		for _, m := range up.Models() {
			out = append(out, Available{ID: up.Name() + "/" + m, Format: remoteFormat, Path: up.URL()})
		}
	}
	return out
}

// modified returns the "created" time of a model not loaded (0: unknown).
func modified(a Available) int64 {
	if a.Modified.IsZero() {
		return 0
	}
	return a.Modified.Unix()
}

// MLXModel is an entry of GET /mlx/models: a loaded model with what mlx
// knows of it, or a model of the cache that would load on first use.
type MLXModel struct {
	ID           string     `json:"id"`
	Loaded       bool       `json:"loaded"`
	Path         string     `json:"path,omitempty"`
	Format       string     `json:"format,omitempty"`
	Quantization string     `json:"quantization,omitempty"`
	Arch         string     `json:"arch,omitempty"`
	Parameters   int64      `json:"parameters,omitempty"`
	Context      int        `json:"context,omitempty"`
	Memory       int64      `json:"memory,omitempty"` // bytes in use when loaded
	Size         int64      `json:"size,omitempty"`   // bytes on disk when not loaded
	LoadSeconds  float64    `json:"load_seconds,omitempty"`
	Requests     int        `json:"requests"` // being served now
	Pinned       bool       `json:"pinned,omitempty"`
	LastUsed     *time.Time `json:"last_used,omitempty"`
	ExpiresAt    *time.Time `json:"expires_at,omitempty"`
}

// MLXModelList is the body of GET /mlx/models.
type MLXModelList struct {
	Object string     `json:"object"`
	Data   []MLXModel `json:"data"`
}

// handleMLXModels lists loaded models in detail, then the loadable ones.
func (s *Server) handleMLXModels(c *call) {
	out := MLXModelList{Object: openai.ObjectList, Data: []MLXModel{}}
	seen := map[string]bool{}
	for _, lm := range s.models.list() {
		m := MLXModel{ID: lm.ID, Loaded: true, Path: lm.Info.Path, Format: lm.Info.Format, Quantization: lm.Info.Quantization,
			Arch: lm.Info.Arch, Parameters: lm.Info.Parameters, Context: lm.Info.Context, Memory: lm.Info.Memory,
			LoadSeconds: lm.Info.LoadTime.Seconds(), Requests: lm.Refs, Pinned: lm.Pinned}
		last := lm.LastUsed
		m.LastUsed = &last
		if !lm.Expires.IsZero() {
			exp := lm.Expires
			m.ExpiresAt = &exp
		}
		out.Data = append(out.Data, m)
		seen[lm.ID], seen[lm.Info.Path] = true, true
	}
	for _, a := range s.available() {
		if seen[a.ID] || (a.Path != "" && seen[a.Path]) {
			continue
		}
		out.Data = append(out.Data, MLXModel{ID: a.ID, Path: a.Path, Format: a.Format, Quantization: a.Quantization, Size: a.Size})
	}
	writeJSON(c.rc, http.StatusOK, out)
}
