package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/server/openai"
)

func TestRoutesWithAndWithoutV1(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	if err := ts.Preload(context.Background(), "m"); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"/v1", ""} {
		cases := []struct {
			method, path, body string
			status             int
		}{
			{"POST", "/chat/completions", `{"model":"m",` + userHi + `}`, 200},
			{"POST", "/completions", `{"model":"m","prompt":"a"}`, 200},
			{"GET", "/models", "", 200},
			{"GET", "/models/m", "", 200},
			{"GET", "/models/unknown", "", 404},
			{"GET", "/chat/completions", "", 405},
			{"POST", "/models", "", 405},
			{"GET", "/nothing", "", 404},
		}
		for _, c := range cases {
			status, b, _ := ts.do(t, c.method, prefix+c.path, c.body)
			if status != c.status {
				t.Errorf("%s %s: status %d, want %d: %s", c.method, prefix+c.path, status, c.status, b)
			}
			if status >= 400 {
				decodeErr(t, b)
			}
		}
	}
	for _, path := range []string{"/health", "/metrics", "/mlx/models"} {
		if status, b, _ := ts.do(t, "GET", path, ""); status != 200 {
			t.Errorf("GET %s: %d %s", path, status, b)
		}
	}
}

func TestModels(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	if err := ts.Preload(context.Background(), "m"); err != nil {
		t.Fatal(err)
	}
	var list openai.ModelList
	_, b, _ := ts.do(t, "GET", "/v1/models", "")
	if err := json.Unmarshal(b, &list); err != nil || list.Object != "list" || len(list.Data) != 2 || list.Data[0].ID != "m" || list.Data[0].Object != "model" || list.Data[0].Created == 0 {
		t.Fatalf("models %s (%v)", b, err)
	}
	if list.Data[1].ID != "org/cached-model" {
		t.Errorf("a model of the cache is not listed: %s", b)
	}
	var mlx MLXModelList
	_, b, _ = ts.do(t, "GET", "/mlx/models", "")
	if err := json.Unmarshal(b, &mlx); err != nil || len(mlx.Data) != 2 {
		t.Fatalf("mlx models %s (%v)", b, err)
	}
	got := mlx.Data[0]
	if !got.Loaded || got.Format != "gguf" || got.Quantization != "Q8_0" || got.Context != 512 || got.Memory != 1<<20 || !got.Pinned || got.Parameters != 1000 {
		t.Errorf("loaded model %+v", got)
	}
	if c := mlx.Data[1]; c.Loaded || c.ID != "org/cached-model" || c.Size != 1234 {
		t.Errorf("cached model %+v", c)
	}
}

func TestAuth(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{APIKey: "sekret"})
	cases := []struct {
		name, path string
		header     []string
		status     int
	}{
		{"no key", "/v1/models", nil, 401},
		{"wrong key", "/v1/models", []string{"Authorization", "Bearer nope"}, 401},
		{"not bearer", "/v1/models", []string{"Authorization", "sekret"}, 401},
		{"good key", "/v1/models", []string{"Authorization", "Bearer sekret"}, 200},
		{"health is open", "/health", nil, 200},
		{"metrics need the key", "/metrics", nil, 401},
		{"lowercase bearer", "/v1/models", []string{"Authorization", "bearer sekret"}, 200},
		{"x-api-key", "/v1/models", []string{"x-api-key", "sekret"}, 200},
		{"wrong x-api-key", "/v1/models", []string{"x-api-key", "nope"}, 401},
		{"unknown path before 404", "/v1/secret-route", nil, 401},
		{"wrong method before 405", "/v1/chat/completions", nil, 401},
	}
	for _, c := range cases {
		status, b, h := ts.do(t, "GET", c.path, "", c.header...)
		if status == 401 && h.Get("Allow") != "" {
			t.Errorf("%s: a refused request learns the route's methods: Allow %q", c.name, h.Get("Allow"))
		}
		if status != c.status {
			t.Errorf("%s: status %d, want %d", c.name, status, c.status)
		}
		if status == 401 {
			if e := decodeErr(t, b); e.Error.Code == nil || *e.Error.Code != "invalid_api_key" {
				t.Errorf("%s: body %s", c.name, b)
			}
		}
	}
}

func TestCORS(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{CORSOrigins: []string{"http://app.test"}})
	cases := []struct {
		method, origin string
		status         int
		allow          string
	}{
		{"OPTIONS", "http://app.test", 204, "http://app.test"},
		{"GET", "http://app.test", 200, "http://app.test"},
		{"GET", "http://evil.test", 200, ""},
	}
	for _, c := range cases {
		status, _, h := ts.do(t, c.method, "/v1/models", "", "Origin", c.origin, "Access-Control-Request-Method", "GET")
		if status != c.status || h.Get("Access-Control-Allow-Origin") != c.allow {
			t.Errorf("%s from %s: status %d allow %q, want %d %q", c.method, c.origin, status, h.Get("Access-Control-Allow-Origin"), c.status, c.allow)
		}
	}
}

func TestBodyLimit(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{MaxBody: 1024})
	status, b, _ := ts.do(t, "POST", "/v1/completions", `{"model":"m","prompt":"`+strings.Repeat("x", 2000)+`"}`)
	if status != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", status)
	}
	if e := decodeErr(t, b); e.Error.Code == nil || *e.Error.Code != "request_too_large" {
		t.Errorf("body %s", b)
	}
}

func TestHealthWhileLoading(t *testing.T) {
	f := newFake("ok")
	f.id = "m"
	l := newFakeLoader(f)
	l.gate = make(chan struct{})
	ts := start(t, l, Options{})
	done := make(chan error)
	go func() { done <- ts.Preload(context.Background(), "m") }()
	deadline := time.Now().Add(2 * time.Second)
	for ts.starting.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if status, b, _ := ts.do(t, "GET", "/health", ""); status != 503 || !strings.Contains(string(b), "loading") {
		t.Errorf("while loading: %d %s", status, b)
	}
	close(l.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if status, b, _ := ts.do(t, "GET", "/health", ""); status != 200 || !strings.Contains(string(b), fmt.Sprintf(`"pid":%d`, os.Getpid())) {
		t.Errorf("after loading: %d %s, want 200 with the pid", status, b)
	}
}

func TestMetricsRoute(t *testing.T) {
	ts, _ := startFake(t, "abc", Options{})
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`}`, 200, nil)
	ts.do(t, "GET", "/v1/models/none", "")
	_, b, h := ts.do(t, "GET", "/metrics", "")
	body := string(b)
	for _, want := range []string{
		`mlx_http_requests_total{route="/v1/chat/completions",status="200"} 1`,
		`mlx_http_requests_total{route="/v1/models/{id}",status="404"} 1`,
		`mlx_http_request_duration_seconds_bucket{route="/v1/chat/completions",le="+Inf"} 1`,
		`mlx_time_to_first_token_seconds_count{model="m"} 1`,
		`mlx_inter_token_latency_seconds_count{model="m"} 2`,
		`mlx_generated_tokens_total{model="m"} 3`,
		`mlx_prompt_tokens_total{model="m"}`,
		`mlx_model_load_seconds_count{model="m"} 1`,
		"mlx_models_loaded 1",
		"mlx_queue_length 0",
		"mlx_http_requests_in_flight 1", // this request
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if !strings.HasPrefix(h.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Errorf("content type %q", h.Get("Content-Type"))
	}
}

func TestModelLoadable(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	status, b, _ := ts.do(t, "GET", "/v1/models/org/cached-model", "")
	var m openai.Model
	if status != 200 || json.Unmarshal(b, &m) != nil || m.ID != "org/cached-model" {
		t.Errorf("a model of the cache: %d %s", status, b)
	}
}

// TestHealthWhileStarting: once told that models will load, /health
// answers 503 until Preload has loaded them, even before Preload runs.
func TestHealthWhileStarting(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	ts.Starting(1)
	if status, b, _ := ts.do(t, "GET", "/health", ""); status != http.StatusServiceUnavailable {
		t.Fatalf("before Preload: %d %s", status, b)
	}
	if err := ts.Preload(context.Background(), "m"); err != nil {
		t.Fatal(err)
	}
	if status, b, _ := ts.do(t, "GET", "/health", ""); status != http.StatusOK {
		t.Fatalf("after Preload: %d %s", status, b)
	}
}
