package hubtest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LoadDir publishes every repo found under root as root/<org>/<name>/...:
// all files below a repo folder (following links, skipping names that start
// with '.') make up its main branch.
func (s *Server) LoadDir(root string) error {
	orgs, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("hubtest: %w", err)
	}
	for _, org := range orgs {
		if strings.HasPrefix(org.Name(), ".") {
			continue
		}
		names, err := os.ReadDir(filepath.Join(root, org.Name()))
		if err != nil {
			continue // a file, not an org folder
		}
		for _, name := range names {
			dir := filepath.Join(root, org.Name(), name.Name())
			if st, err := os.Stat(dir); err != nil || !st.IsDir() || strings.HasPrefix(name.Name(), ".") {
				continue
			}
			blobs, err := loadRepo(dir)
			if err != nil {
				return err
			}
			s.publish(org.Name()+"/"+name.Name(), blobs)
		}
	}
	return nil
}

// loadRepo hashes the files of one repo folder.
func loadRepo(dir string) (map[string]*blob, error) {
	blobs := map[string]*blob{}
	err := walk(dir, "", 0, func(rel, file string) error {
		b, err := fileBlob(rel, file)
		if err == nil {
			blobs[rel] = b
		}
		return err
	})
	return blobs, err
}

// maxDepth bounds the folders walk goes down, against link loops.
const maxDepth = 16

// walk calls fn for each regular file below dir, following links to files
// and folders.
func walk(dir, prefix string, depth int, fn func(rel, file string) error) error {
	if depth > maxDepth {
		return fmt.Errorf("hubtest: %s: more than %d folders deep", dir, maxDepth)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("hubtest: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		full := filepath.Join(dir, e.Name())
		st, err := os.Stat(full)
		if err != nil {
			return fmt.Errorf("hubtest: %w", err)
		}
		rel := prefix + e.Name()
		switch {
		case st.IsDir():
			err = walk(full, rel+"/", depth+1, fn)
		case st.Mode().Type()&fs.ModeType == 0:
			err = fn(rel, full)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
