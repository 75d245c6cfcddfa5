// Package cohere holds the wire types of Cohere's v2 rerank API
// (POST /v2/rerank), which its official SDKs call: the response and the
// error body. The request has the fields of the Jina and llama-server
// shape that openai.ParseRerank reads.
package cohere

import "encoding/json"

// RerankResponse is the body of a v2 rerank response.
type RerankResponse struct {
	ID      string   `json:"id"`
	Results []Result `json:"results"` // by relevance, highest first
	Meta    Meta     `json:"meta"`
}

// Result is the relevance of one document.
type Result struct {
	Index          int       `json:"index"`
	RelevanceScore float64   `json:"relevance_score"`
	Document       *Document `json:"document,omitempty"` // with return_documents
}

// Document is a document as a result returns it.
type Document struct {
	Text string `json:"text"`
}

// Meta is what Cohere reports beside the results: the API version, the
// billed search units (one per request of at most 100 documents) and the
// tokens read.
type Meta struct {
	APIVersion  APIVersion  `json:"api_version"`
	BilledUnits BilledUnits `json:"billed_units"`
	Tokens      Tokens      `json:"tokens"`
}

// APIVersion names the version of the API, "2".
type APIVersion struct {
	Version string `json:"version"`
}

// BilledUnits counts search units.
type BilledUnits struct {
	SearchUnits int `json:"search_units"`
}

// Tokens counts the tokens a request read and wrote.
type Tokens struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// SearchUnits returns the search units of a request of n documents: one
// per hundred, at least one.
func SearchUnits(n int) int { return max(1, (n+99)/100) }

// ErrorBody returns Cohere's error body: the request's id and a message.
func ErrorBody(id, message string) []byte {
	b, _ := json.Marshal(struct {
		ID      string `json:"id"`
		Message string `json:"message"`
	}{id, message})
	return b
}
