package catalog

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/models/hub"
)

// maxEntries bounds the entries read from one folder of the models folder.
const maxEntries = 4096

// splitSuffix matches the part suffix of a split GGUF file.
var splitSuffix = regexp.MustCompile(`(?i)-(\d{5})-of-\d{5}$`)

// index is a listing of the models that may be named.
type index struct {
	byID   map[string]*Model
	byPath map[string]*Model // by real path (symbolic links followed)
	order  []string          // ids in the order they were added
}

// add adds m under its id unless the id is taken; it reports whether it
// did.
func (x *index) add(m Model) bool {
	if _, taken := x.byID[m.ID]; taken || m.ID == "" {
		return false
	}
	p := &m
	x.byID[m.ID] = p
	x.order = append(x.order, m.ID)
	if m.Path != "" {
		if _, ok := x.byPath[realPath(m.Path)]; !ok {
			x.byPath[realPath(m.Path)] = p
		}
	}
	return true
}

// build lists the models given at start, those of the models folder and
// those of the cache, in that order of precedence for their ids.
func build(opt Options, remember map[string]string) *index {
	x := &index{byID: map[string]*Model{}, byPath: map[string]*Model{}}
	for _, n := range opt.Named {
		addNamed(x, opt, n)
	}
	if opt.ModelsDir != "" {
		scanDir(x, opt.ModelsDir, "", 0)
	}
	if opt.Cache.Dir == "" {
		return x
	}
	cached, _ := opt.Cache.List()
	for _, m := range cached {
		if m.Format != hub.FormatGGUF && m.Format != hub.FormatSafetensors && m.Format != hub.FormatMLX {
			continue
		}
		id := m.Name
		if r, ok := remember[realPath(m.Path)]; ok {
			id = r
		}
		x.add(Model{ID: id, Path: m.Path, Format: m.Format, Quant: m.Quant, Size: m.Size, Mod: m.Modified})
	}
	return x
}

// addNamed adds a model given at start: a local file or folder under its
// base name (its path when that name is taken), a hub reference as the
// cache has it or, when missing, to be pulled.
func addNamed(x *index, opt Options, name string) {
	if st, err := os.Stat(name); err == nil {
		if !st.Mode().IsRegular() && !st.IsDir() {
			return
		}
		abs, err := filepath.Abs(name)
		if err != nil {
			return
		}
		m := Model{ID: shortName(abs), Path: abs, Format: formatOf(abs, st.IsDir()), Size: st.Size(), Mod: st.ModTime()}
		if !x.add(m) {
			m.ID = abs
			x.add(m)
		}
		return
	}
	r, err := hub.ParseRef(name)
	if err != nil {
		return
	}
	if opt.Cache.Dir != "" {
		if _, err := opt.Cache.Find(r); err == nil {
			return // listed with the cache
		}
	}
	x.add(Model{ID: refID(r), Pull: refID(r)})
}

// scanDir adds the .gguf files and model folders of dir (the models folder
// or, one level down, a folder of it); prefix is dir's path inside the
// models folder.
func scanDir(x *index, dir, prefix string, depth int) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	entries, _ := f.ReadDir(maxEntries)
	f.Close()
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		switch {
		case st.Mode().IsRegular() && isGGUF(name):
			stem := name[:len(name)-len(".gguf")]
			if m := splitSuffix.FindStringSubmatch(stem); m != nil {
				if m[1] != "00001" {
					continue
				}
				stem = stem[:len(stem)-len(m[0])]
			}
			x.add(Model{ID: prefix + stem, Path: p, Format: hub.FormatGGUF, Quant: hub.QuantOf(name), Size: st.Size(), Mod: st.ModTime()})
		case st.IsDir() && modelDir(p):
			x.add(Model{ID: prefix + name, Path: p, Format: hub.FormatSafetensors, Mod: st.ModTime()})
		case st.IsDir() && depth == 0:
			scanDir(x, p, prefix+name+"/", depth+1)
		}
	}
}

// modelDir reports whether dir is a Hugging Face model folder (it has a
// config.json) that holds only regular files and folders.
func modelDir(dir string) bool {
	if st, err := os.Stat(filepath.Join(dir, "config.json")); err != nil || !st.Mode().IsRegular() {
		return false
	}
	return plainDir(dir)
}

// plainDir reports whether dir holds only regular files and folders: a
// FIFO or device among a model's files could block or feed the loader.
func plainDir(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	entries, err := f.ReadDir(maxEntries)
	if err != nil || len(entries) == maxEntries {
		return false
	}
	for _, e := range entries {
		st, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil || !(st.Mode().IsRegular() || st.IsDir()) {
			return false
		}
	}
	return true
}

// refID is the id of a hub reference: its canonical spelling, as the
// cache listing names the model once pulled.
func refID(r hub.Ref) string {
	r.Quant = strings.ToUpper(r.Quant)
	return r.String()
}

// shortName is the id of a local model: its base name without .gguf.
func shortName(path string) string {
	base := filepath.Base(path)
	if isGGUF(base) {
		base = base[:len(base)-len(".gguf")]
	}
	return base
}

func formatOf(path string, dir bool) string {
	if !dir && isGGUF(path) {
		return hub.FormatGGUF
	}
	if dir {
		return hub.FormatSafetensors
	}
	return ""
}

func isGGUF(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".gguf") }

// realPath is path with symbolic links followed and cleaned, or only
// cleaned and made absolute when it cannot be followed.
func realPath(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
