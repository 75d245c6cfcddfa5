package openai

import (
	"encoding/json"
	"fmt"
)

// MaxRerankDocuments bounds the documents of one rerank request.
const MaxRerankDocuments = 2048

// RerankRequest is the body of POST /v1/rerank, in the shape of Jina's
// and llama-server's API (Cohere's too).
type RerankRequest struct {
	Model      string            `json:"model"`
	Query      *string           `json:"query"`
	DocsRaw    []json.RawMessage `json:"documents"`
	TopN       *int              `json:"top_n"`
	ReturnDocs *bool             `json:"return_documents"`
	Documents  []string          `json:"-"` // the documents' texts (filled by ParseRerank)
}

// ParseRerank decodes and validates a rerank body. Documents are strings
// or objects with a "text" string (Jina's shape).
func ParseRerank(body []byte) (*RerankRequest, *Error) {
	r := &RerankRequest{}
	if e := decode(body, r, ""); e != nil {
		return nil, e
	}
	switch {
	case r.Model == "":
		return nil, Invalid("model", CodeMissing, "you must provide a model parameter")
	case r.Query == nil:
		return nil, Invalid("query", CodeMissing, "Missing required parameter: 'query'.")
	case *r.Query == "":
		return nil, Invalid("query", CodeInvalidValue, "query must not be empty.")
	case r.DocsRaw == nil:
		return nil, Invalid("documents", CodeMissing, "Missing required parameter: 'documents'.")
	case len(r.DocsRaw) == 0:
		return nil, Invalid("documents", CodeInvalidValue, "documents must not be empty.")
	case len(r.DocsRaw) > MaxRerankDocuments:
		return nil, Invalid("documents", CodeInvalidValue, "documents may hold at most %d documents, got %d.", MaxRerankDocuments, len(r.DocsRaw))
	case r.TopN != nil && *r.TopN < 1:
		return nil, Invalid("top_n", CodeInvalidValue, "top_n must be at least 1, got %d.", *r.TopN)
	}
	r.Documents = make([]string, len(r.DocsRaw))
	for i, raw := range r.DocsRaw {
		p := fmt.Sprintf("documents[%d]", i)
		switch kind(raw) {
		case "string":
			if e := decodeValue(raw, &r.Documents[i], p); e != nil {
				return nil, e
			}
		case "object":
			var d struct {
				Text *string `json:"text"`
			}
			if e := decode(raw, &d, p); e != nil {
				return nil, e
			}
			if d.Text == nil {
				return nil, Invalid(p+".text", CodeMissing, "Missing required parameter: '%s.text'.", p)
			}
			r.Documents[i] = *d.Text
		default:
			return nil, Invalid(p, CodeInvalidType, "%s must be a string or an object with a text string, got %s.", p, kind(raw))
		}
	}
	return r, nil
}

// Results returns how many results to send: top_n, at most one per
// document.
func (r *RerankRequest) Results() int {
	if r.TopN == nil {
		return len(r.Documents)
	}
	return min(*r.TopN, len(r.Documents))
}

// ReturnDocuments reports whether results carry their document's text:
// return_documents, true when unset, as at Jina.
func (r *RerankRequest) ReturnDocuments() bool { return r.ReturnDocs == nil || *r.ReturnDocs }

// RerankDocument is a document as a rerank result returns it.
type RerankDocument struct {
	Text string `json:"text"`
}

// RerankResult is the score of one document.
type RerankResult struct {
	Index          int             `json:"index"`
	RelevanceScore float64         `json:"relevance_score"`
	Document       *RerankDocument `json:"document,omitempty"`
}

// RerankList is the body of a rerank response: the results by score,
// highest first.
type RerankList struct {
	Object  string         `json:"object"` // "list"
	Model   string         `json:"model"`
	Results []RerankResult `json:"results"`
	Usage   EmbeddingUsage `json:"usage"`
}
