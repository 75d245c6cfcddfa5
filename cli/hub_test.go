package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/hub"
	"github.com/mlxrun/mlx/models/hub/hubtest"
)

// clearHubEnv unsets the Hugging Face variables for the test.
func clearHubEnv(t *testing.T) {
	t.Helper()
	for _, k := range []string{"HF_ENDPOINT", "HF_TOKEN", "HF_TOKEN_PATH", "HF_HOME", "HF_HUB_CACHE", "HF_HUB_OFFLINE", "XDG_CACHE_HOME", "MLX_HUB_INSECURE"} {
		t.Setenv(k, "")
	}
}

func TestHubEnv(t *testing.T) {
	home := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(home, "hf"), 0o755))
	must(os.WriteFile(filepath.Join(home, "hf", "token"), []byte("hf_file\n"), 0o600))
	tests := []struct {
		name string
		env  map[string]string
		want hub.Options
	}{
		{"defaults", map[string]string{"HOME": home},
			hub.Options{CacheDir: filepath.Join(home, ".cache", "huggingface", "hub")}},
		{"xdg", map[string]string{"XDG_CACHE_HOME": filepath.Join(home, "x")},
			hub.Options{CacheDir: filepath.Join(home, "x", "huggingface", "hub")}},
		{"hf home and token file", map[string]string{"HF_HOME": filepath.Join(home, "hf"), "HF_HUB_OFFLINE": "1"},
			hub.Options{CacheDir: filepath.Join(home, "hf", "hub"), Token: "hf_file", Offline: true}},
		{"explicit", map[string]string{"HF_HOME": filepath.Join(home, "hf"), "HF_HUB_CACHE": "/c", "HF_TOKEN": "hf_env",
			"HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_OFFLINE": "no"},
			hub.Options{CacheDir: "/c", Token: "hf_env", Endpoint: "http://127.0.0.1:9"}},
		{"token path", map[string]string{"HF_HOME": home, "HF_TOKEN_PATH": filepath.Join(home, "hf", "token")},
			hub.Options{CacheDir: filepath.Join(home, "hub"), Token: "hf_file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clearHubEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			got, err := hubEnv()
			if err != nil {
				t.Fatal(err)
			}
			if got.CacheDir != tc.want.CacheDir || got.Token != tc.want.Token || got.Offline != tc.want.Offline ||
				got.Endpoint != tc.want.Endpoint {
				t.Fatalf("options %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestPullListRm runs the commands against a fake hub.
func TestPullListRm(t *testing.T) {
	srv, err := hubtest.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	weights := bytes.Repeat([]byte("weights!"), 1000)
	config := []byte(`{"torch_dtype":"float16"}`)
	srv.Publish("org/model", map[string][]byte{"config.json": config, "model.safetensors": weights})
	srv.Publish("org/m-GGUF", map[string][]byte{"m-Q4_K_M.gguf": []byte("GGUF q4"), "m-Q8_0.gguf": []byte("GGUF q8")})
	clearHubEnv(t)
	cache := t.TempDir()
	t.Setenv("HF_ENDPOINT", srv.URL)
	t.Setenv("HF_HUB_CACHE", cache)

	out, err := run(t, "pull", "--quiet", "org/model")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(strings.TrimSpace(out), "model.safetensors")); err != nil || !bytes.Equal(b, weights) {
		t.Fatalf("pull printed %q: %v", out, err)
	}
	if _, err := run(t, "pull", "-q", "org/m-GGUF:q8_0"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "pull", "-q", "org/m-GGUF:Q2_K"); err == nil || !strings.Contains(err.Error(), "Q4_K_M, Q8_0") {
		t.Fatalf("missing quantization: %v", err)
	}
	out, err = run(t, "list", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var models []hub.Model
	if err := json.Unmarshal([]byte(out), &models); err != nil {
		t.Fatal(err)
	}
	if len(models) != 2 || models[0].Name != "org/m-GGUF:Q8_0" || models[1].Quant != "F16" || models[1].Size == 0 {
		t.Fatalf("list --json: %+v", models)
	}
	out, err = run(t, "list")
	if err != nil || !strings.Contains(out, "org/m-GGUF:Q8_0") || !strings.Contains(out, "safetensors") {
		t.Fatalf("list: %q, %v", out, err)
	}
	out, err = run(t, "rm", "org/model")
	if err != nil || !strings.Contains(out, "removed org/model") || !strings.Contains(out, formatBytes(int64(len(weights)+len(config)))) {
		t.Fatalf("rm: %q, %v", out, err)
	}
	if _, err := run(t, "rm", "org/model"); err == nil {
		t.Fatal("removing a missing model succeeded")
	}
	out, _ = run(t, "list", "--json")
	if strings.Contains(out, "org/model\"") {
		t.Fatalf("removed model still listed: %s", out)
	}
}

func TestListAliases(t *testing.T) {
	out, err := run(t, "list", "--aliases")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range hub.Aliases() {
		if !strings.Contains(out, a.Name) || !strings.Contains(out, a.Target) {
			t.Errorf("alias %s → %s not listed", a.Name, a.Target)
		}
	}
}

// TestPlainProgress feeds events to the line renderer with a fake clock.
func TestPlainProgress(t *testing.T) {
	var buf bytes.Buffer
	p := newPullProgress(&buf, false)
	now := time.Unix(0, 0)
	p.now = func() time.Time { return now }
	ev := hub.Progress{File: "w.gguf", Index: 1, Count: 2, Total: 10_000_000}
	step := func(e hub.Event, done int64, dt time.Duration) {
		now = now.Add(dt)
		ev.Event, ev.Done = e, done
		p.update(ev)
	}
	step(hub.EventStart, 1_000_000, 0)
	step(hub.EventBytes, 2_000_000, time.Second) // too soon for a line
	step(hub.EventBytes, 5_000_000, time.Second)
	step(hub.EventDone, 10_000_000, time.Second)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		"[1/2] w.gguf: downloading 10.0 MB, resuming at 1.0 MB",
		"[1/2] w.gguf:  50% 2.0 MB/s",
		"[1/2] w.gguf: done, 10.0 MB in 3s (3.0 MB/s)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("progress lines:\n%s\nwant:\n%s", buf.String(), strings.Join(want, "\n"))
	}
	buf.Reset()
	p.update(hub.Progress{File: "c.json", Index: 2, Count: 2, Event: hub.EventCached, Total: 1500})
	if got := buf.String(); got != "[2/2] c.json: in the cache (1.5 kB)\n" {
		t.Fatalf("cached line %q", got)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{-1: "unknown size", 0: "0 B", 999: "999 B", 1000: "1.0 kB",
		1_234_567: "1.2 MB", 5_000_000_000: "5.0 GB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
