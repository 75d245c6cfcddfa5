package hub

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRef(t *testing.T) {
	tests := []struct {
		in   string
		want Ref
	}{
		{"Qwen/Qwen3-0.6B", Ref{Repo: "Qwen/Qwen3-0.6B"}},
		{"org/name:Q4_K_M", Ref{Repo: "org/name", Quant: "Q4_K_M"}},
		{"org/name:latest", Ref{Repo: "org/name"}},
		{"org/name:q8_0@v1.0", Ref{Repo: "org/name", Quant: "q8_0", Revision: "v1.0"}},
		{"org/name@refs/pr/1:Q6_K", Ref{Repo: "org/name", Quant: "Q6_K", Revision: "refs/pr/1"}},
		{"org/name/sub/m-Q4_0.gguf", Ref{Repo: "org/name", File: "sub/m-Q4_0.gguf"}},
		{"https://huggingface.co/org/name", Ref{Repo: "org/name"}},
		{"hf.co/org/name:Q4_K_M", Ref{Repo: "org/name", Quant: "Q4_K_M"}},
		{"QWEN3:0.6B", Ref{Repo: "Qwen/Qwen3-0.6B"}},
		{"qwen3:0.6b@abc", Ref{Repo: "Qwen/Qwen3-0.6B", Revision: "abc"}},
	}
	for _, tc := range tests {
		got, err := ParseRef(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if err == nil {
			again, err := ParseRef(got.String())
			if err != nil || again != got {
				t.Errorf("ParseRef(%q.String() = %q) = %+v, %v", tc.in, got.String(), again, err)
			}
		}
	}
}

func TestParseRefErrors(t *testing.T) {
	for _, in := range []string{
		"", "justname", "qwen3:0.5b", "org/", "/name", "org--x/name", "org/na..me", "org/name/../x.gguf",
		"org/name/config.json", "org/name@", "org/name@../../x", "org/name:Q4 K", "org/name:a:b",
		"org/name/x.gguf:Q4_K_M", "-org/name", "org/na me", "org/name@a\x00b",
	} {
		if r, err := ParseRef(in); !errors.Is(err, ErrBadRef) {
			t.Errorf("ParseRef(%q) = %+v, %v; want ErrBadRef", in, r, err)
		}
	}
}

func TestAliases(t *testing.T) {
	seen := map[string]bool{}
	list := Aliases()
	if len(list) < 8 || len(list) > 14 {
		t.Fatalf("%d aliases", len(list))
	}
	for _, a := range list {
		if seen[a.Name] {
			t.Errorf("alias %s twice", a.Name)
		}
		seen[a.Name] = true
		r, err := ParseRef(a.Name)
		if err != nil || r.Repo == "" || !strings.HasPrefix(a.Target, r.Repo) {
			t.Errorf("alias %s → %+v, %v", a.Name, r, err)
		}
	}
}

func TestQuantOf(t *testing.T) {
	tests := map[string]string{
		"Qwen3-0.6B-Q4_K_M.gguf":                  "Q4_K_M",
		"qwen2.5-0.5b-instruct-q4_k_m.gguf":       "Q4_K_M",
		"Llama-3.2-1B-Instruct-UD-Q4_K_XL.gguf":   "UD-Q4_K_XL",
		"Meta-Llama-3-8B-Instruct.IQ4_XS.gguf":    "IQ4_XS",
		"m-Q6_K-00002-of-00003.gguf":              "Q6_K",
		"BF16/m-BF16-00001-of-00002.gguf":         "BF16",
		"ggml-model-f16.gguf":                     "F16",
		"gemma-3-1b-it-qat-q4_0.gguf":             "Q4_0",
		"model.gguf":                              "",
		"Qwen3-4B.gguf":                           "",
		"Q8_0/Mistral-7B-Instruct-v0.3.Q8_0.gguf": "Q8_0",
	}
	for in, want := range tests {
		if got := QuantOf(in); got != want {
			t.Errorf("QuantOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSelectFiles(t *testing.T) {
	gguf := []string{"README.md", "m-Q4_K_M.gguf", "m-Q8_0.gguf", "mmproj-F16.gguf",
		"m-Q6_K-00001-of-00002.gguf", "m-Q6_K-00002-of-00002.gguf", "m-Q3_K-00001-of-00002.gguf"}
	tests := []struct {
		name  string
		ref   Ref
		files []string
		want  string // files joined by ","
		err   error
	}{
		{"safetensors", Ref{}, []string{"config.json", "model.safetensors", "README.md", "x/model.safetensors", "tokenizer.model"},
			"config.json,model.safetensors,tokenizer.model", nil},
		{"consolidated skipped", Ref{}, []string{"config.json", "consolidated.safetensors",
			"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "model.safetensors.index.json"},
			"config.json,model-00001-of-00002.safetensors,model-00002-of-00002.safetensors,model.safetensors.index.json", nil},
		{"default quant", Ref{}, gguf, "m-Q4_K_M.gguf", nil},
		{"quant any case", Ref{Quant: "q8_0"}, gguf, "m-Q8_0.gguf", nil},
		{"split", Ref{Quant: "Q6_K"}, gguf, "m-Q6_K-00001-of-00002.gguf,m-Q6_K-00002-of-00002.gguf", nil},
		{"file of split", Ref{File: "m-Q6_K-00002-of-00002.gguf"}, gguf, "m-Q6_K-00001-of-00002.gguf,m-Q6_K-00002-of-00002.gguf", nil},
		{"missing part", Ref{Quant: "Q3_K"}, gguf, "", ErrProtocol},
		{"absent quant", Ref{Quant: "Q5_K_M"}, gguf, "", ErrNoQuant},
		{"absent file", Ref{File: "nope.gguf"}, gguf, "", ErrNotFound},
		{"one gguf", Ref{}, []string{"model.gguf"}, "model.gguf", nil},
		{"no default", Ref{}, []string{"a-BF16.gguf", "a-F16.gguf"}, "", ErrNoQuant},
		{"ambiguous", Ref{Quant: "Q8_0"}, []string{"a-Q8_0.gguf", "b/a-Q8_0.gguf"}, "", ErrAmbiguous},
		{"no weights", Ref{}, []string{"pytorch_model.bin", "config.json"}, "", ErrNoWeights},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.ref.Repo = "org/m"
			sel, err := selectFiles(tc.ref, tc.files)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if got := strings.Join(sel.Files, ","); got != tc.want {
				t.Fatalf("files %s, want %s", got, tc.want)
			}
		})
	}
}

// TestNoQuantListsAvailable checks the error a user reads.
func TestNoQuantListsAvailable(t *testing.T) {
	_, err := selectFiles(Ref{Repo: "org/m", Quant: "Q2_K"}, []string{"m-Q4_K_M.gguf", "m-Q8_0.gguf"})
	if err == nil || !strings.Contains(err.Error(), "available: Q4_K_M, Q8_0") {
		t.Fatalf("error %v should list Q4_K_M, Q8_0", err)
	}
}

func TestPathsAreNotRefs(t *testing.T) {
	for _, in := range []string{
		"/tmp/x/missing.gguf", "./does-not-exist", "../m", "~/models/m", ".", "missing.gguf",
		"dir/Model-Q4_0.GGUF", `models\m.gguf`,
	} {
		_, err := ParseRef(in)
		if !errors.Is(err, ErrNoFile) || !errors.Is(err, ErrBadRef) || err.Error() != in+": no such file or directory" {
			t.Errorf("ParseRef(%q): %v; want %q, ErrNoFile and ErrBadRef", in, err, in+": no such file or directory")
		}
	}
	for _, in := range []string{"org/name", "org/name/m-Q4_0.gguf", "hf.co/org/name/sub/m.gguf", "smollm2:135m"} {
		if LooksLikePath(in) {
			t.Errorf("LooksLikePath(%q) = true", in)
		}
	}
}
