package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mlxrt "github.com/mlxrun/mlx/runtime"
)

// soakKind is what a soak client does with its request.
type soakKind int

const (
	soakStream     soakKind = iota // read the stream to the end
	soakJSON                       // a request without streaming
	soakCancel                     // cancel the request at a random moment
	soakDisconnect                 // close the connection after the first bytes
)

// soakKinds are drawn at random: half stream, one in five not streamed,
// three in ten cancelled or cut off.
var soakKinds = []soakKind{soakStream, soakStream, soakStream, soakStream, soakStream, soakJSON, soakJSON, soakCancel, soakCancel, soakDisconnect}

// TestSoakCancelsAndDisconnects sends 200 requests from 16 clients, some
// cancelled at random moments (also while queued) and some cut off by
// closing the connection, then checks that every other request completed,
// that no KV cache block stays used, and that the goroutines go back to
// their number before the load. Run it under -race.
func TestSoakCancelsAndDisconnects(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test")
	}
	s := startLive(t, mlxrt.Options{Parallel: 4, Queue: 32})
	s.waitIdle(t)
	s.tr.CloseIdleConnections()
	baseline := runtime.NumGoroutine()
	const requests, clients = 200, 16
	var next, completed, cut atomic.Int32
	var failures sync.Map
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			for {
				i := int(next.Add(1)) - 1
				if i >= requests {
					return
				}
				kind := soakKinds[rng.IntN(len(soakKinds))]
				maxTokens := 1 + rng.IntN(8)
				err := s.soakOne(kind, i, maxTokens, time.Duration(rng.IntN(30))*time.Millisecond)
				switch {
				case kind >= soakCancel:
					cut.Add(1)
				case err != nil:
					failures.Store(i, err)
				default:
					completed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	failures.Range(func(k, v any) bool {
		t.Errorf("request %v: %v", k, v)
		return true
	})
	t.Logf("%d requests completed, %d cancelled or cut off", completed.Load(), cut.Load())
	s.waitIdle(t)
	s.tr.CloseIdleConnections()
	start := time.Now()
	waitGoroutines(t, baseline)
	t.Logf("goroutines back to %d within %v", baseline, time.Since(start).Round(time.Millisecond))
}

// soakOne runs request i of a kind: nil when it completed as asked (the
// cancelled kinds may end any way).
func (s *liveServer) soakOne(kind soakKind, i, maxTokens int, after time.Duration) error {
	req := map[string]any{"model": s.model, "prompt": benchPrompt(3, i, 16+i%40), "max_tokens": maxTokens, "ignore_eos": true, "temperature": 0}
	if kind != soakJSON {
		req["stream"], req["stream_options"] = true, map[string]any{"include_usage": true}
	}
	body, _ := json.Marshal(req)
	if kind == soakDisconnect {
		return s.disconnect(body, after)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if kind == soakCancel {
		time.AfterFunc(after, cancel)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/v1/completions", strings.NewReader(string(body)))
	if err != nil {
		return err
	}
	resp, err := s.client.Do(hreq)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	if kind == soakJSON {
		var r struct {
			Usage struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Usage.CompletionTokens != maxTokens {
			return fmt.Errorf("answer with %d tokens (%v), want %d", r.Usage.CompletionTokens, err, maxTokens)
		}
		return nil
	}
	r := readStream(resp.Body, time.Now())
	if r.err == nil && r.tokens != maxTokens {
		r.err = fmt.Errorf("stream of %d tokens, want %d", r.tokens, maxTokens)
	}
	return r.err
}

// disconnect sends a streaming request on a connection of its own, reads
// a little of the answer (or waits a moment) and closes the connection.
func (s *liveServer) disconnect(body []byte, after time.Duration) error {
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		return err
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	conn.SetReadDeadline(time.Now().Add(after))
	bufio.NewReader(conn).ReadString('\n')
	return nil
}

// waitGoroutines waits until no more goroutines run than before the load
// (idle HTTP workers exit within seconds), and fails with their stacks.
func waitGoroutines(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline {
		var b strings.Builder
		pprof.Lookup("goroutine").WriteTo(&b, 1)
		t.Errorf("%d goroutines after the load, %d before:\n%s", n, baseline, b.String())
	}
}
