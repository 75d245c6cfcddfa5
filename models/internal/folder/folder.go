// Package folder lists the entries of a folder by the end of their names,
// as filepath.Glob(dir + "/*" + suffix) would but without glob patterns, so
// that a folder whose path holds '[', '*', '?' or '\' works like any other.
package folder

import (
	"os"
	"path/filepath"
	"strings"
)

// WithSuffix returns the paths of the entries of dir whose names end with
// suffix (compared exactly), sorted by name. A folder that cannot be read
// has none.
func WithSuffix(dir, suffix string) []string {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil
	}
	var paths []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), suffix) {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths
}
