package folder

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWithSuffix(t *testing.T) {
	for _, name := range []string{"plain", "[m]*?", `back\slash`} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			if err := os.MkdirAll(filepath.Join(dir, "sub.gguf"), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"b.gguf", "a.gguf", "c.GGUF", "d.gguf.part", ".gguf"} {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := []string{".gguf", "a.gguf", "b.gguf", "sub.gguf"}
			for i, f := range want {
				want[i] = filepath.Join(dir, f)
			}
			if got := WithSuffix(dir, ".gguf"); !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
			if got := WithSuffix(filepath.Join(dir, "missing"), ".gguf"); got != nil {
				t.Errorf("a missing folder gave %q", got)
			}
		})
	}
}
