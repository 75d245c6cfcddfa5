// Package catalog decides which models a server may load when a request
// names one, and gives each model one identity whatever its spelling.
//
// By default a name may refer to the models given at start, the models of
// the Hugging Face cache (by repo id, repo:QUANT, repo/file.gguf, alias or
// the id the listing shows) and the model files under a models folder.
// Options widen that to any local path or to pulling from the hub. An
// unknown name is ErrNotFound, decided from the local disk alone, with a
// message that says nothing of the file system.
package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mlxrun/mlx/models/hub"
)

// ErrNotFound reports a name that refers to no model this catalog serves.
var ErrNotFound = errors.New("model not found")

// maxName bounds a model name.
const maxName = 1024

// refresh is how long a listing of the disk is reused.
const refresh = 2 * time.Second

// Options say which models may be named.
type Options struct {
	// Cache is the hub cache (an empty Dir: none).
	Cache hub.Cache
	// Named are the models given at start: local paths, or hub references
	// that may be pulled.
	Named []string
	// ModelsDir is a folder whose .gguf files and model folders may be
	// named by their path inside it, without the .gguf extension.
	ModelsDir string
	// AllowPaths lets a name be any local model file or folder.
	AllowPaths bool
	// AllowPull lets a name be a hub reference that is not in the cache;
	// it is pulled when loaded.
	AllowPull bool
}

// Model is a model a name resolved to.
type Model struct {
	ID     string    // its identity: the id listings show
	Path   string    // the file or folder to load; "" when Pull is set
	Pull   string    // a hub reference to pull before loading
	Format string    // "gguf", "safetensors", "mlx"; may be ""
	Quant  string    // quantization, when known
	Size   int64     // bytes on disk
	Mod    time.Time // newest file
}

// Catalog resolves model names. It is safe for concurrent use.
type Catalog struct {
	opt Options

	mu       sync.Mutex
	idx      *index
	built    time.Time
	now      func() time.Time
	remember map[string]string // path of a pulled model → the id it was pulled as
}

// New returns a Catalog with opt.
func New(opt Options) *Catalog {
	if opt.ModelsDir != "" {
		if abs, err := filepath.Abs(opt.ModelsDir); err == nil {
			opt.ModelsDir = abs
		}
	}
	return &Catalog{opt: opt, now: time.Now, remember: map[string]string{}}
}

// Resolve returns the model name refers to. It reads only the local disk
// (never the network) and opens no file; an unknown name is ErrNotFound.
func (c *Catalog) Resolve(name string) (Model, error) {
	notFound := fmt.Errorf("%w: no model named %q here (GET /v1/models lists them)", ErrNotFound, clip(name))
	name = strings.TrimSpace(name)
	if name == "" || len(name) > maxName || strings.ContainsRune(name, 0) {
		return Model{}, notFound
	}
	idx := c.index()
	if m, ok := idx.byID[name]; ok {
		if !loadable(*m) {
			return Model{}, notFound
		}
		return *m, nil
	}
	for _, resolve := range []func(*index, string) (Model, bool){c.resolvePath, c.resolveRef} {
		if m, ok := resolve(idx, name); ok && loadable(m) {
			return m, nil
		}
	}
	return Model{}, notFound
}

// loadable reports whether the loader may open a model's files now: a
// regular file, or a model folder of regular files (a file swapped for a
// FIFO since the listing is refused), or a model still to pull.
func loadable(m Model) bool {
	if m.Path == "" {
		return m.Pull != ""
	}
	st, err := os.Stat(m.Path)
	if err != nil {
		return false
	}
	return st.Mode().IsRegular() || (st.IsDir() && plainDir(m.Path))
}

// Remember records that the model id, once pulled, is at path, so that it
// keeps its id when found in the cache.
func (c *Catalog) Remember(id, path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.remember[realPath(path)] = id
	c.idx = nil
}

// Listed is an id of the listing and the model it names.
type Listed struct {
	ID    string
	Model Model
}

// List returns the models that may be named without pulling, each under
// its id, then the aliases that resolve to one of them.
func (c *Catalog) List() []Listed {
	idx := c.index()
	out := make([]Listed, 0, len(idx.order))
	for _, id := range idx.order {
		if m := idx.byID[id]; m.Path != "" {
			out = append(out, Listed{ID: id, Model: *m})
		}
	}
	for _, a := range hub.Aliases() {
		if _, taken := idx.byID[a.Name]; taken {
			continue
		}
		if m, ok := c.resolveRef(idx, a.Name); ok && m.Path != "" {
			out = append(out, Listed{ID: a.Name, Model: m})
		}
	}
	return out
}

// index returns the listing of the disk, rebuilt when it is older than
// refresh.
func (c *Catalog) index() *index {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idx == nil || c.now().Sub(c.built) > refresh {
		c.idx = build(c.opt, c.remember)
		c.built = c.now()
	}
	return c.idx
}

// clip shortens a name for an error message.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
