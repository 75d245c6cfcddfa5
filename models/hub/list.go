package hub

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Model is one model of the cache: a snapshot, or one GGUF file (all its
// parts) of a snapshot.
type Model struct {
	Name     string    `json:"name"` // a reference that finds it again
	Repo     string    `json:"repo"`
	Revision string    `json:"revision"` // a ref pointing to the commit, or the commit
	Commit   string    `json:"commit"`
	Format   string    `json:"format"`       // FormatGGUF, FormatSafetensors, FormatMLX or "other"
	Quant    string    `json:"quantization"` // "Q4_K_M", "4bit", "BF16", ...; may be ""
	Size     int64     `json:"size"`         // bytes of its files
	Modified time.Time `json:"modified"`     // newest file
	Path     string    `json:"path"`         // what Resolve would return
}

// List returns the models of every repo in the cache, sorted by name. A
// missing cache is empty.
func (c Cache) List() ([]Model, error) {
	entries, err := os.ReadDir(c.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Model
	for _, e := range entries {
		if name, ok := strings.CutPrefix(e.Name(), "models--"); ok && e.IsDir() {
			out = append(out, c.repoModels(strings.ReplaceAll(name, "--", "/"))...)
		}
	}
	slices.SortFunc(out, func(a, b Model) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// repoModels lists the snapshots of one repo.
func (c Cache) repoModels(repo string) []Model {
	refs := c.refsByCommit(repo)
	snaps, _ := os.ReadDir(filepath.Join(c.RepoDir(repo), "snapshots"))
	var out []Model
	for _, s := range snaps {
		if !s.IsDir() {
			continue
		}
		commit := s.Name()
		rev := commit
		if names := refs[commit]; slices.Contains(names, "main") {
			rev = "main"
		} else if len(names) > 0 {
			rev = names[0]
		}
		base := Model{Repo: repo, Revision: rev, Commit: commit}
		out = append(out, snapshotModels(base, c.SnapshotDir(repo, commit))...)
	}
	return out
}

// snapshotModels describes the GGUF files, then the safetensors model, of a
// snapshot; a snapshot with neither is one "other" model.
func snapshotModels(base Model, dir string) []Model {
	suffix := ""
	if base.Revision != "main" {
		suffix = "@" + base.Revision
	}
	files := snapshotFiles(dir)
	groups := ggufGroups(files)
	var out []Model
	for _, g := range groups {
		m := base
		m.Name, m.Format, m.Quant = base.Repo+":"+g.Quant+suffix, FormatGGUF, g.Quant
		if g.Quant == "" || slices.ContainsFunc(groups, func(o ggufGroup) bool { return o.Stem != g.Stem && o.Quant == g.Quant }) {
			m.Name = base.Repo + "/" + g.Files[0] + suffix
		}
		m.Path = filepath.Join(dir, filepath.FromSlash(g.Files[0]))
		m.Size, m.Modified = filesSize(dir, g.Files)
		out = append(out, m)
	}
	rest := slices.DeleteFunc(slices.Clone(files), isGGUF)
	if len(rest) == 0 && len(out) > 0 {
		return out
	}
	m := base
	m.Name, m.Path, m.Format = base.Repo+suffix, dir, "other"
	if _, ok := safetensorsSelection(rest); ok {
		m.Format, m.Quant = weightsFormat(dir, rest)
	}
	m.Size, m.Modified = filesSize(dir, rest)
	return append(out, m)
}

// filesSize sums the sizes of snapshot files and finds the newest.
func filesSize(dir string, files []string) (int64, time.Time) {
	var size int64
	var newest time.Time
	for _, f := range files {
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err == nil {
			size += st.Size()
			if st.ModTime().After(newest) {
				newest = st.ModTime()
			}
		}
	}
	return size, newest
}

// refsByCommit maps each commit to the refs that point to it.
func (c Cache) refsByCommit(repo string) map[string][]string {
	root := filepath.Join(c.RepoDir(repo), "refs")
	out := map[string][]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		rev := filepath.ToSlash(rel)
		if commit, err := c.ReadRef(repo, rev); err == nil {
			out[commit] = append(out[commit], rev)
		}
		return nil
	})
	return out
}
