package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mlxrun/mlx/models/catalog"
	"github.com/mlxrun/mlx/models/hub"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server"
)

// serveLoader loads the models of mlx serve: those its catalog resolves a
// request's name to, pulling from the hub the ones the catalog allows.
type serveLoader struct {
	opt       runtime.Options
	hub       *hub.Client // nil: nothing is pulled
	catalog   *catalog.Catalog
	allowPull bool         // requests may pull models not in the cache
	log       *slog.Logger // where a GPU's share of a loaded model is said; nil: nowhere
}

// newServeLoader returns a loader of the models co allows, pulling through
// hc (nil: none). The catalog reads hc's cache.
func newServeLoader(opt runtime.Options, hc *hub.Client, co catalog.Options) *serveLoader {
	if hc != nil {
		co.Cache = hc.Cache()
	}
	return &serveLoader{opt: opt, hub: hc, catalog: catalog.New(co), allowPull: co.AllowPull}
}

// Resolve implements server.Resolver with the catalog.
func (l *serveLoader) Resolve(name string) (string, error) {
	m, err := l.catalog.Resolve(name)
	if err != nil {
		return "", fmt.Errorf("%w: %w", runtime.ErrModelNotFound, err)
	}
	return m.ID, nil
}

// Load implements server.Loader: id is what Resolve returned.
func (l *serveLoader) Load(ctx context.Context, id string) (server.Model, error) {
	m, err := l.catalog.Resolve(id)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", runtime.ErrModelNotFound, err)
	}
	path := m.Path
	if path == "" {
		if path, err = l.pull(ctx, m.Pull, nil); err != nil {
			return nil, err
		}
		l.catalog.Remember(m.ID, path)
	}
	e, err := runtime.Load(ctx, path, l.opt)
	if err != nil {
		return nil, err
	}
	if info := e.Info(); info.Offload != "" && l.log != nil {
		l.log.Info("device", "model", id, "device", info.Device, "split", info.Offload)
	}
	em, err := server.NewEngineModel(e)
	if err != nil {
		e.Close()
		return nil, err
	}
	return em, nil
}

// pull downloads a hub reference and returns the path to load; progress
// (nil: none) gets the progress of each file.
func (l *serveLoader) pull(ctx context.Context, ref string, progress func(hub.Progress)) (string, error) {
	r, err := hub.ParseRef(ref)
	if err != nil {
		return "", fmt.Errorf("%w: %w", runtime.ErrModelNotFound, err)
	}
	if l.hub == nil {
		return "", fmt.Errorf("%w: %s is not in the cache and the hub is unavailable", runtime.ErrModelNotFound, ref)
	}
	hc := l.hub
	if progress != nil {
		hc = hc.WithProgress(progress)
	}
	s, err := hc.Pull(ctx, r)
	if err != nil {
		if missingModel(err) {
			return "", fmt.Errorf("%w: %w", runtime.ErrModelNotFound, hubHint(err))
		}
		return "", hubHint(err)
	}
	return s.Path, nil
}

// missingModel reports hub errors that mean "no such model" to a client.
func missingModel(err error) bool {
	for _, target := range []error{hub.ErrNotFound, hub.ErrBadRef, hub.ErrNotCached, hub.ErrNoQuant, hub.ErrAmbiguous, hub.ErrNoWeights, hub.ErrUnauthorized} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// Available implements server.Lister: the models that a request may name
// without a pull, under their ids, and the aliases of cached models.
func (l *serveLoader) Available() []server.Available {
	list := l.catalog.List()
	out := make([]server.Available, 0, len(list))
	for _, e := range list {
		m := e.Model
		out = append(out, server.Available{ID: e.ID, Format: m.Format, Quantization: m.Quant, Size: m.Size, Path: m.Path, Modified: m.Mod})
	}
	return out
}
