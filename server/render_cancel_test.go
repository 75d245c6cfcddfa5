package server

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

// slowTemplate loops long, yet within the template engine's budgets.
const slowTemplate = "{% for i in range(1000) %}{% for j in range(1000) %}{% if i + j * 2 - i % 3 + j // 5 < 0 %}{% endif %}" +
	"{% endfor %}{% endfor %}{% for m in messages %}{{ m.content }}{% endfor %}"

// renderWatch is a template model that reports when a render begins and
// how it ends.
type renderWatch struct {
	*templateModel
	began chan struct{}
	ended chan error
}

func (m *renderWatch) RenderChat(ctx context.Context, msgs []ChatMessage, opt ChatOptions) (string, error) {
	m.began <- struct{}{}
	text, err := m.templateModel.RenderChat(ctx, msgs, opt)
	m.ended <- err
	return text, err
}

// TestRenderStopsWithTheRequest closes the connection, or shuts the
// server down, while the chat template renders: every API must stop the
// render with the request's context and start no generation.
func TestRenderStopsWithTheRequest(t *testing.T) {
	const msgs = `"messages":[{"role":"user","content":"Hi"}]`
	gone := func(_ *testServer, conn net.Conn) { conn.Close() }
	shutdown := func(ts *testServer, _ net.Conn) { ts.cancel() } // what Shutdown does once its wait is over
	cases := []struct {
		name, path, body string
		stop             func(*testServer, net.Conn)
	}{
		{"chat completions", "/v1/chat/completions", `{"model":"m",` + msgs + `}`, gone},
		{"messages", "/v1/messages", `{"model":"m","max_tokens":8,` + msgs + `}`, gone},
		{"count tokens", "/v1/messages/count_tokens", `{"model":"m",` + msgs + `}`, gone},
		{"responses", "/v1/responses", `{"model":"m","input":"Hi"}`, gone},
		{"input tokens", "/v1/responses/input_tokens", `{"model":"m","input":"Hi"}`, gone},
		{"ollama chat", "/api/chat", `{"model":"m",` + msgs + `}`, gone},
		{"apply-template", "/apply-template", `{"model":"m",` + msgs + `}`, gone},
		{"shutdown", "/v1/chat/completions", `{"model":"m",` + msgs + `}`, shutdown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &renderWatch{templateModel: newTemplateModel(t, templateFixture{id: "m", src: slowTemplate}, "ok", ""),
				began: make(chan struct{}, 1), ended: make(chan error, 1)}
			ts := startModels(t, modelLoader{"m": m})
			conn := openStream(t, ts, c.path, c.body)
			select {
			case <-m.began:
			case <-time.After(30 * time.Second):
				t.Fatal("the render did not begin")
			}
			defer conn.Close()
			c.stop(ts, conn)
			if err := <-m.ended; !errors.Is(err, context.Canceled) {
				t.Fatalf("the render ended with %v, want context.Canceled", err)
			}
			time.Sleep(50 * time.Millisecond)
			m.mu.Lock()
			defer m.mu.Unlock()
			if len(m.reqs) != 0 {
				t.Errorf("%d generations started for a client that is gone", len(m.reqs))
			}
		})
	}
}
