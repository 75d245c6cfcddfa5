package runtime

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/fixture/variant"
)

// rerankQuery and rerankDocs are the pairs the reranker tests score:
// plain, unicode, and a document long enough to span several cache blocks.
var (
	rerankQuery = "What is the capital of France?"
	rerankDocs  = []string{
		"The capital of France is Paris.",
		"naïve café – 東京 ✓ 🙂",
		"Bananas are yellow.",
		strings.Repeat("A long document that fills many blocks of the cache. ", 20),
	}
)

// rerankScores loads path and scores rerankDocs against rerankQuery.
func rerankScores(t *testing.T, path string) []float32 {
	t.Helper()
	e, err := Load(context.Background(), path, Options{Threads: 2, Ctx: 1024})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	return rerankWith(t, e)
}

// rerankWith scores rerankDocs against rerankQuery with e, the documents
// in one call.
func rerankWith(t *testing.T, e *Engine) []float32 {
	t.Helper()
	inputs := make([][]int32, len(rerankDocs))
	for i, d := range rerankDocs {
		inputs[i] = e.RerankPrompt(rerankQuery, d)
	}
	scores, err := e.Rerank(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	return scores
}

// TestRerankHeadFromTokens checks that a Qwen3 reranker without a cls.output
// tensor scores with the rows of "yes" and "no" of its output matrix,
// exactly as with the head the converter writes from them.
func TestRerankHeadFromTokens(t *testing.T) {
	withHead, fromTokens := rerankScores(t, variant.Qwen3Reranker(t, variant.HeadTokens, false)), rerankScores(t, variant.Qwen3Reranker(t, variant.HeadNone, false))
	if !slices.Equal(withHead, fromTokens) {
		t.Errorf("scores with the head %v, from the tokens %v", withHead, fromTokens)
	}
	for i, s := range withHead {
		if !(s > 0 && s < 1) {
			t.Errorf("document %d: score %v is not a probability", i, s)
		}
	}
	if slices.Min(withHead) == slices.Max(withHead) {
		t.Errorf("every document scores %v", withHead[0])
	}
}

// TestRerankPromptTemplate checks the prompt of a reranker with a "rerank"
// template: the template's text with the query and the document, special
// tokens parsed, nothing added; and that a Qwen3 reranker without one
// (served with rank pooling) gets the same prompt.
func TestRerankPromptTemplate(t *testing.T) {
	e := loadReranker(t, variant.Qwen3Reranker(t, variant.HeadNone, false), "")
	got := e.RerankPrompt("q?", "d.")
	text := strings.NewReplacer("{query}", "q?", "{document}", "d.").Replace(variant.Qwen3RerankTemplate)
	want := e.Tokenizer().Encode(text, false)
	if !slices.Equal(got, want) {
		t.Fatalf("prompt %v, want %v", got, want)
	}
	if start, ok := e.Tokenizer().TokenID("<|im_start|>"); !ok || int(got[0]) != start {
		t.Errorf("the prompt starts with %d, want <|im_start|> parsed as a special token", got[0])
	}
	plain := loadReranker(t, fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf"), config.PoolRank)
	if !plain.Reranks() {
		t.Fatal("a Qwen3 model with rank pooling does not rerank")
	}
	if p := plain.RerankPrompt("q?", "d."); !slices.Equal(p, got) {
		t.Errorf("without a template the prompt is %v, want %v", p, got)
	}
}

// loadReranker loads path with pooling ("" for the file's).
func loadReranker(t *testing.T, path, pooling string) *Engine {
	t.Helper()
	e, err := Load(context.Background(), path, Options{Threads: 1, Ctx: 256, Pooling: pooling})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestRerankNotReranker checks that a model without rank pooling refuses
// Rerank with a clear error.
func TestRerankNotReranker(t *testing.T) {
	e := loadReranker(t, fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf"), "")
	if e.Reranks() {
		t.Error("a model without rank pooling says it reranks")
	}
	_, err := e.Rerank(context.Background(), [][]int32{{1, 2}})
	if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "not a reranker") {
		t.Errorf("Rerank on a chat model: %v", err)
	}
}

// TestRerankerEmbed checks that rank pooling of a Qwen3 reranker gives the
// probabilities of "yes" and "no", as llama.cpp's does, and that it embeds
// with another pooling.
func TestRerankerEmbed(t *testing.T) {
	e := loadReranker(t, variant.Qwen3Reranker(t, variant.HeadNone, false), "")
	out, err := e.Embed(context.Background(), [][]int32{{1, 2}, {3, 4, 5}}, e.Pooling())
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range out {
		if len(p) != 2 || math.Abs(float64(p[0]+p[1])-1) > 1e-6 {
			t.Errorf("input %d: rank pooling gave %v, want two probabilities", i, p)
		}
	}
	if _, err := e.Embed(context.Background(), [][]int32{{1, 2}}, config.PoolLast); err != nil {
		t.Errorf("Embed with last pooling: %v", err)
	}
}
