package server

import (
	"errors"
	"net/http"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/ollama"
)

// handleOllamaCopy serves POST /api/copy: the destination becomes another
// name of the source's model while the server runs; no file is copied.
func (s *Server) handleOllamaCopy(c *call) {
	var req ollama.CopyRequest
	if err := ollama.Unmarshal(c.rc.PostBody(), &req); err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	if req.Source == "" || req.Destination == "" {
		writeOllamaError(c.rc, &ollama.BadRequest{Msg: "source and destination are required"})
		return
	}
	if !s.models.known(req.Source) {
		writeOllamaError(c.rc, ollamaNotFound(req.Source, runtime.ErrModelNotFound))
		return
	}
	if s.models.known(req.Destination) {
		writeOllamaError(c.rc, &ollama.BadRequest{Msg: "destination " + req.Destination + " already names a model"})
		return
	}
	if err := s.models.copyModel(req.Source, req.Destination); err != nil {
		if errors.Is(err, errTooManyCopies) {
			writeOllamaError(c.rc, &ollama.BadRequest{Msg: err.Error()})
			return
		}
		writeOllamaError(c.rc, ollamaNotFound(req.Source, err))
		return
	}
	c.rc.SetStatusCode(http.StatusOK)
}

// handleOllamaDelete serves DELETE /api/delete for the names /api/copy
// made; the server deletes no model files (mlx rm does).
func (s *Server) handleOllamaDelete(c *call) {
	var req ollama.DeleteRequest
	name, err := ollama.DecodeNamed(c.rc.PostBody(), &req)
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	if s.models.deleteCopy(name) {
		c.rc.SetStatusCode(http.StatusOK)
		return
	}
	if !s.models.known(name) {
		writeOllamaError(c.rc, ollamaNotFound(name, runtime.ErrModelNotFound))
		return
	}
	writeOllamaError(c.rc, &ollamaStatus{status: http.StatusForbidden,
		msg: "mlx serve deletes no model files: remove " + name + " with mlx rm"})
}
