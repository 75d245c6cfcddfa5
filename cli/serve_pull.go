package cli

import (
	"context"
	"fmt"

	"github.com/mlxrun/mlx/models/hub"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server"
)

// Pull implements server.Puller: it downloads the model name refers to
// into the cache, as a request naming it would with --allow-pull, and
// reports each file's progress. A model already in the cache is done.
func (l *serveLoader) Pull(ctx context.Context, name string, progress func(server.PullProgress)) error {
	if !l.allowPull {
		return fmt.Errorf("%w: start mlx serve with --allow-pull to let requests pull models", server.ErrPullRefused)
	}
	m, err := l.catalog.Resolve(name)
	if err != nil {
		return fmt.Errorf("%w: %w", runtime.ErrModelNotFound, err)
	}
	if m.Path != "" {
		return nil
	}
	path, err := l.pull(ctx, m.Pull, func(p hub.Progress) {
		progress(server.PullProgress{File: p.File, Total: p.Total, Completed: p.Done})
	})
	if err != nil {
		return err
	}
	l.catalog.Remember(m.ID, path)
	return nil
}
