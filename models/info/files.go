package info

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/models/internal/folder"
)

// Bounds of the listing of a model folder.
const (
	maxFiles = 10000
	maxDepth = 4
)

// listFiles lists the files of a model folder with their sizes, following
// symbolic links (a hub snapshot is made of them) and skipping hidden
// entries. Folders deeper than maxDepth are not entered.
func listFiles(dir string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		hidden := strings.HasPrefix(d.Name(), ".")
		if d.IsDir() {
			if hidden || strings.Count(rel, string(filepath.Separator)) >= maxDepth-1 {
				return filepath.SkipDir
			}
			return nil
		}
		st, err := os.Stat(p)
		if hidden || err != nil || !st.Mode().IsRegular() {
			return nil // a broken link, a socket...
		}
		if len(files) == maxFiles {
			return fmt.Errorf("%w: %s holds more than %d files", ErrNotModel, dir, maxFiles)
		}
		files = append(files, File{Name: filepath.ToSlash(rel), Size: st.Size()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return files, nil
}

// folderGGUF returns the GGUF model of a folder without config.json: its only
// .gguf file, or the first part of its only split set (vision projectors,
// mmproj*.gguf, aside).
func folderGGUF(dir string) (string, error) {
	all := folder.WithSuffix(dir, ".gguf")
	var models []string
	for _, p := range all {
		base := filepath.Base(p)
		if strings.HasPrefix(strings.ToLower(base), "mmproj") {
			continue // a vision projector, not a language model
		}
		if m := shardName.FindStringSubmatch(base); m == nil || m[2] == "00001" {
			models = append(models, p)
		}
	}
	switch len(models) {
	case 0:
		return "", fmt.Errorf("%w: %s holds neither config.json nor a .gguf file", ErrNotModel, dir)
	case 1:
		return models[0], nil
	}
	names := make([]string, len(models))
	for i, p := range models {
		names[i] = filepath.Base(p)
	}
	return "", fmt.Errorf("%w: %s holds several GGUF models (%s): name the file", ErrNotModel, dir, strings.Join(names, ", "))
}
