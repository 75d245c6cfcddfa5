package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/catalog"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server"
)

// liveServer is an mlx server on loopback with a fixture model loaded.
type liveServer struct {
	url, model string
	tr         *http.Transport
	client     *http.Client
}

// startLive serves the llama-tiny Q8_0 fixture with the engine options.
func startLive(t *testing.T, opt runtime.Options) *liveServer {
	t.Helper()
	s, err := startLiveModel(t, fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf"), opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// startLiveModel serves the model at path with the engine options; the
// error is the model's load error.
func startLiveModel(t *testing.T, path string, opt runtime.Options) (*liveServer, error) {
	t.Helper()
	opt.Threads = max(opt.Threads, 2)
	opt.Ctx = max(opt.Ctx, 256)
	srv := server.New(newServeLoader(opt, nil, catalog.Options{Named: []string{path}}), server.Options{SSEKeepAlive: 20 * time.Millisecond})
	shutdown := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
	// The model loads before the server serves: a load error ends the
	// test before there is a server to stop.
	if err := srv.Preload(context.Background(), path); err != nil {
		shutdown()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		shutdown()
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() { srv.Serve(ln); close(served) }()
	t.Cleanup(func() {
		shutdown()
		<-served
	})
	tr := &http.Transport{MaxIdleConnsPerHost: 32}
	t.Cleanup(tr.CloseIdleConnections)
	return &liveServer{url: "http://" + ln.Addr().String(), model: path, tr: tr, client: &http.Client{Transport: tr, Timeout: time.Minute}}, nil
}

// post sends a JSON body and decodes the JSON answer into out.
func (s *liveServer) post(t *testing.T, path string, body any, out any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.client.Post(s.url+path, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("POST %s: %v in %s", path, err, data)
	}
}

// metric returns the value of the series of /metrics whose name and
// labels begin with prefix (the first one), or -1.
func (s *liveServer) metric(t *testing.T, prefix string) float64 {
	t.Helper()
	resp, err := s.client.Get(s.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, prefix); ok && !strings.HasPrefix(line, "#") {
			if i := strings.LastIndexByte(rest, ' '); i >= 0 {
				v, err := strconv.ParseFloat(rest[i+1:], 64)
				if err == nil {
					return v
				}
			}
		}
	}
	return -1
}

// waitIdle waits until the engine holds no KV block and runs and queues
// nothing, as /metrics reports it.
func (s *liveServer) waitIdle(t *testing.T) {
	t.Helper()
	var used, running, waiting float64
	for range 500 {
		used = s.metric(t, "mlx_kv_cache_blocks_used{")
		running = s.metric(t, "mlx_engine_sequences_running{")
		waiting = s.metric(t, "mlx_engine_requests_waiting{")
		if used == 0 && running == 0 && waiting == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the engine stays busy: %v KV blocks used, %v running, %v waiting", used, running, waiting)
}
