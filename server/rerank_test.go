package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture/variant"
	"github.com/mlxrun/mlx/runtime"
)

// fakeReranker scores a document by its length: a prompt holds a token
// per byte of the query, one separator, and a token per byte of the
// document.
type fakeReranker struct{ *fakeModel }

func (f fakeReranker) Reranks() bool { return true }

func (f fakeReranker) RerankPrompt(query, doc string) []int32 {
	return append(f.Tokenize(query+"|", false), f.Tokenize(doc, false)...)
}

func (f fakeReranker) Rerank(_ context.Context, inputs [][]int32) ([]float32, error) {
	scores := make([]float32, len(inputs))
	for i, in := range inputs {
		scores[i] = float32(len(in)) / 100
	}
	return scores, nil
}

// rerankResult is a result of /v1/rerank and of /v2/rerank.
type rerankResult struct {
	Index    int     `json:"index"`
	Score    float64 `json:"relevance_score"`
	Document *struct {
		Text string `json:"text"`
	} `json:"document"`
}

type rerankResp struct {
	Object  string         `json:"object"`
	Model   string         `json:"model"`
	Results []rerankResult `json:"results"`
	Usage   struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

// TestRerank checks the order, top_n, the documents and the usage of
// /v1/rerank and its other paths, with documents as strings and as
// objects.
func TestRerank(t *testing.T) {
	ts := start(t, modelLoader{"rr": fakeReranker{newFake("")}}, Options{})
	docs := []string{"ab", "abcdef", "", "abcd"}
	objs, _ := json.Marshal([]map[string]string{{"text": docs[0]}, {"text": docs[1]}, {"text": docs[2]}, {"text": docs[3]}})
	strs, _ := json.Marshal(docs)
	tests := []struct {
		path, extra, docs string
		n                 int
		withDocs          bool
	}{
		{"/v1/rerank", "", string(strs), 4, true},
		{"/rerank", `,"top_n":2`, string(objs), 2, true},
		{"/v1/reranking", `,"top_n":9,"return_documents":false`, string(strs), 4, false},
	}
	for _, tt := range tests {
		var r rerankResp
		ts.post(t, tt.path, fmt.Sprintf(`{"model":"rr","query":"q"%s,"documents":%s}`, tt.extra, tt.docs), 200, &r)
		if r.Object != "list" || r.Model != "rr" || len(r.Results) != tt.n {
			t.Fatalf("%s %s: %+v", tt.path, tt.extra, r)
		}
		want := []int{1, 3, 0, 2} // by length, longest first
		for k, res := range r.Results {
			if res.Index != want[k] || math.Abs(res.Score-float64(2+len(docs[res.Index]))/100) > 1e-7 {
				t.Errorf("%s: result %d is %+v, want document %d", tt.path, k, res, want[k])
			}
			if got := res.Document != nil; got != tt.withDocs || got && res.Document.Text != docs[res.Index] {
				t.Errorf("%s: result %d document %+v, want it %v", tt.path, k, res.Document, tt.withDocs)
			}
		}
		if n := 4*2 + 12; r.Usage.PromptTokens != n || r.Usage.TotalTokens != n {
			t.Errorf("%s: usage %+v, want %d tokens", tt.path, r.Usage, n)
		}
	}
}

// TestRerankRefused checks the 400s of bad requests and of models that
// do not rerank.
func TestRerankRefused(t *testing.T) {
	short := newFake("")
	short.ctxLen = 8
	ts := start(t, modelLoader{"rr": fakeReranker{newFake("")}, "short": fakeReranker{short}, "chat": newFake("x")}, Options{})
	tests := []struct{ body, param, msg string }{
		{`{"model":"rr","documents":["a"]}`, "query", "Missing required parameter"},
		{`{"model":"rr","query":1,"documents":["a"]}`, "query", "expected a string"},
		{`{"model":"rr","query":"","documents":["a"]}`, "query", "must not be empty"},
		{`{"model":"rr","query":"q"}`, "documents", "Missing required parameter"},
		{`{"model":"rr","query":"q","documents":[]}`, "documents", "must not be empty"},
		{`{"model":"rr","query":"q","documents":"a"}`, "documents", "expected an array"},
		{`{"model":"rr","query":"q","documents":["a", 2]}`, "documents[1]", "must be a string or an object"},
		{`{"model":"rr","query":"q","documents":[{"title":"a"}]}`, "documents[0].text", "Missing required parameter"},
		{`{"model":"rr","query":"q","documents":[{"text":3}]}`, "documents[0].text", "expected a string"},
		{`{"model":"rr","query":"q","documents":["a"],"top_n":0}`, "top_n", "at least 1"},
		{`{"query":"q","documents":["a"]}`, "model", "provide a model"},
		{`{"model":"chat","query":"q","documents":["a"]}`, "model", "not a reranker"},
		{`{"model":"short","query":"q","documents":["a", "a long document"]}`, "documents", "documents[1] has 17 tokens"},
	}
	for _, tt := range tests {
		e := decodeErr(t, ts.post(t, "/v1/rerank", tt.body, 400, nil))
		if e.Error.Param == nil || *e.Error.Param != tt.param || !strings.Contains(e.Error.Message, tt.msg) {
			t.Errorf("%s: %+v, want param %s and %q", tt.body, e.Error, tt.param, tt.msg)
		}
	}
	many := `{"model":"rr","query":"q","documents":[` + strings.Repeat(`"a",`, 2048) + `"a"]}`
	if e := decodeErr(t, ts.post(t, "/v1/rerank", many, 400, nil)); !strings.Contains(e.Error.Message, "at most 2048") {
		t.Errorf("too many documents: %+v", e.Error)
	}
}

// TestRerankEngine serves a Qwen3 reranker fixture and checks that every
// result has the engine's score of its document alone, by rank.
func TestRerankEngine(t *testing.T) {
	e, err := runtime.Load(context.Background(), variant.Qwen3Reranker(t, variant.HeadScaled, false), runtime.Options{Ctx: 1024, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	em, err := NewEngineModel(e)
	if err != nil {
		t.Fatal(err)
	}
	ts := startModels(t, modelLoader{"qwen3-reranker": em})
	query, docs := "Where is Paris?", []string{"Paris is in France.", "Bananas are yellow.", "naïve café 東京", "Paris, France"}
	var r rerankResp
	ts.post(t, "/v1/rerank", fmt.Sprintf(`{"model":"qwen3-reranker","query":%q,"documents":["%s"]}`, query, strings.Join(docs, `","`)), 200, &r)
	if len(r.Results) != len(docs) {
		t.Fatalf("%d results for %d documents", len(r.Results), len(docs))
	}
	if !sort.SliceIsSorted(r.Results, func(a, b int) bool { return r.Results[a].Score > r.Results[b].Score }) {
		t.Errorf("results not by score: %+v", r.Results)
	}
	tokens := 0
	for _, res := range r.Results {
		in := e.RerankPrompt(query, docs[res.Index])
		tokens += len(in)
		alone, err := e.Rerank(context.Background(), [][]int32{in})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Score-float64(alone[0])) > 1e-6 {
			t.Errorf("document %d: served score %v, alone %v", res.Index, res.Score, alone[0])
		}
	}
	if r.Usage.PromptTokens != tokens {
		t.Errorf("usage %+v, want %d tokens", r.Usage, tokens)
	}
	var emb embResp
	b := ts.post(t, "/v1/embeddings", `{"model":"qwen3-reranker","input":"a"}`, 400, &emb)
	if e := decodeErr(t, b); !strings.Contains(e.Error.Message, "is a reranker") {
		t.Errorf("embeddings from a reranker: %+v", e.Error)
	}
}
