package safetensors

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// File names looked for in a model directory.
const (
	SingleFile = "model.safetensors"
	IndexFile  = "model.safetensors.index.json"
)

// maxIndexSize bounds the size of an index file.
const maxIndexSize = MaxHeaderSize

// Model is the weights of a model directory: one file or several shards.
// Its Metadata merges the __metadata__ of all its files.
type Model struct {
	table
	Dir   string
	files []*File
}

// OpenDir opens the weights of a model directory: the shards listed by
// model.safetensors.index.json when it exists, else model.safetensors.
func OpenDir(dir string) (*Model, error) {
	index := filepath.Join(dir, IndexFile)
	if _, err := os.Stat(index); err == nil {
		return OpenIndex(index)
	}
	single := filepath.Join(dir, SingleFile)
	if _, err := os.Stat(single); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("safetensors: %s: %w (neither %s nor %s)", dir, ErrNotFound, IndexFile, SingleFile)
		}
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	f, err := Open(single)
	if err != nil {
		return nil, err
	}
	return &Model{table: f.table, Dir: dir, files: []*File{f}}, nil
}

// OpenIndex opens the shards listed by an index file (the JSON written by
// save_pretrained, with a "weight_map" from tensor name to shard file). Every
// shard must be a plain file name in the index's directory, must exist, and
// must hold the tensors the index gives it.
func OpenIndex(indexPath string) (*Model, error) {
	weights, err := readIndex(indexPath)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %s: %w", indexPath, err)
	}
	dir := filepath.Dir(indexPath)
	m := &Model{Dir: dir, table: table{byName: map[string]*Tensor{}, meta: map[string]string{}}}
	shards := map[string]*File{}
	for _, name := range slices.Sorted(maps.Keys(weights)) {
		shard := weights[name]
		f := shards[shard]
		if f == nil {
			if f, err = openShard(indexPath, shard); err != nil {
				m.Close()
				return nil, err
			}
			shards[shard] = f
			m.files = append(m.files, f)
			for k, v := range f.meta {
				if _, ok := m.meta[k]; !ok {
					m.meta[k] = v
				}
			}
		}
		t, ok := f.Tensor(name)
		if !ok {
			m.Close()
			return nil, fmt.Errorf("safetensors: %s: %w: index puts tensor %.80q in %.255s, which does not hold it", indexPath, ErrFormat, name, shard)
		}
		m.byName[name] = t
		m.names = append(m.names, name)
	}
	return m, nil
}

// openShard opens one shard named by an index.
func openShard(indexPath, shard string) (*File, error) {
	path := filepath.Join(filepath.Dir(indexPath), shard)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("safetensors: %s: %w: shard %.255s is missing", indexPath, ErrFormat, shard)
	}
	return Open(path)
}

// readIndex reads and checks an index's weight map.
func readIndex(path string) (map[string]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxIndexSize {
		return nil, fmt.Errorf("%w: index is %d bytes, over the limit of %d", ErrFormat, st.Size(), maxIndexSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var idx struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("%w: index JSON: %v", ErrFormat, err)
	}
	if len(idx.WeightMap) == 0 {
		return nil, fmt.Errorf("%w: index has no weight_map entries", ErrFormat)
	}
	for name, shard := range idx.WeightMap {
		if !plainFileName(shard) {
			return nil, fmt.Errorf("%w: tensor %.80q: shard %.80q is not a plain file name in the index's directory", ErrFormat, name, shard)
		}
	}
	return idx.WeightMap, nil
}

// plainFileName reports whether s names a file directly inside a directory:
// no separators, no "." or "..", no volume name.
func plainFileName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\:`+"\x00") && filepath.IsLocal(s)
}

// Files returns the paths of the files the model's tensors come from.
func (m *Model) Files() []string {
	paths := make([]string, len(m.files))
	for i, f := range m.files {
		paths[i] = f.Path
	}
	return paths
}

// Close releases every file of the model. It is safe to call more than once.
func (m *Model) Close() error {
	var errs []error
	for _, f := range m.files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}
