package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime/model"
)

// trainedCase is one conversation of testdata/trained/cases.json.
type trainedCase = fixture.TrainedCase

// trainedSource is one form of a trained model: its Hugging Face directory
// or a GGUF conversion.
type trainedSource struct {
	tag, path string
	// sameAs maps a case this form answers otherwise, by design, to the
	// case whose expected answer it gives instead.
	sameAs map[string]string
}

// gemma3GGUFSameAs: a gemma3 GGUF file carries no per-layer attention
// pattern; readers assume Gemma 3's one global layer in six, which makes
// all four layers of the fixture local, and llama.cpp then answers the
// Paris weather question with the Tokyo call (testdata/trained/README.md).
// mlx must do the same, since real Gemma 3 files rely on that pattern.
var gemma3GGUFSameAs = map[string]string{"tool-weather-paris": "tool-weather-tokyo"}

// trainedQuants are the GGUF conversions every family has;
// models/fixture/trained-gguf.sh writes them.
var trainedQuants = []string{"F16", "Q8_0", "Q4_K_M"}

// TestTrainedAnswers checks that every tiny trained model of the shared
// test data answers every case of trained/cases.json exactly: in pipe mode
// (mlx run --temperature 0, the message on standard input) and through
// /v1/chat/completions (streamed and not, with reasoning_content and
// tool_calls), from its Hugging Face directory and from each GGUF
// conversion in MLX_TRAINED_GGUF. A family the runtime does not register
// yet is skipped; a missing conversion fails under MLX_REQUIRE_TESTDATA=1.
func TestTrainedAnswers(t *testing.T) {
	dir, cases := fixture.TrainedCases(t)
	ggufDir := trainedGGUFDir(t)
	for _, family := range fixture.TrainedFamilies(t, dir) {
		t.Run(family, func(t *testing.T) {
			ggufs := trainedGGUFs(t, ggufDir, family)
			hf := filepath.Join(dir, family)
			srv, err := startLiveModel(t, hf, trainedOptions())
			if unregistered(err) {
				t.Skipf("the runtime does not run %s yet: %v", family, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Run("hf", func(t *testing.T) { checkTrained(t, srv, hf, cases) })
			for _, src := range ggufs {
				t.Run(src.tag, func(t *testing.T) {
					srv, err := startLiveModel(t, src.path, trainedOptions())
					if err != nil {
						t.Fatal(err)
					}
					checkTrained(t, srv, src.path, trainedExpect(t, cases, src.sameAs))
				})
			}
		})
	}
}

// unregistered reports whether a load failed because no family of the
// runtime serves the model's architecture.
func unregistered(err error) bool {
	return (errors.Is(err, model.ErrUnsupported) || errors.Is(err, config.ErrUnsupported)) &&
		strings.Contains(err.Error(), "architecture")
}

// trainedGGUFDir returns MLX_TRAINED_GGUF, or "" when it is not set and
// the shared test data is not required.
func trainedGGUFDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MLX_TRAINED_GGUF")
	required := os.Getenv("MLX_REQUIRE_TESTDATA") == "1"
	switch {
	case dir == "" && required:
		t.Fatal("MLX_TRAINED_GGUF is not set: make the GGUF conversions with models/fixture/trained-gguf.sh and set it to their directory")
	case dir == "":
		t.Log("MLX_TRAINED_GGUF is not set: checking the Hugging Face directories only (models/fixture/trained-gguf.sh makes the GGUF files)")
	default:
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			t.Fatalf("MLX_TRAINED_GGUF=%s is not a directory: make it with models/fixture/trained-gguf.sh", dir)
		}
	}
	return dir
}

// trainedGGUFs lists a family's GGUF conversions in dir. A missing file
// fails the test under MLX_REQUIRE_TESTDATA=1 and is skipped otherwise.
func trainedGGUFs(t *testing.T, dir, family string) []trainedSource {
	t.Helper()
	if dir == "" {
		return nil
	}
	quants := trainedQuants
	if strings.HasPrefix(family, "gpt-oss") {
		quants = append(quants[:len(quants):len(quants)], "MXFP4_MOE")
	}
	var sameAs map[string]string
	if family == "gemma3" {
		sameAs = gemma3GGUFSameAs
	}
	var out []trainedSource
	for _, q := range quants {
		path := filepath.Join(dir, strings.ReplaceAll(family, ".", "_")+"-"+q+".gguf")
		if _, err := os.Stat(path); err != nil {
			if os.Getenv("MLX_REQUIRE_TESTDATA") == "1" {
				t.Fatalf("%s is missing: make the conversions with models/fixture/trained-gguf.sh", path)
			}
			t.Logf("%s is missing; not checked", path)
			continue
		}
		out = append(out, trainedSource{tag: q, path: path, sameAs: sameAs})
	}
	return out
}
