package hub

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/hub/hubtest"
)

// startHub starts a fake hub that stops with the test.
func startHub(t *testing.T) *hubtest.Server {
	t.Helper()
	srv, err := hubtest.Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// newClient returns a client of srv with a fresh cache, short timeouts and
// ranges from 1 MiB; mod may change the options.
func newClient(t *testing.T, srv *hubtest.Server, mod func(*Options)) *Client {
	t.Helper()
	opts := Options{
		Endpoint:     srv.URL,
		CacheDir:     t.TempDir(),
		StallTimeout: 200 * time.Millisecond,
		RetryDelay:   5 * time.Millisecond,
		Retries:      4,
		ParallelMin:  1 << 20,
		Connections:  3,
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// randomBytes returns n reproducible bytes.
func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// safetensorsRepo is a small model repo, with files a pull must skip.
func safetensorsRepo(weights int) map[string][]byte {
	return map[string][]byte{
		"config.json":           []byte(`{"model_type":"llama","torch_dtype":"bfloat16"}`),
		"tokenizer.json":        []byte(`{"model":{}}`),
		"tokenizer_config.json": []byte(`{"chat_template":"{{ x }}"}`),
		"model.safetensors":     randomBytes(weights, 1),
		"README.md":             []byte("# model\n"),
		"pytorch_model.bin":     randomBytes(1000, 2),
		"onnx/model.onnx":       randomBytes(1000, 3),
	}
}

// readFile reads a file of the test or fails it.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// blobNames lists the file names in a repo's blobs folder.
func blobNames(t *testing.T, c Cache, repo string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(c.RepoDir(repo), "blobs", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}
