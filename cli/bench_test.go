package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// runWithInput executes the root command with args and stdin, returning
// stdout.
func runWithInput(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	root := NewRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&bytes.Buffer{})
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestBench(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	out, err := runWithInput(t, "", "bench", "-p", "16", "-n", "4", "-r", "2", "-t", "2", "--read-mib", "4", "--json", model)
	if err != nil {
		t.Fatal(err)
	}
	var rows []benchRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(rows) != 2 || rows[0].Prompt != 16 || rows[1].Gen != 4 || rows[0].AvgTs <= 0 || len(rows[1].SamplesTs) != 2 {
		t.Errorf("rows %+v", rows)
	}
	out, err = runWithInput(t, "", "bench", "-p", "8", "-n", "0", "-r", "1", "-t", "1", model)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| model", "pp8", "Q8_0", "peak RSS"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestBenchEmbed checks the embeddings test: its rates agree with each
// other and with the inputs timed.
func TestBenchEmbed(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	out, err := runWithInput(t, "", "bench", "--embed", "4", "-p", "16", "-r", "2", "-t", "2", "--json", model)
	if err != nil {
		t.Fatal(err)
	}
	var rows []embedRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	r := rows[0]
	if len(rows) != 1 || r.Inputs != 4 || r.Prompt != 64 || len(r.SamplesTs) != 2 || r.AvgEs <= 0 {
		t.Fatalf("rows %+v", rows)
	}
	// 16 tokens per embedding: the two rates of each run differ by that.
	if ratio := r.AvgTs / r.AvgEs; ratio < 15.99 || ratio > 16.01 {
		t.Errorf("%g tokens/s for %g embeddings/s", r.AvgTs, r.AvgEs)
	}
	out, err = runWithInput(t, "", "bench", "--embed", "2", "-p", "8", "-r", "1", "-t", "1", model)
	if err != nil || !strings.Contains(out, "2 inputs of 8 tokens") || !strings.Contains(out, "embeddings/s") {
		t.Errorf("%v: %s", err, out)
	}
	if _, err := runWithInput(t, "", "bench", "--embed", "2", "-p", "0", model); err == nil {
		t.Error("--embed with -p 0 ran")
	}
}

// TestBenchDepth checks -d: each test runs after that much context, in a
// quantized cache too, and the rows say so as llama-bench's do.
func TestBenchDepth(t *testing.T) {
	model := fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf")
	// Two layers of two KV heads of 32: keys and values of 128 values a
	// position, as halves or as four 32-value blocks of 34 or 18 bytes.
	perToken := map[string]int64{"f16": 512, "q8_0": 272, "q4_0": 144}
	for _, kv := range []string{"f16", "q8_0", "q4_0"} {
		out, err := runWithInput(t, "", "bench", "-p", "16", "-n", "3", "-d", "130", "-r", "2", "-t", "2", "--kv-type", kv, "--read-mib", "0", "--json", model)
		if err != nil {
			t.Fatal(err)
		}
		var rows []benchRow
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("%v in %s", err, out)
		}
		if len(rows) != 2 || rows[0].Depth != 130 || rows[1].Depth != 130 || rows[0].AvgTs <= 0 || rows[1].AvgTs <= 0 {
			t.Errorf("%s: rows %+v", kv, rows)
		}
		if r := rows[0]; r.KVType != kv || r.KVToken != perToken[kv] {
			t.Errorf("%s: KV cache %q of %d bytes per token, want %d", kv, r.KVType, r.KVToken, perToken[kv])
		}
	}
	out, err := runWithInput(t, "", "bench", "-p", "8", "-n", "2", "-d", "20", "-r", "1", "-t", "1", "--read-mib", "0", model)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pp8 @ d20", "tg2 @ d20"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if _, err := runWithInput(t, "", "bench", "-d", "-1", model); err == nil {
		t.Error("-d -1 accepted")
	}
	if _, err := runWithInput(t, "", "bench", "--kv-type", "q3", model); err == nil || !strings.Contains(err.Error(), "q4_0") {
		t.Errorf("--kv-type q3: %v", err)
	}
	t.Setenv("MLX_KV_TYPE", "q4_0")
	out, err = runWithInput(t, "", "bench", "-p", "8", "-n", "0", "-r", "1", "--json", model)
	var rows []benchRow
	if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0].KVType != "q4_0" {
		t.Errorf("MLX_KV_TYPE=q4_0: %v, %s", err, out)
	}
	if out, err = runWithInput(t, "", "bench", "-p", "8", "-n", "0", "-r", "1", "--kv-type", "f16", "--json", model); err != nil || !strings.Contains(out, `"kv_type": "f16"`) {
		t.Errorf("--kv-type f16 beside MLX_KV_TYPE=q4_0: %v, %s", err, out)
	}
	t.Setenv("MLX_KV_TYPE", "q2")
	if _, err := runWithInput(t, "", "bench", "-p", "8", "-n", "0", model); err == nil || !strings.Contains(err.Error(), "MLX_KV_TYPE") && !strings.Contains(err.Error(), "kv-type") {
		t.Errorf("MLX_KV_TYPE=q2: %v", err)
	}
	t.Setenv("MLX_KV_TYPE", "")
	small := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf") // heads of 16
	if _, err := runWithInput(t, "", "bench", "-p", "4", "-n", "0", "--kv-type", "q8_0", small); err == nil || !strings.Contains(err.Error(), "multiples of 32") {
		t.Errorf("q8_0 cache for heads of 16: %v", err)
	}
}

// TestParamsLabel checks the rounding of parameter counts, at the edges
// where a count rounds up into the next unit.
func TestParamsLabel(t *testing.T) {
	for n, want := range map[int64]string{
		134_520_000: "135M", 999_890_000: "1.0B", 999_400_000: "999M", 3_114_810_000: "3.1B",
		999_600: "1M", 999_400: "999K", 1_500: "2K",
	} {
		if got := paramsLabel(n); got != want {
			t.Errorf("paramsLabel(%d) = %q, want %q", n, got, want)
		}
	}
}
