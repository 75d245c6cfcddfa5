package runtime

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
)

// embedTexts are the inputs compared with llama.cpp: plain, unicode, and
// long enough to span several cache blocks.
var embedTexts = []string{
	"The capital of France is Paris.",
	"naïve café – 東京 ✓ 🙂",
	strings.Repeat("A long input that fills many blocks of the cache. ", 30),
}

// TestEmbedMatchesLlamaCpp compares Embed with llama.cpp's llama-embedding
// on the same GGUF files, all inputs in one call (batched on both sides):
// cosine ≥ 0.9999 for every input, with last and mean pooling. It runs
// when LLAMA_BIN_DIR names a llama.cpp build with llama-embedding.
func TestEmbedMatchesLlamaCpp(t *testing.T) {
	dir := os.Getenv("LLAMA_BIN_DIR")
	if dir == "" {
		t.Skip("LLAMA_BIN_DIR (a llama.cpp build with llama-embedding) is not set")
	}
	bin := filepath.Join(dir, "llama-embedding")
	for _, name := range []string{"llama-tiny-F32.gguf", "qwen3-tiny-F16.gguf"} {
		path := fixture.Path(t, "gguf", name)
		e, err := Load(context.Background(), path, Options{Threads: 2, Ctx: 1024})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		inputs := make([][]int32, len(embedTexts))
		for i, text := range embedTexts {
			inputs[i] = e.Tokenizer().Encode(text, true)
		}
		for _, pooling := range []string{config.PoolLast, config.PoolMean} {
			want := llamaEmbeddings(t, bin, path, pooling)
			got, err := e.Embed(context.Background(), inputs, pooling)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != len(got) {
				t.Fatalf("%s %s: llama-embedding gave %d vectors for %d inputs", name, pooling, len(want), len(got))
			}
			worst := 1.0
			for i := range got {
				c := cosine(got[i], want[i])
				if c < 0.9999 {
					t.Errorf("%s %s: input %d has cosine %.6f with llama.cpp's vector", name, pooling, i, c)
				}
				worst = min(worst, c)
			}
			t.Logf("%s %s: lowest cosine %.7f", name, pooling, worst)
		}
	}
}

// llamaEmbeddings runs llama-embedding on embedTexts and returns its
// vectors, pooled as pooling says ("" for the model's own pooling); extra
// arguments override the defaults.
func llamaEmbeddings(t *testing.T, bin, model, pooling string, extra ...string) [][]float32 {
	t.Helper()
	const sep = "<#sep#>"
	args := []string{"-m", model, "--embd-normalize", "2", "--embd-output-format", "array",
		"--embd-separator", sep, "-p", strings.Join(embedTexts, sep), "-c", "1024", "-b", "1024", "-ub", "1024", "-t", "2"}
	if pooling != "" {
		args = append(args, "--pooling", pooling)
	}
	args = append(args, extra...)
	// llama-embedding prints its vectors through llama.cpp's asynchronous
	// logger, which now and then exits before writing them (about one run
	// in 25 here): a run that printed no vectors is tried again.
	var out bytes.Buffer
	for try := range 3 {
		if try > 0 {
			t.Logf("llama-embedding printed no vectors; running it again")
		}
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		out.Reset()
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("llama-embedding: %v\n%s", err, stderr.String())
		}
		sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "[[") && strings.HasSuffix(line, "]]") {
				return parseRows(line[2 : len(line)-2])
			}
		}
	}
	t.Fatalf("llama-embedding printed no vectors in three runs:\n%s", out.String())
	return nil
}

// cosine returns the cosine similarity of a and b.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// parseRows reads llama-embedding's array output between its outer
// brackets: rows of numbers, a value that is no number (nan, which it
// prints past the scores of rank pooling) read as NaN.
func parseRows(s string) [][]float32 {
	var out [][]float32
	for _, row := range strings.Split(s, "],[") {
		var v []float32
		for _, f := range strings.Split(row, ",") {
			x, err := strconv.ParseFloat(f, 32)
			if err != nil {
				x = math.NaN()
			}
			v = append(v, float32(x))
		}
		out = append(out, v)
	}
	return out
}
