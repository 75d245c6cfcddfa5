package hub

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/mlxrun/mlx/models/bounded"
)

// maxIndex bounds a model.safetensors.index.json.
const maxIndex = 64 << 20

// shardName matches a shard of sharded safetensors weights.
var shardName = regexp.MustCompile(`^(.*)-(\d{5})-of-(\d{5})\.safetensors$`)

// Find returns the cached snapshot for r when it is complete: its revision
// resolves through refs/ (or is a commit) and every file the reference needs
// is there. It reads only the cache. Its errors wrap ErrNotCached.
func (c Cache) Find(r Ref) (*Snapshot, error) {
	commit, err := c.ReadRef(r.Repo, r.Rev())
	if err != nil {
		return nil, fmt.Errorf("%s: no ref %s in the cache: %w", r.Repo, r.Rev(), ErrNotCached)
	}
	dir := c.SnapshotDir(r.Repo, commit)
	files := snapshotFiles(dir)
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: snapshot %s is missing or empty: %w", r.Repo, commit, ErrNotCached)
	}
	sel, err := selectFiles(r, files)
	if err != nil {
		return nil, fmt.Errorf("%s: snapshot %s: %v: %w", r.Repo, commit, err, ErrNotCached)
	}
	if sel.Format == FormatSafetensors {
		if missing := missingWeights(dir, files); missing != "" {
			return nil, fmt.Errorf("%s: snapshot %s lacks %s: %w", r.Repo, commit, missing, ErrNotCached)
		}
	}
	return c.snapshot(r, commit, sel), nil
}

func (c Cache) snapshot(r Ref, commit string, sel selection) *Snapshot {
	dir := c.SnapshotDir(r.Repo, commit)
	s := &Snapshot{Repo: r.Repo, Revision: r.Rev(), Commit: commit, Dir: dir, Path: dir,
		Format: sel.Format, Files: sel.Files}
	if sel.Main != "" {
		s.Path = filepath.Join(dir, filepath.FromSlash(sel.Main))
	}
	return s
}

// snapshotFiles lists the repo paths of a snapshot whose content is there
// (a link to a missing blob does not count).
func snapshotFiles(dir string) []string {
	return slices.DeleteFunc(snapshotEntries(dir), func(f string) bool {
		return !fileExists(filepath.Join(dir, filepath.FromSlash(f)))
	})
}

// missingWeights names a file a safetensors snapshot needs and lacks: the
// config, a shard listed by the index, or a shard of a numbered set.
func missingWeights(dir string, files []string) string {
	if !slices.Contains(files, "config.json") {
		return "config.json"
	}
	for _, f := range files {
		m := shardName.FindStringSubmatch(f)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[3])
		for i := 1; i <= n; i++ {
			if want := fmt.Sprintf("%s-%05d-of-%s.safetensors", m[1], i, m[3]); !slices.Contains(files, want) {
				return want
			}
		}
	}
	if !slices.Contains(files, "model.safetensors.index.json") {
		return ""
	}
	shards, err := indexShards(filepath.Join(dir, "model.safetensors.index.json"))
	if err != nil {
		return "a readable model.safetensors.index.json (" + err.Error() + ")"
	}
	for _, s := range shards {
		if !slices.Contains(files, s) {
			return s
		}
	}
	return ""
}

// indexShards returns the files named by the weight_map of an index.
func indexShards(path string) ([]string, error) {
	b, err := bounded.ReadFile(path, maxIndex)
	if err != nil {
		return nil, err
	}
	var idx struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var shards []string
	for _, s := range idx.WeightMap {
		if !seen[s] {
			seen[s] = true
			shards = append(shards, s)
		}
	}
	slices.Sort(shards)
	return shards, nil
}
