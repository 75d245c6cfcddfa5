package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// cohereRerank is the body of a /v2/rerank response.
type cohereRerank struct {
	ID      string         `json:"id"`
	Results []rerankResult `json:"results"`
	Meta    struct {
		APIVersion struct {
			Version string `json:"version"`
		} `json:"api_version"`
		BilledUnits struct {
			SearchUnits int `json:"search_units"`
		} `json:"billed_units"`
		Tokens struct {
			InputTokens int `json:"input_tokens"`
		} `json:"tokens"`
	} `json:"meta"`
}

// TestRerankCohere checks Cohere's shape of /v1/rerank on /v2/rerank: the
// same order and scores, top_n, documents only when asked for, and meta.
func TestRerankCohere(t *testing.T) {
	ts := start(t, modelLoader{"rr": fakeReranker{newFake("")}}, Options{})
	body := `{"model":"rr","query":"q","documents":["ab","abcdef","","abcd"]`
	var v1 rerankResp
	ts.post(t, "/v1/rerank", body+`}`, 200, &v1)
	for _, tt := range []struct {
		extra    string
		n        int
		withDocs bool
	}{{"", 4, false}, {`,"top_n":2,"return_documents":true`, 2, true}} {
		var r cohereRerank
		ts.post(t, "/v2/rerank", body+tt.extra+`}`, 200, &r)
		if r.ID == "" || r.Meta.APIVersion.Version != "2" || r.Meta.BilledUnits.SearchUnits != 1 || r.Meta.Tokens.InputTokens != v1.Usage.PromptTokens {
			t.Errorf("%s: id %q, meta %+v", tt.extra, r.ID, r.Meta)
		}
		if len(r.Results) != tt.n {
			t.Fatalf("%s: %d results, want %d", tt.extra, len(r.Results), tt.n)
		}
		for k, res := range r.Results {
			if want := v1.Results[k]; res.Index != want.Index || res.Score != want.Score {
				t.Errorf("%s: result %d is %+v, /v1/rerank's %+v", tt.extra, k, res, want)
			}
			if (res.Document != nil) != tt.withDocs {
				t.Errorf("%s: result %d document %+v", tt.extra, k, res.Document)
			}
		}
	}
}

// TestRerankCohereRefused checks that the 400s of /v2/rerank come in
// Cohere's error body: an id and a message.
func TestRerankCohereRefused(t *testing.T) {
	ts := start(t, modelLoader{"rr": fakeReranker{newFake("")}, "chat": newFake("x")}, Options{})
	for _, tt := range []struct{ body, msg string }{
		{`{"model":"rr","query":"q","documents":[]}`, "must not be empty"},
		{`{"model":"rr","query":"","documents":["a"]}`, "query must not be empty"},
		{`{"model":"rr","query":"q","documents":[` + strings.Repeat(`"a",`, 2048) + `"a"]}`, "at most 2048"},
		{`{"model":"chat","query":"q","documents":["a"]}`, "not a reranker"},
	} {
		var e struct {
			ID      string          `json:"id"`
			Message string          `json:"message"`
			Error   json.RawMessage `json:"error"`
		}
		ts.post(t, "/v2/rerank", tt.body, 400, &e)
		if e.ID == "" || !strings.Contains(e.Message, tt.msg) || e.Error != nil {
			t.Errorf("%.60s: %+v, want an id and %q", tt.body, e, tt.msg)
		}
	}
}
