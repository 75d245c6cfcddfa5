package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

func TestBenchMemoryAndBandwidth(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	out, err := runWithInput(t, "", "bench", "-p", "8", "-n", "4", "-r", "1", "-t", "2", "--read-mib", "4", "--json", model)
	if err != nil {
		t.Fatal(err)
	}
	var rows []benchRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	st, err := os.Stat(model)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for _, r := range rows {
		if r.FileBytes != st.Size() || r.KVBytes <= 0 {
			t.Errorf("row %+v: file %d bytes, KV %d; want file %d", r, r.FileBytes, r.KVBytes, st.Size())
		}
		if goruntime.GOOS == "linux" && r.PeakRSS <= 0 {
			t.Errorf("no peak RSS on Linux: %+v", r)
		}
	}
	tg := rows[1]
	if tg.WeightBytes <= 0 || tg.ReadBps <= 0 || tg.WeightBps != tg.AvgTs*float64(tg.WeightBytes) {
		t.Errorf("generation row lacks the bandwidth: %+v", tg.benchExtra)
	}
	if rows[0].ReadBps != 0 {
		t.Errorf("prompt row has a bandwidth: %+v", rows[0].benchExtra)
	}
}

func TestWeightFileBytes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("model-1.safetensors", 100)
	write("model-2.safetensors", 50)
	write("tokenizer.json", 7)
	tests := []struct {
		ref  string
		want int64
	}{
		{dir, 150},
		{filepath.Join(dir, "tokenizer.json"), 7},
		{filepath.Join(dir, "missing"), 0},
	}
	for _, tt := range tests {
		if got := weightFileBytes(tt.ref); got != tt.want {
			t.Errorf("weightFileBytes(%s) = %d, want %d", tt.ref, got, tt.want)
		}
	}
}

func TestBenchStartup(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the stand-in child is a shell script")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	script := filepath.Join(dir, "child")
	body := "#!/bin/sh\necho \"$@\" >> " + log + "\ncat > /dev/null\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	old := startupExe
	startupExe = func() (string, error) { return script, nil }
	defer func() { startupExe = old }()
	out, err := runWithInput(t, "", "bench", "--startup", "3", "-t", "2", "--json", "model.gguf")
	if err != nil {
		t.Fatal(err)
	}
	var rows []benchRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(rows) != 1 || len(rows[0].StartupMs) != 3 || rows[0].StartupMedianMs <= 0 {
		t.Fatalf("rows %+v", rows)
	}
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 4 || lines[0] != "run model.gguf --max-tokens 1 --raw --temperature 0 --threads 2" {
		t.Errorf("child runs (one warm-up, three timed):\n%s", calls)
	}
	startupExe = func() (string, error) { return filepath.Join(dir, "absent"), nil }
	if _, err := runWithInput(t, "", "bench", "--startup", "1", "model.gguf"); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Errorf("a child that cannot start: err = %v", err)
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		x    []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := median(tt.x); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
}

func TestDefaultReadMiB(t *testing.T) {
	for _, c := range []struct {
		llc  int64
		want int
	}{{0, 256}, {32 << 20, 256}, {105 << 20, 420}, {266240 << 10, 1040}, {4 << 30, 2048}} {
		if got := defaultReadMiB(c.llc); got != c.want {
			t.Errorf("defaultReadMiB(%d) = %d, want %d", c.llc, got, c.want)
		}
	}
}
