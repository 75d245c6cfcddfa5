package tokenizer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// llamaCppSrc returns the llama.cpp source tree whose models/ folder holds
// the ggml-vocab-*.gguf files and their vectors: MLX_LLAMACPP_SRC, else
// ~/.cache/mlx-ref/llama.cpp/src. When it is absent the test skips, or
// fails when MLX_REQUIRE_LLAMACPP=1 (CI).
func llamaCppSrc(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MLX_LLAMACPP_SRC")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".cache", "mlx-ref", "llama.cpp", "src")
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "models")); dir == "" || err != nil {
		msg := "llama.cpp source not found at " + dir + ": set MLX_LLAMACPP_SRC to a llama.cpp checkout"
		if os.Getenv("MLX_REQUIRE_LLAMACPP") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// TestLlamaCppVocabs runs every ggml-vocab-*.gguf of llama.cpp's models/
// folder that has .inp/.out vectors, loading each file as mlx loads a
// model's tokenizer.
func TestLlamaCppVocabs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(llamaCppSrc(t), "models", "ggml-vocab-*.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	var nfiles, nfilesOK, ncases, ncasesOK int
	for _, f := range files {
		if _, err := os.Stat(f + ".out"); err != nil {
			continue
		}
		nfiles++
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "ggml-vocab-"), ".gguf")
		t.Run(name, func(t *testing.T) {
			cases := readVectors(t, f)
			ncases += len(cases)
			tok, err := Load(f)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			ok := checkCases(t, tok, cases)
			ncasesOK += ok
			if ok == len(cases) {
				nfilesOK++
			}
		})
	}
	if nfiles == 0 {
		t.Fatal("no ggml-vocab-*.gguf with vectors in the llama.cpp source")
	}
	t.Logf("%d/%d files, %d/%d vectors pass", nfilesOK, nfiles, ncasesOK, ncases)
}
