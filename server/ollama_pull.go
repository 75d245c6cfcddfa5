package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/ollama"
)

// ErrPullRefused is the error of a pull on a server that pulls nothing.
var ErrPullRefused = errors.New("this server pulls no models")

// Puller is implemented by loaders that download models into the cache
// (mlx serve --allow-pull). Pull reports each file's progress; it returns
// an error wrapping ErrPullRefused when pulls are off, and one wrapping
// runtime.ErrModelNotFound for a name it cannot pull.
type Puller interface {
	Pull(ctx context.Context, name string, progress func(PullProgress)) error
}

// PullProgress is the state of one file of a pull.
type PullProgress struct {
	File             string
	Total, Completed int64 // bytes; Total -1 when unknown
}

// handleOllamaPull serves POST /api/pull: the status lines of the
// download, streamed unless stream is false, ending with "success".
func (s *Server) handleOllamaPull(c *call) {
	var req ollama.PullRequest
	name, err := ollama.DecodeNamed(c.rc.PostBody(), &req)
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	p, ok := s.loader.(Puller)
	if !ok {
		writeOllamaError(c.rc, pullError(name, ErrPullRefused))
		return
	}
	pull := func(ctx context.Context, send func(any) error) error {
		if err := send(&ollama.ProgressResponse{Status: "pulling manifest"}); err != nil {
			return err
		}
		var sendErr error
		err := p.Pull(ctx, name, func(pp PullProgress) {
			if sendErr == nil {
				sendErr = send(&ollama.ProgressResponse{Status: "pulling " + pp.File, Digest: pp.File,
					Total: max(pp.Total, 0), Completed: pp.Completed})
			}
		})
		if err = errors.Join(sendErr, err); err != nil {
			return pullError(name, err)
		}
		return send(&ollama.ProgressResponse{Status: "success"})
	}
	if req.Stream == nil || *req.Stream {
		streamNDJSON(s, c, func() {}, pull)
		return
	}
	var last any
	respondWhole(s, c, func() {}, func(ctx context.Context) error {
		return pull(ctx, func(v any) error { last = v; return nil })
	}, func() any { return last }, writeOllamaError)
}

// pullError gives a refused pull a 403 that says how to allow it, and a
// model the hub does not have a 404 that says why.
func pullError(name string, err error) error {
	switch {
	case errors.Is(err, ErrPullRefused):
		return &ollamaStatus{status: http.StatusForbidden, msg: err.Error()}
	case errors.Is(err, runtime.ErrModelNotFound):
		return &ollamaStatus{status: http.StatusNotFound, msg: "pull " + name + ": " + err.Error()}
	}
	return err
}
