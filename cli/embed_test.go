package cli

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
)

// vectorLines decodes one JSON value per line.
func vectorLines[T any](t *testing.T, out string) []T {
	t.Helper()
	var vs []T
	for line := range strings.Lines(out) {
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		vs = append(vs, v)
	}
	return vs
}

// TestEmbedCommand checks that mlx embed prints, for arguments and for the
// lines of standard input alike, each text's engine vector normalised.
func TestEmbedCommand(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-F32.gguf")
	texts := []string{"The capital of France", "a", "naïve café ✓"}
	e, err := runtime.Load(context.Background(), model, runtime.Options{Threads: 1, Ctx: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var want [][]float32
	for _, text := range texts {
		ids := e.Tokenizer().Encode(text, true)
		v, err := e.Embed(context.Background(), [][]int32{ids}, config.PoolLast)
		if err != nil {
			t.Fatal(err)
		}
		runtime.Normalize(v[0])
		want = append(want, v[0])
	}
	fromArgs, err := run(t, append([]string{"embed", "--threads", "1", model}, texts...)...)
	if err != nil {
		t.Fatal(err)
	}
	fromStdin, err := runWithInput(t, strings.Join(texts, "\n")+"\n", "embed", "--threads", "1", model)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"arguments": fromArgs, "stdin": fromStdin} {
		got := vectorLines[[]float32](t, out)
		if len(got) != len(texts) {
			t.Fatalf("%s: %d lines for %d texts", name, len(got), len(texts))
		}
		for i := range texts {
			if len(got[i]) != len(want[i]) {
				t.Fatalf("%s: text %d has %d values, want %d", name, i, len(got[i]), len(want[i]))
			}
			for d := range got[i] {
				if math.Abs(float64(got[i][d]-want[i][d])) > 1e-5 {
					t.Fatalf("%s: text %d differs at %d: %g, want %g", name, i, d, got[i][d], want[i][d])
				}
			}
		}
	}
}

// TestEmbedCommandShapes checks --dimensions and --pooling none, and the
// refusal of bad flag values.
func TestEmbedCommandShapes(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-F32.gguf")
	out, err := run(t, "embed", "--threads", "1", "--dimensions", "4", model, "Paris")
	if err != nil {
		t.Fatal(err)
	}
	v := vectorLines[[]float64](t, out)[0]
	norm := 0.0
	for _, x := range v {
		norm += x * x
	}
	if len(v) != 4 || math.Abs(norm-1) > 1e-5 {
		t.Errorf("--dimensions 4 gave %v (squared norm %g)", v, norm)
	}
	out, err = run(t, "embed", "--threads", "1", "--pooling", "none", model, "Paris is")
	if err != nil {
		t.Fatal(err)
	}
	rows := vectorLines[[][]float32](t, out)[0]
	if len(rows) < 2 {
		t.Errorf("--pooling none gave %d token vectors", len(rows))
	}
	if _, err := runWithInput(t, "a\n\nb\n", "embed", model); err == nil || !strings.Contains(err.Error(), "text 2 has no tokens") {
		t.Errorf("an empty line: %v", err)
	}
	for _, args := range [][]string{{"--pooling", "max"}, {"--dimensions", "100000"}, {"--dimensions", "-1"}} {
		_, err := run(t, append(append([]string{"embed"}, args...), model, "x")...)
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v, want an error naming the flag", args, err)
		}
	}
}

// TestCheckPooling checks that rank is a pooling of mlx serve only.
func TestCheckPooling(t *testing.T) {
	for _, tt := range []struct {
		p    string
		rank bool
		ok   bool
	}{{"", false, true}, {"mean", false, true}, {"none", true, true}, {"rank", true, true}, {"rank", false, false}, {"max", true, false}} {
		if err := checkPooling(tt.p, tt.rank); (err == nil) != tt.ok {
			t.Errorf("checkPooling(%q, %v): %v", tt.p, tt.rank, err)
		}
	}
}
