package server

import (
	"net/http"

	"github.com/mlxrun/mlx/server/openai"
)

// handleInputTokens serves POST /v1/responses/input_tokens: the tokens of
// the prompt a Responses request would render, its instructions, earlier
// responses, conversation and tools included.
func (s *Server) handleInputTokens(c *call) {
	req, perr := openai.ParseResponseRequest(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	n, err := s.countInputTokens(c, req)
	if err != nil {
		writeError(c.rc, apiError(responseNames.openai(err)))
		return
	}
	writeJSON(c.rc, http.StatusOK, openai.InputTokens{Object: openai.ObjectInputTokens, InputTokens: n})
}

// countInputTokens renders and tokenizes the prompt of a Responses request.
func (s *Server) countInputTokens(c *call, req *openai.ResponseRequest) (int, error) {
	p, err := s.planResponse(req)
	if err != nil {
		return 0, err
	}
	pl, err := p.plan()
	if err != nil {
		return 0, err
	}
	m, _, release, err := s.acquireModel(c, req.Model)
	if err != nil {
		return 0, err
	}
	defer release()
	ctx, stop := watchClient(s.base, c.rc.Conn())
	r, err := pl.renderText(ctx, m)
	stop()
	if err != nil {
		return 0, err
	}
	return len(m.EncodePrompt(r.text)), nil
}
