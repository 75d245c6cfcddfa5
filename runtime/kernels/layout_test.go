package kernels

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryAssemblyFileHasItsGoFile keeps the layout that doc.go describes:
// OP_ARCH.s is declared in OP_ARCH.go, and doc.go's table names it.
func TestEveryAssemblyFileHasItsGoFile(t *testing.T) {
	files, err := filepath.Glob("*.s")
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly files (%v)", err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range files {
		if _, err := os.Stat(strings.TrimSuffix(s, ".s") + ".go"); err != nil {
			t.Errorf("%s has no %s.go beside it", s, strings.TrimSuffix(s, ".s"))
		}
		if !strings.Contains(string(doc), s) {
			t.Errorf("doc.go's table does not name %s", s)
		}
	}
}
