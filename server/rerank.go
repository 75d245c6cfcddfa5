package server

import (
	"context"
	"sort"

	"github.com/mlxrun/mlx/server/openai"
)

// Reranker is implemented by models that score how well documents answer
// a query: Reranks reports whether this one does, RerankPrompt builds the
// tokens of a pair and Rerank scores a list of them.
type Reranker interface {
	Reranks() bool
	RerankPrompt(query, doc string) []int32
	Rerank(ctx context.Context, inputs [][]int32) ([]float32, error)
}

// handleRerank serves POST /v1/rerank and /rerank.
func (s *Server) handleRerank(c *call) {
	serveOnModel(s, c, openai.ParseRerank, func(r *openai.RerankRequest) string { return r.Model }, s.rerank)
}

// rerank scores every document against the query, in one batch, and
// returns the top results by score.
func (s *Server) rerank(c *call, m Model, req *openai.RerankRequest) (*openai.RerankList, error) {
	rr, ok := m.(Reranker)
	if !ok || !rr.Reranks() {
		return nil, openai.Invalid("model", openai.CodeUnsupported,
			"The model %s is not a reranker: serve a reranker (a GGUF file with pooling_type rank, such as Qwen3-Reranker's or bge-reranker's) or start mlx serve with --pooling rank.", req.Model)
	}
	ctxLen := m.Info().Context
	inputs := make([][]int32, len(req.Documents))
	list := &openai.RerankList{Object: "list", Model: req.Model, Results: make([]openai.RerankResult, len(inputs))}
	for i, doc := range req.Documents {
		ids := rr.RerankPrompt(*req.Query, doc)
		if len(ids) > ctxLen {
			return nil, openai.Invalid("documents", openai.CodeContextLength,
				"This model's maximum context length is %d tokens, and the query with documents[%d] has %d tokens. Shorten them.",
				ctxLen, i, len(ids))
		}
		inputs[i] = ids
		list.Usage.PromptTokens += len(ids)
	}
	list.Usage.TotalTokens = list.Usage.PromptTokens
	ctx, stop := s.watchCall(c, c.rc.Conn())
	defer stop()
	scores, err := rr.Rerank(ctx, inputs)
	if err != nil {
		return nil, err
	}
	for i, score := range scores {
		list.Results[i] = openai.RerankResult{Index: i, RelevanceScore: float64(score)}
		if req.ReturnDocuments() {
			list.Results[i].Document = &openai.RerankDocument{Text: req.Documents[i]}
		}
	}
	sort.SliceStable(list.Results, func(a, b int) bool { return list.Results[a].RelevanceScore > list.Results[b].RelevanceScore })
	list.Results = list.Results[:req.Results()]
	return list, nil
}

// Reranks implements Reranker.
func (m *EngineModel) Reranks() bool { return m.e.Reranks() }

// RerankPrompt implements Reranker.
func (m *EngineModel) RerankPrompt(query, doc string) []int32 { return m.e.RerankPrompt(query, doc) }

// Rerank implements Reranker.
func (m *EngineModel) Rerank(ctx context.Context, inputs [][]int32) ([]float32, error) {
	return m.e.Rerank(ctx, inputs)
}
