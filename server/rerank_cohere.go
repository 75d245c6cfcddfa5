package server

import (
	"net/http"

	"github.com/mlxrun/mlx/server/cohere"
	"github.com/mlxrun/mlx/server/openai"
)

// handleRerankV2 serves POST /v2/rerank, Cohere's shape of /v1/rerank:
// the same request, scores and errors, answered with Cohere's response
// (id, results, meta) and error bodies ({"id", "message"}). As at Cohere,
// results carry their documents only when return_documents is true.
func (s *Server) handleRerankV2(c *call) {
	id := newID("", 32)
	fail := func(e *openai.Error) { writeErrorBody(c.rc, e.Status, cohere.ErrorBody(id, e.Message)) }
	req, perr := openai.ParseRerank(c.rc.PostBody())
	if perr != nil {
		fail(perr)
		return
	}
	if req.ReturnDocs == nil {
		no := false
		req.ReturnDocs = &no
	}
	m, _, release, err := s.acquire(c, req.Model)
	if err != nil {
		fail(apiError(err))
		return
	}
	defer release()
	list, err := s.rerank(c, m, req)
	if err != nil {
		fail(apiError(err))
		return
	}
	out := &cohere.RerankResponse{ID: id, Results: make([]cohere.Result, len(list.Results)),
		Meta: cohere.Meta{APIVersion: cohere.APIVersion{Version: "2"},
			BilledUnits: cohere.BilledUnits{SearchUnits: cohere.SearchUnits(len(req.Documents))},
			Tokens:      cohere.Tokens{InputTokens: list.Usage.PromptTokens}}}
	for i, r := range list.Results {
		out.Results[i] = cohere.Result{Index: r.Index, RelevanceScore: r.RelevanceScore}
		if r.Document != nil {
			out.Results[i].Document = &cohere.Document{Text: r.Document.Text}
		}
	}
	writeJSON(c.rc, http.StatusOK, out)
}
