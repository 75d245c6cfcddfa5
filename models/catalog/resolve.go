package catalog

import (
	"os"
	"path/filepath"

	"github.com/mlxrun/mlx/models/hub"
)

// resolveRef resolves a hub reference or alias: the cached model it finds,
// a model given at start that is still to be pulled, or (with AllowPull)
// a model to pull.
func (c *Catalog) resolveRef(x *index, name string) (Model, bool) {
	r, err := hub.ParseRef(name)
	if err != nil {
		return Model{}, false
	}
	if c.opt.Cache.Dir != "" {
		if s, err := c.opt.Cache.Find(r); err == nil {
			if m, ok := x.byPath[realPath(s.Path)]; ok {
				return *m, true
			}
		}
	}
	id := refID(r)
	if m, ok := x.byID[id]; ok {
		return *m, true
	}
	if c.opt.AllowPull {
		return Model{ID: id, Pull: id}, true
	}
	return Model{}, false
}

// resolvePath resolves a local path: a model listed under that path
// (however it is spelled), or with AllowPaths any .gguf file or model
// folder. Only the kind of the file is looked at; nothing is opened.
func (c *Catalog) resolvePath(x *index, name string) (Model, bool) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return Model{}, false
	}
	real := realPath(abs)
	if m, ok := x.byPath[real]; ok {
		return *m, true
	}
	if !c.opt.AllowPaths {
		return Model{}, false
	}
	st, err := os.Stat(real)
	switch {
	case err != nil:
		return Model{}, false
	case st.Mode().IsRegular() && isGGUF(real):
		return Model{ID: real, Path: real, Format: hub.FormatGGUF, Size: st.Size(), Mod: st.ModTime()}, true
	case st.IsDir() && modelDir(real):
		return Model{ID: real, Path: real, Format: hub.FormatSafetensors, Mod: st.ModTime()}, true
	}
	return Model{}, false
}
