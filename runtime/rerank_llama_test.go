package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/fixture/variant"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

var update = flag.Bool("update", false, "rewrite testdata/rerank-llama-server.json from a live llama-server (LLAMA_BIN_DIR)")

// rerankGolden holds llama-server's /v1/rerank scores of rerankQuery and
// rerankDocs on the fixture rerankers, by head.
const rerankGolden = "testdata/rerank-llama-server.json"

// rerankFiles are the fixture rerankers compared with llama-server, by
// name: their head, whether their weights are F32, and the largest
// difference of a score allowed. Every file must agree within 1e-4: with
// F16 weights only because the products round their activations to halves
// as llama.cpp's do (kernels.Matrix.HalfActs).
var rerankFiles = map[string]struct {
	head int
	f32  bool
	tol  float64
}{"F32 tokens": {variant.HeadTokens, true, 1e-4}, "F32 scaled": {variant.HeadScaled, true, 1e-4},
	"F16 tokens": {variant.HeadTokens, false, 1e-4}, "F16 scaled": {variant.HeadScaled, false, 1e-4}}

// TestRerankMatchesLlamaServer compares Rerank with llama-server's
// /v1/rerank on the same Qwen3 reranker GGUF files: every score within
// 1e-4 (see rerankFiles). The scores of llama-server are stored in testdata; when
// LLAMA_BIN_DIR names a llama.cpp build with llama-server, it also runs
// there (and -update rewrites the stored scores from it).
func TestRerankMatchesLlamaServer(t *testing.T) {
	var golden struct {
		Query     string               `json:"query"`
		Documents []string             `json:"documents"`
		Scores    map[string][]float64 `json:"scores"`
	}
	data, err := os.ReadFile(rerankGolden)
	if err == nil {
		err = json.Unmarshal(data, &golden)
	}
	if err != nil && !*update {
		t.Fatal(err)
	}
	server := ""
	if dir := os.Getenv("LLAMA_BIN_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "llama-server")); err == nil {
			server = filepath.Join(dir, "llama-server")
		} else {
			t.Logf("no llama-server in LLAMA_BIN_DIR: comparing with the stored scores only")
		}
	}
	if *update && server == "" {
		t.Fatal("-update needs LLAMA_BIN_DIR, a llama.cpp build with llama-server")
	}
	live := map[string][]float64{}
	for _, name := range slices.Sorted(maps.Keys(rerankFiles)) {
		file := rerankFiles[name]
		path := variant.Qwen3Reranker(t, file.head, file.f32)
		got := rerankScores(t, path)
		want := map[string][]float64{"stored": golden.Scores[name]}
		if server != "" {
			live[name] = llamaServerRerank(t, server, path)
			want["llama-server"] = live[name]
		}
		if *update {
			delete(want, "stored")
		}
		for source, scores := range want {
			if len(scores) != len(got) {
				t.Fatalf("%s, %s: %d scores for %d documents", name, source, len(scores), len(got))
			}
			worst := 0.0
			for i := range got {
				d := math.Abs(float64(got[i]) - scores[i])
				if d > file.tol {
					t.Errorf("%s, document %d: score %.6f, %s %.6f", name, i, got[i], source, scores[i])
				}
				worst = max(worst, d)
			}
			t.Logf("%s: scores %v, largest difference with %s %.2g", name, got, source, worst)
		}
	}
	if *update {
		golden.Query, golden.Documents, golden.Scores = rerankQuery, rerankDocs, live
		out, err := json.MarshalIndent(golden, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(rerankGolden, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if golden.Query != rerankQuery || len(golden.Documents) != len(rerankDocs) {
		t.Errorf("%s was made for other documents: run with -update", rerankGolden)
	}
}

// llamaServerRerank starts llama-server on model with reranking and the
// flags of extra (which win over the defaults), and returns its scores of
// rerankDocs against rerankQuery, by document.
func llamaServerRerank(t *testing.T, bin, model string, extra ...string) []float64 {
	t.Helper()
	base := startLlamaServer(t, bin, model, append([]string{"--rerank", "-c", "1024", "-b", "1024", "-ub", "1024"}, extra...)...)
	body, _ := json.Marshal(map[string]any{"query": rerankQuery, "documents": rerankDocs, "top_n": len(rerankDocs)})
	res, err := http.Post(base+"/v1/rerank", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Results []struct {
			Index int     `json:"index"`
			Score float64 `json:"relevance_score"`
		} `json:"results"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("llama-server /v1/rerank: status %d, %v", res.StatusCode, err)
	}
	scores := make([]float64, len(rerankDocs))
	for _, r := range out.Results {
		if r.Index < 0 || r.Index >= len(scores) {
			t.Fatalf("llama-server gave index %d", r.Index)
		}
		scores[r.Index] = r.Score
	}
	return scores
}

// TestCrossEncoderRerankMatchesLlamaServer compares Rerank with
// llama-server's /v1/rerank on the cross-encoder of the encoder fixtures
// (MLX_ENCODER_FIXTURES, models/fixture/encoders.sh), whose file names cls
// pooling: it must rerank all the same, on the pair framed as llama-server
// frames it ([CLS] query [SEP] [SEP] document [SEP] for its flags). It
// runs when LLAMA_BIN_DIR names a build with llama-server, in two setups:
//
//   - float32 attention on both sides (an f32 cache; llama-server without
//     flash attention): the scores agree within 1e-4;
//   - the defaults (an f16 cache; flash attention) with the documents in
//     one batch, as Rerank runs them. ggml's flash attention keeps its sums
//     in halves for a batch of fewer than 64 rows and in float32 from 64
//     on, so llama-server's own scores move by up to 7e-3 between one slot
//     (each document alone) and four (all in one batch); mlx follows the
//     batch, within 5e-4 on logits of up to 7.5.
func TestCrossEncoderRerankMatchesLlamaServer(t *testing.T) {
	server := filepath.Join(os.Getenv("LLAMA_BIN_DIR"), "llama-server")
	if _, err := os.Stat(server); os.Getenv("LLAMA_BIN_DIR") == "" || err != nil {
		t.Skip("LLAMA_BIN_DIR (a llama.cpp build with llama-server) is not set")
	}
	path := filepath.Join(encoderDir(t), "xlm-roberta-reranker.gguf")
	for _, tt := range []struct {
		name  string
		kv    kvcache.Type
		flags []string
		tol   float64
	}{
		{"float32 attention", kvcache.F32, []string{"-fa", "off"}, 1e-4},
		{"defaults in one batch", kvcache.F16, []string{"-np", "4"}, 5e-4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Load(context.Background(), path, Options{Threads: 1, Ctx: 256, KVType: tt.kv})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if !e.Reranks() {
				t.Fatal("a model with a classification head does not rerank")
			}
			inputs := make([][]int32, len(rerankDocs))
			for i, d := range rerankDocs {
				inputs[i] = e.RerankPrompt(rerankQuery, d)
			}
			got, err := e.Rerank(context.Background(), inputs)
			if err != nil {
				t.Fatal(err)
			}
			want := llamaServerRerank(t, server, path, tt.flags...)
			worst := 0.0
			for i := range got {
				d := math.Abs(float64(got[i]) - want[i])
				if d > tt.tol {
					t.Errorf("document %d: score %.7f, llama-server %.7f", i, got[i], want[i])
				}
				worst = max(worst, d)
			}
			t.Logf("scores %v, llama-server %v: largest difference %.2g", got, want, worst)
		})
	}
}

// startLlamaServer starts llama-server (bin) on model with args on a free
// port, waits until it is healthy and returns its base URL; the server is
// stopped when the test ends.
func startLlamaServer(t *testing.T, bin, model string, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var logs bytes.Buffer
	args = append([]string{"-m", model, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "-np", "1", "-t", "2", "--no-webui"}, args...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(base + "/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("llama-server did not start:\n%s", logs.String())
		}
	}
}
