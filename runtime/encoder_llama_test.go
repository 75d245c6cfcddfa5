package runtime

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
)

// encoderFixtures are the random-weight encoders that
// models/fixture/encoders.sh makes: a Hugging Face directory of each
// architecture and its conversion by llama.cpp's converter.
var encoderFixtures = []string{"bert", "nomic-bert", "xlm-roberta", "xlm-roberta-reranker"}

// encoderDir returns the directory of the encoder fixtures
// (MLX_ENCODER_FIXTURES, as models/fixture/encoders.sh prints it), or
// skips the test.
func encoderDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MLX_ENCODER_FIXTURES")
	if dir == "" {
		t.Skip("MLX_ENCODER_FIXTURES (the output of models/fixture/encoders.sh) is not set")
	}
	return dir
}

// embedAll loads ref and embeds embedTexts in one call, pooled as pooling
// says ("" for the model's own pooling).
func embedAll(t *testing.T, ref, pooling string) [][]float32 {
	t.Helper()
	e, err := Load(context.Background(), ref, Options{Threads: 2, Ctx: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	inputs := make([][]int32, len(embedTexts))
	for i, text := range embedTexts {
		inputs[i] = e.Tokenizer().Encode(text, true)
	}
	if pooling == "" {
		pooling = e.Pooling()
	}
	got, err := e.Embed(context.Background(), inputs, pooling)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestEncoderMatchesLlamaCpp compares the embeddings of each encoder
// architecture (in float32, and some in F16 or Q8_0), and of a
// Qwen3-Embedding style decoder (last-token pooling from the file), with llama.cpp's llama-embedding on the same GGUF file,
// every input in one call on both sides: cosine ≥ 0.9999 for each.
func TestEncoderMatchesLlamaCpp(t *testing.T) {
	dir := encoderDir(t)
	bin := os.Getenv("LLAMA_BIN_DIR")
	if bin == "" {
		t.Skip("LLAMA_BIN_DIR (a llama.cpp build with llama-embedding) is not set")
	}
	for _, name := range append(encoderFixtures, "bert-F16", "nomic-bert-Q8_0", "xlm-roberta-reranker-Q8_0", "qwen3-embedding",
		"embedding-gemma") {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".gguf")
			got := embedAll(t, path, "")
			want := llamaEmbeddings(t, filepath.Join(bin, "llama-embedding"), path, "")
			if len(want) != len(got) {
				t.Fatalf("llama-embedding gave %d vectors for %d inputs", len(want), len(got))
			}
			worst := 1.0
			for i := range got {
				c := cosine(got[i], want[i])
				if c < 0.9999 {
					t.Errorf("input %d has cosine %.6f with llama.cpp's vector", i, c)
				}
				worst = min(worst, c)
			}
			t.Logf("%s: lowest cosine %.7f", name, worst)
		})
	}
}

// TestEncoderHFMatchesGGUF checks that each encoder gives the same
// embeddings from its Hugging Face directory (sentence-transformers
// layout, its pooling from 1_Pooling) as from llama.cpp's conversion of
// it.
func TestEncoderHFMatchesGGUF(t *testing.T) {
	dir := encoderDir(t)
	for _, name := range encoderFixtures {
		t.Run(name, func(t *testing.T) {
			hf := embedAll(t, filepath.Join(dir, name), "")
			gg := embedAll(t, filepath.Join(dir, name+".gguf"), "")
			for i := range hf {
				if c := cosine(hf[i], gg[i]); c < 0.999999 {
					t.Errorf("input %d: cosine %.7f between the directory's vector and the GGUF file's", i, c)
				}
			}
		})
	}
}

// TestEncoderHFReranksAsGGUF checks that the cross-encoder's Hugging Face
// directory reranks as its GGUF conversion: its tokenizer.json's pair
// template (RobertaProcessing, as bge-reranker's) frames each query and
// document as [CLS] query [SEP] [SEP] document [SEP], the tokens that
// llama.cpp's flags give the GGUF file, and the scores agree within
// 1e-2: the directory runs transformers' erf GELU and the GGUF file
// llama.cpp's tanh GELU from a table of halves, 2e-3 apart on logits of up
// to 7.5, where a pair framed otherwise scores whole units away.
func TestEncoderHFReranksAsGGUF(t *testing.T) {
	dir := encoderDir(t)
	var engines [2]*Engine
	for i, ref := range []string{"xlm-roberta-reranker", "xlm-roberta-reranker.gguf"} {
		e, err := Load(context.Background(), filepath.Join(dir, ref), Options{Threads: 2, Ctx: 512})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		engines[i] = e
	}
	hf, gg := engines[0], engines[1]
	for _, d := range rerankDocs {
		if a, b := hf.RerankPrompt(rerankQuery, d), gg.RerankPrompt(rerankQuery, d); !slices.Equal(a, b) {
			t.Errorf("document %.20q: the directory frames the pair as %v, the GGUF file as %v", d, a, b)
		}
	}
	hs, gs := rerankWith(t, hf), rerankWith(t, gg)
	for i := range hs {
		if d := math.Abs(float64(hs[i] - gs[i])); d > 1e-2 {
			t.Errorf("document %d: score %.6f from the directory, %.6f from the GGUF file", i, hs[i], gs[i])
		}
	}
	t.Logf("scores %v from the directory, %v from the GGUF file", hs, gs)
}

// TestEncoderRefusesGenerate checks that an encoder says it embeds only
// when asked to generate.
func TestEncoderRefusesGenerate(t *testing.T) {
	path := filepath.Join(encoderDir(t), "bert.gguf")
	e, err := Load(context.Background(), path, Options{Threads: 2, Ctx: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.Generate(context.Background(), Request{Prompt: []int32{101, 7592, 102}}, func(Event) error { return nil })
	if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "encoder") {
		t.Errorf("Generate on an encoder gave %v", err)
	}
}

// TestEncoderRankMatchesLlamaCpp compares the scores of a cross-encoder's
// classification head (XLM-RoBERTa with one label, as bge-reranker) with
// llama-embedding's rank pooling on the same GGUF file, within 1e-4.
// llama-embedding prints each input's row of n_embd values, whose first
// is the score.
func TestEncoderRankMatchesLlamaCpp(t *testing.T) {
	dir := encoderDir(t)
	bin := os.Getenv("LLAMA_BIN_DIR")
	if bin == "" {
		t.Skip("LLAMA_BIN_DIR (a llama.cpp build with llama-embedding) is not set")
	}
	path := filepath.Join(dir, "xlm-roberta-reranker.gguf")
	got := embedAll(t, path, config.PoolRank)
	want := llamaEmbeddings(t, filepath.Join(bin, "llama-embedding"), path, config.PoolRank, "--embd-normalize", "-1")
	for i := range got {
		if len(got[i]) != 1 || len(want[i]) == 0 || math.Abs(float64(got[i][0]-want[i][0])) > 1e-4 {
			t.Errorf("input %d: score %v, llama.cpp's %v", i, got[i], want[i][:min(1, len(want[i]))])
		}
	}
}

// TestRankNeedsHead checks that rank pooling on an encoder without a
// classification head is a clear request error.
func TestRankNeedsHead(t *testing.T) {
	e, err := Load(context.Background(), filepath.Join(encoderDir(t), "bert.gguf"), Options{Threads: 2, Ctx: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Embed(context.Background(), [][]int32{{101, 102}}, config.PoolRank); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("rank pooling without a head gave %v", err)
	}
}

// TestQwen3EmbeddingPooling checks that a qwen3 GGUF file with
// pooling_type last, as Qwen3-Embedding's are, pools the last token by
// default, and that its inputs end with the <|endoftext|> it embeds.
func TestQwen3EmbeddingPooling(t *testing.T) {
	e, err := Load(context.Background(), filepath.Join(encoderDir(t), "qwen3-embedding.gguf"), Options{Threads: 2, Ctx: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ids := e.Tokenizer().Encode("What is the capital of China?", true)
	if p := e.Pooling(); p != config.PoolLast {
		t.Errorf("pooling %q, want last", p)
	}
	if last := e.Tokenizer().Token(int(ids[len(ids)-1])); last != "<|endoftext|>" {
		t.Errorf("the input ends with %q, not <|endoftext|>", last)
	}
}

// TestEncoderPasses checks that inputs which do not fit in one forward
// pass together each go whole into a pass, and embed as they do alone.
func TestEncoderPasses(t *testing.T) {
	// Four sequences' room in the cache, so that the inputs are computed
	// in one group, in passes of at most a context of rows.
	e, err := Load(context.Background(), filepath.Join(encoderDir(t), "bert.gguf"), Options{Threads: 2, Ctx: 512, Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var inputs [][]int32
	for _, text := range []string{embedTexts[2], embedTexts[2] + " More.", embedTexts[1]} {
		inputs = append(inputs, e.Tokenizer().Encode(text, true))
	}
	if n := len(inputs[0]) + len(inputs[1]); n <= e.state.MaxRows() {
		t.Fatalf("the inputs (%d tokens) fit in one pass of %d rows", n, e.state.MaxRows())
	}
	all, err := e.Embed(context.Background(), inputs, config.PoolMean)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range inputs {
		one, err := e.Embed(context.Background(), [][]int32{in}, config.PoolMean)
		if err != nil {
			t.Fatal(err)
		}
		if c := cosine(all[i], one[0]); c < 0.9999999 {
			t.Errorf("input %d: cosine %.7f with its vector alone", i, c)
		}
	}
}
