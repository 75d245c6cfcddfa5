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

var update = flag.Bool("update", false, "rewrite the stored llama-server rerank scores in testdata from a live llama-server (LLAMA_BIN_DIR)")

// rerankGolden holds llama-server's /v1/rerank scores of rerankQuery and
// rerankDocs on the fixture rerankers, by head.
const rerankGolden = "testdata/rerank-llama-server.json"

// rerankFlags are llama-server's flags for the Qwen3 rerankers: each
// document alone, in one pass.
var rerankFlags = []string{"--rerank", "-np", "1", "-c", "1024", "-b", "1024", "-ub", "1024"}

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
	stored, server := loadRerankScores(t, rerankGolden), llamaServerBin(t)
	live := map[string][]float64{}
	for _, name := range slices.Sorted(maps.Keys(rerankFiles)) {
		file := rerankFiles[name]
		path := variant.Qwen3Reranker(t, file.head, file.f32)
		got := rerankScores(t, path)
		if server != "" {
			live[name] = llamaServerRerank(t, server, path, rerankFlags...)
		}
		checkRerankScores(t, name, got, stored[name], live[name], file.tol)
	}
	saveRerankScores(t, rerankGolden, live)
}

// rerankRecord is the file of stored llama-server scores: the request and
// the scores of its documents, by model or setup.
type rerankRecord struct {
	Query     string               `json:"query"`
	Documents []string             `json:"documents"`
	Scores    map[string][]float64 `json:"scores"`
}

// loadRerankScores returns the scores stored at path, by name; with
// -update, none when the file is missing. Scores stored for another
// request are an error (run with -update).
func loadRerankScores(t *testing.T, path string) map[string][]float64 {
	t.Helper()
	var rec rerankRecord
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	switch {
	case *update:
		return nil
	case err != nil:
		t.Fatal(err)
	case rec.Query != rerankQuery || !slices.Equal(rec.Documents, rerankDocs):
		t.Fatalf("%s was made for another request: run with -update", path)
	}
	return rec.Scores
}

// saveRerankScores writes live, llama-server's scores by name, to path
// when the test runs with -update.
func saveRerankScores(t *testing.T, path string, live map[string][]float64) {
	t.Helper()
	if !*update {
		return
	}
	out, err := json.MarshalIndent(rerankRecord{rerankQuery, rerankDocs, live}, "", "  ")
	if err == nil {
		err = os.WriteFile(path, append(out, '\n'), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// llamaServerBin returns the llama-server of LLAMA_BIN_DIR, or "" (the
// stored scores only) when there is none; -update needs one.
func llamaServerBin(t *testing.T) string {
	t.Helper()
	bin := ""
	if dir := os.Getenv("LLAMA_BIN_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "llama-server")); err == nil {
			bin = filepath.Join(dir, "llama-server")
		} else {
			t.Logf("no llama-server in LLAMA_BIN_DIR: comparing with the stored scores only")
		}
	}
	if *update && bin == "" {
		t.Fatal("-update needs LLAMA_BIN_DIR, a llama.cpp build with llama-server")
	}
	return bin
}

// checkRerankScores compares mlx's scores with the stored ones (unless
// -update rewrites them) and with live ones (when llama-server ran): each
// within tol.
func checkRerankScores(t *testing.T, name string, got []float32, stored, live []float64, tol float64) {
	t.Helper()
	want := map[string][]float64{"llama-server": live}
	if !*update {
		want["stored"] = stored
	}
	for _, source := range slices.Sorted(maps.Keys(want)) {
		scores := want[source]
		if scores == nil && source == "llama-server" {
			continue
		}
		if len(scores) != len(got) {
			t.Fatalf("%s, %s: %d scores for %d documents", name, source, len(scores), len(got))
		}
		worst := 0.0
		for i := range got {
			d := math.Abs(float64(got[i]) - scores[i])
			if d > tol {
				t.Errorf("%s, document %d: score %.7f, %s %.7f", name, i, got[i], source, scores[i])
			}
			worst = max(worst, d)
		}
		t.Logf("%s: scores %v, largest difference with %s %.2g", name, got, source, worst)
	}
}

// llamaServerRerank starts llama-server on model with args (the flags
// beyond the model, address and threads) and returns its scores of
// rerankDocs against rerankQuery, by document.
func llamaServerRerank(t *testing.T, bin, model string, args ...string) []float64 {
	t.Helper()
	base := startLlamaServer(t, bin, model, args...)
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

// crossEncoderGolden holds llama-server's /v1/rerank scores of rerankQuery
// and rerankDocs on the cross-encoder of the encoder fixtures, by setup
// (crossEncoderSetups).
const crossEncoderGolden = "testdata/rerank-cross-encoder-llama-server.json"

// crossEncoderSetups are the setups in which the cross-encoder's scores
// must equal llama-server's within 1e-4: mlx's cache type and
// llama-server's flags.
var crossEncoderSetups = []struct {
	name  string
	kv    kvcache.Type
	flags []string
}{
	// Float32 attention on both sides: an f32 cache; llama-server without
	// flash attention, each document alone.
	{"float32 attention", kvcache.F32, []string{"--rerank", "-fa", "off", "-np", "1", "-c", "1024", "-b", "1024", "-ub", "1024"}},
	// llama-server's defaults: flash attention, which rounds the keys and
	// values to halves and sums in float32 for a batch of 64 rows and
	// more; four slots in one unified cache, so that the documents run in
	// one batch, as Rerank runs them. An f16 cache.
	{"defaults", kvcache.F16, []string{"--rerank"}},
}

// TestCrossEncoderRerankMatchesLlamaServer compares Rerank with
// llama-server's /v1/rerank on the cross-encoder of the encoder fixtures
// (MLX_ENCODER_FIXTURES, models/fixture/encoders.sh), whose file names cls
// pooling: it must rerank all the same, on the pair framed as llama-server
// frames it ([CLS] query [SEP] [SEP] document [SEP] for its flags), in
// each of crossEncoderSetups, within 1e-4 of logits of up to 7.5. The
// scores of llama-server are stored in testdata; when LLAMA_BIN_DIR names
// a llama.cpp build with llama-server, it also runs there (and -update
// rewrites the stored scores from it).
func TestCrossEncoderRerankMatchesLlamaServer(t *testing.T) {
	path := filepath.Join(encoderDir(t), "xlm-roberta-reranker.gguf")
	stored, server := loadRerankScores(t, crossEncoderGolden), llamaServerBin(t)
	live := map[string][]float64{}
	for _, tt := range crossEncoderSetups {
		t.Run(tt.name, func(t *testing.T) {
			got := crossEncoderScores(t, path, tt.kv)
			if server != "" {
				live[tt.name] = llamaServerRerank(t, server, path, tt.flags...)
			}
			checkRerankScores(t, tt.name, got, stored[tt.name], live[tt.name], 1e-4)
		})
	}
	saveRerankScores(t, crossEncoderGolden, live)
}

// crossEncoderScores loads the cross-encoder at path with a cache of kv
// and returns its scores of rerankDocs against rerankQuery, the documents
// in one call.
func crossEncoderScores(t *testing.T, path string, kv kvcache.Type) []float32 {
	t.Helper()
	e, err := Load(context.Background(), path, Options{Threads: 1, Ctx: 256, KVType: kv})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !e.Reranks() {
		t.Fatal("a model with a classification head does not rerank")
	}
	return rerankWith(t, e)
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
	args = append([]string{"-m", model, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "-t", "2", "--no-webui"}, args...)
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
