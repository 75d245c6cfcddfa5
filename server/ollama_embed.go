package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/ollama"
)

// handleOllamaEmbed serves POST /api/embed: one unit-length vector per
// input text. Inputs longer than the context are cut unless truncate is
// false, as Ollama does.
func (s *Server) handleOllamaEmbed(c *call) {
	req, texts, truncate, err := ollama.DecodeEmbed(c.rc.PostBody())
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	began := time.Now()
	m, id, release, err := s.acquire(c, req.Model)
	if err != nil {
		writeOllamaError(c.rc, ollamaNotFound(req.Model, err))
		return
	}
	defer release()
	keep, _ := ollama.DecodeKeepAlive(req.KeepAlive) // DecodeEmbed checked it
	s.keepAlive(id, keep)
	load := time.Since(began)
	emb, err := embedder(m, req.Model)
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	ctxLen := m.Info().Context
	out := ollama.EmbedResponse{Model: req.Model, LoadDuration: int64(load)}
	inputs := make([][]int32, len(texts))
	for i, text := range texts {
		ids := m.EncodePrompt(text)
		if ctxLen > 0 && len(ids) > ctxLen {
			if !truncate {
				writeOllamaError(c.rc, &ollama.BadRequest{Msg: fmt.Sprintf("input %d has %d tokens, more than the context length of %d", i, len(ids), ctxLen)})
				return
			}
			ids = ids[:ctxLen]
		}
		inputs[i] = ids
		out.PromptEvalCount += len(ids)
	}
	ctx, stop := s.watchCall(c, c.rc.Conn())
	vecs, err := emb.Embed(ctx, inputs)
	stop()
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	for _, v := range vecs {
		if d := req.Dimensions; d > 0 && d < len(v) {
			v = v[:d]
		}
		runtime.Normalize(v)
		out.Embeddings = append(out.Embeddings, v)
	}
	out.TotalDuration = int64(time.Since(c.start))
	writeJSON(c.rc, http.StatusOK, out)
}
