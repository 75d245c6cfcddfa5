package server

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"math"
	"net/http"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
)

// Embedder is implemented by models that embed token sequences: Embed
// returns one vector per input, pooled as Pooling says (config.PoolMean,
// ...), not normalised; with config.PoolNone, every token's vector one
// after the other.
type Embedder interface {
	Embed(ctx context.Context, inputs [][]int32) ([][]float32, error)
	Pooling() string
}

// handleEmbeddings serves POST /v1/embeddings.
func (s *Server) handleEmbeddings(c *call) {
	serveOnModel(s, c, openai.ParseEmbedding, func(r *openai.EmbeddingRequest) string { return r.Model }, s.embed)
}

// serveOnModel is the shape of the endpoints that answer one JSON body
// computed on one model: parse the request, acquire the model it names,
// run, and write the result or the error.
func serveOnModel[Req, Resp any](s *Server, c *call, parse func([]byte) (Req, *openai.Error),
	model func(Req) string, run func(*call, Model, Req) (Resp, error)) {
	req, perr := parse(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	m, _, release, err := s.acquire(c, model(req))
	if err != nil {
		writeError(c.rc, apiError(err))
		return
	}
	defer release()
	out, err := run(c, m, req)
	if err != nil {
		writeError(c.rc, apiError(err))
		return
	}
	writeJSON(c.rc, http.StatusOK, out)
}

// embed tokenizes the inputs, runs them through the model together and
// encodes the vectors.
func (s *Server) embed(c *call, m Model, req *openai.EmbeddingRequest) (*openai.EmbeddingList, error) {
	emb, err := embedder(m, req.Model)
	if err != nil {
		return nil, err
	}
	ctxLen := m.Info().Context
	inputs := make([][]int32, len(req.Inputs))
	list := &openai.EmbeddingList{Object: "list", Model: req.Model, Data: make([]openai.Embedding, len(req.Inputs))}
	for i, in := range req.Inputs {
		cp, err := completionPrompt(m, in, in.Param, false)
		if err != nil {
			return nil, err
		}
		ids := cp.ids
		if len(ids) > ctxLen {
			if !req.Truncate {
				return nil, openai.Invalid(in.Param, openai.CodeContextLength,
					"This model's maximum context length is %d tokens, and %s has %d tokens. Shorten it, or send \"truncate\": true to embed its first %d tokens.",
					ctxLen, in.Param, len(ids), ctxLen)
			}
			ids = ids[:ctxLen]
		}
		if len(ids) == 0 {
			return nil, openai.Invalid(in.Param, openai.CodeInvalidValue, "%s has no tokens to embed.", in.Param)
		}
		inputs[i] = ids
		list.Usage.PromptTokens += len(ids)
	}
	list.Usage.TotalTokens = list.Usage.PromptTokens
	ctx, stop := s.watchCall(c, c.rc.Conn())
	defer stop()
	vecs, err := emb.Embed(ctx, inputs)
	if err != nil {
		return nil, err
	}
	for i, v := range vecs {
		if d := req.Dimensions; d != nil {
			if *d > len(v) {
				return nil, openai.Invalid("dimensions", openai.CodeInvalidValue,
					"dimensions must be at most %d, the size of this model's embeddings, got %d.", len(v), *d)
			}
			v = v[:*d]
		}
		runtime.Normalize(v)
		list.Data[i] = openai.Embedding{Object: "embedding", Index: i, Embedding: encodeVector(v, req.EncodingFormat)}
	}
	return list, nil
}

// embedder returns m's Embedder, or the 400 of a model (named model) that
// has none or that pools nothing, since the APIs take one vector per input.
func embedder(m Model, model string) (Embedder, error) {
	emb, ok := m.(Embedder)
	if !ok {
		return nil, openai.Invalid("model", openai.CodeUnsupported, "The model %s cannot compute embeddings.", model)
	}
	if emb.Pooling() == config.PoolRank {
		return nil, openai.Invalid("model", openai.CodeUnsupported,
			"The model %s is a reranker: it scores documents on /v1/rerank; to embed with it, start mlx serve with --pooling mean, cls or last.", model)
	}
	if emb.Pooling() == config.PoolNone {
		return nil, openai.Invalid("model", openai.CodeUnsupported,
			"The model %s pools nothing (a vector per token), and the API takes one vector per input: start mlx serve with --pooling mean, cls or last.", model)
	}
	return emb, nil
}

// encodeVector returns v as the API sends it: the floats, or the base64 of
// their little-endian float32 bytes.
func encodeVector(v []float32, format string) any {
	if format != openai.EncodingBase64 {
		return v
	}
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// Embed implements Embedder with the engine's pooling.
func (m *EngineModel) Embed(ctx context.Context, inputs [][]int32) ([][]float32, error) {
	return m.e.Embed(ctx, inputs, m.e.Pooling())
}

// Pooling implements Embedder.
func (m *EngineModel) Pooling() string { return m.e.Pooling() }
