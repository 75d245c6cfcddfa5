package config

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

func ptr[T any](v T) *T { return &v }

// TestLoadGenerationFixtures compares LoadGeneration with the fixture files
// read as plain JSON.
func TestLoadGenerationFixtures(t *testing.T) {
	for _, dir := range []string{"llama-tiny", "qwen3-tiny", "qwen2-tiny", "llama-tiny-mlx-4bit"} {
		t.Run(dir, func(t *testing.T) {
			path := fixture.Path(t, "models", dir)
			g, err := LoadGeneration(path)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(path, "generation_config.json"))
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]any
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			checkSame(t, "temperature", g.Temperature, raw["temperature"])
			checkSame(t, "top_p", g.TopP, raw["top_p"])
			checkSame(t, "top_k", g.TopK, raw["top_k"])
			checkSame(t, "do_sample", g.DoSample, raw["do_sample"])
			checkSame(t, "bos_token_id", g.BOS, raw["bos_token_id"])
			eos := raw["eos_token_id"]
			if _, ok := eos.(float64); ok {
				eos = []any{eos}
			}
			if got, _ := json.Marshal(g.EOS); string(got) != mustJSON(t, eos) {
				t.Errorf("eos %s, file has %v", got, eos)
			}
		})
	}
}

// checkSame compares an optional value with the JSON value (nil if absent).
func checkSame[T any](t *testing.T, name string, got *T, raw any) {
	t.Helper()
	if (got == nil) != (raw == nil) {
		t.Errorf("%s: got %v, file has %v", name, got, raw)
		return
	}
	if got != nil && mustJSON(t, *got) != mustJSON(t, raw) {
		t.Errorf("%s: got %v, file has %v", name, *got, raw)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGenerationFromGGUFFixture checks that qwen3-tiny's GGUF sampling keys
// match its generation_config.json.
func TestGenerationFromGGUFFixture(t *testing.T) {
	g, err := GenerationFromGGUF(openGGUF(t, "qwen3-tiny-F16.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	hf, err := LoadGeneration(fixture.Path(t, "models", "qwen3-tiny"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]*float64{{g.Temperature, hf.Temperature}, {g.TopP, hf.TopP}} {
		if p[0] == nil || p[1] == nil || math.Abs(*p[0]-*p[1]) > 1e-6 {
			t.Errorf("gguf %v, hf %v", p[0], p[1])
		}
	}
	if g.TopK == nil || hf.TopK == nil || *g.TopK != *hf.TopK || *g.BOS != *hf.BOS || g.EOS[0] != hf.EOS[0] {
		t.Errorf("gguf %+v\nhf   %+v", g, hf)
	}
}

func TestLoadGenerationMissing(t *testing.T) {
	g, err := LoadGeneration(t.TempDir())
	if err != nil || !reflect.DeepEqual(g, Generation{}) {
		t.Fatalf("got %+v, %v", g, err)
	}
}

func TestParseGeneration(t *testing.T) {
	tests := []struct {
		name, text string
		want       Generation
	}{
		{"empty", `{}`, Generation{}},
		{"all", `{"temperature": 0.7, "top_p": 0.8, "top_k": 20, "min_p": 0.05, "repetition_penalty": 1.05,
			"do_sample": true, "max_new_tokens": 512, "bos_token_id": 1, "eos_token_id": [2, 3]}`,
			Generation{Temperature: ptr(0.7), TopP: ptr(0.8), TopK: ptr(20), MinP: ptr(0.05), RepetitionPenalty: ptr(1.05),
				DoSample: ptr(true), MaxNewTokens: ptr(512), BOS: ptr(1), EOS: []int{2, 3}}},
		{"eos int, sample off", `{"eos_token_id": 7, "do_sample": false, "temperature": 0}`,
			Generation{EOS: []int{7}, DoSample: ptr(false), Temperature: ptr(0.0)}},
		{"nulls", `{"temperature": null, "eos_token_id": null, "top_k": null}`, Generation{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ParseGeneration([]byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, tt.want) {
				t.Errorf("got  %+v\nwant %+v", g, tt.want)
			}
		})
	}
}

func TestParseGenerationBad(t *testing.T) {
	tests := []struct{ name, text, msg string }{
		{"not object", `[]`, "not a JSON object"},
		{"negative temperature", `{"temperature": -1}`, "temperature -1"},
		{"temperature past the API's", `{"temperature": 3}`, "temperature 3 is not in [0, 2]"},
		{"top_p above 1", `{"top_p": 1.5}`, "top_p 1.5"},
		{"negative top_k", `{"top_k": -1}`, "top_k -1"},
		{"fractional top_k", `{"top_k": 2.5}`, "top_k: want an integer"},
		{"zero penalty", `{"repetition_penalty": 0}`, "repetition_penalty 0"},
		{"huge max tokens", `{"max_new_tokens": 1e12}`, "max_new_tokens"},
		{"do_sample string", `{"do_sample": "yes"}`, "do_sample: want true or false"},
		{"eos strings", `{"eos_token_id": ["</s>"]}`, "eos_token_id"},
		{"eos huge", `{"eos_token_id": 4294967296}`, "eos_token_id"},
		{"bos list", `{"bos_token_id": [1, 2]}`, "want one token id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseGeneration([]byte(tt.text))
			checkErr(t, err, ErrInvalid, tt.msg)
		})
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "generation_config.json")
	if err := os.WriteFile(path, []byte(`{"top_p": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadGeneration(dir)
	checkErr(t, err, ErrInvalid, path+": ")
}

func TestGenerationFromGGUF(t *testing.T) {
	f := buildGGUF(t, llamaKVs("llama", "general.sampling.temp", float32(0.5), "general.sampling.top_k", int32(40),
		"general.sampling.penalty_repeat", float32(1.25)))
	g, err := GenerationFromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	want := Generation{Temperature: ptr(0.5), TopK: ptr(40), RepetitionPenalty: ptr(1.25), BOS: ptr(1), EOS: []int{2}}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got  %+v\nwant %+v", g, want)
	}
	_, err = GenerationFromGGUF(buildGGUF(t, llamaKVs("llama", "general.sampling.top_k", int32(-5))))
	checkErr(t, err, ErrInvalid, "top_k -5")
}
