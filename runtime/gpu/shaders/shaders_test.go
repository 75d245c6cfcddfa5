package shaders

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedUpToDate regenerates the SPIR-V and MSL into a temporary
// folder and checks that the committed files are the same.
func TestGeneratedUpToDate(t *testing.T) {
	for _, tool := range []string{"glslc", "spirv-cross"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("MLX_REQUIRE_VULKAN") != "" {
				t.Fatalf("MLX_REQUIRE_VULKAN is set and %s is missing", tool)
			}
			t.Skipf("%s not installed (Debian packages glslc, spirv-cross)", tool)
		}
	}
	dir := t.TempDir()
	cmd := exec.Command("sh", "generate.sh")
	cmd.Env = append(os.Environ(), "OUT="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generate.sh: %v\n%s", err, out)
	}
	made, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(made) == 0 {
		t.Fatalf("generate.sh made no files (%v)", err)
	}
	for _, f := range made {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Base(f))
		if err != nil {
			t.Errorf("%s is not committed: %v", filepath.Base(f), err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./runtime/gpu/shaders", filepath.Base(f))
		}
	}
}
