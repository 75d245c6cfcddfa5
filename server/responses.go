package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/sse"
	"github.com/mlxrun/mlx/store"
)

// cancelWait bounds how long POST /v1/responses/{id}/cancel waits for the
// generation to stop.
const cancelWait = 10 * time.Second

func (s *Server) responsesEnabled() bool     { return s.opt.ResponseStore.MaxEntries > 0 }
func (s *Server) conversationsEnabled() bool { return s.opt.ConversationStore.MaxEntries > 0 }

// handleCreateResponse serves POST /v1/responses: the request and its
// history become a plan whose stream a respBuilder turns into the
// response and its events.
func (s *Server) handleCreateResponse(c *call) {
	req, perr := openai.ParseResponseRequest(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	p, err := s.planResponse(req)
	if err != nil {
		writeError(c.rc, apiError(err))
		return
	}
	pl, err := p.plan()
	if err != nil {
		writeError(c.rc, apiError(responseNames.openai(err)))
		return
	}
	m, id, release, err := s.acquire(c, req.Model)
	if err != nil {
		writeError(c.rc, apiError(err))
		return
	}
	maxCalls := -1
	if req.MaxToolCalls != nil {
		maxCalls = *req.MaxToolCalls
	}
	if !openai.Flag(req.ParallelToolCalls, true) && (maxCalls < 0 || maxCalls > 1) {
		maxCalls = 1 // soft: the calls after the first are dropped
	}
	b := newRespBuilder(newTokenTexts(m), pl.logprobs, maxCalls)
	ctx, stop := watchClient(s.base, c.rc.Conn())
	st, err := s.prepare(ctx, m, pl, b)
	stop()
	if err != nil {
		release()
		writeError(c.rc, apiError(responseNames.openai(err)))
		return
	}
	b.st, b.resp = st, p.initial(st.reqs[0].Params)
	c.rc.Response.Header.Set("X-Request-Id", p.id)
	run := &responseRun{plan: p, b: b, r: s.newRunner(c, m, id)}
	gen := func(ctx context.Context) error { return s.runResponse(ctx, run) }
	if !req.Streamed {
		respondWhole(s, c, release, gen, func() any { return &b.resp }, writeAPIError)
		return
	}
	streamSSE(s, c, release, func(ctx context.Context, w *sse.Writer) error {
		b.emit = func(ev openai.StreamEvent) error {
			data, err := json.Marshal(ev)
			if err != nil {
				return err
			}
			return w.Event(ev.Header().Type, data)
		}
		return gen(ctx)
	})
}

// initial is the response object before generation: the request's
// settings, the sampling values in use where it sets none, no output.
func (p *responsePlan) initial(sp sample.Params) openai.Response {
	r := p.req
	resp := openai.Response{ID: p.id, Object: openai.ObjectResponse, CreatedAt: p.created.Unix(), Status: openai.StatusInProgress,
		Instructions: r.Instructions, MaxOutputTokens: r.MaxOutputTokens, MaxToolCalls: r.MaxToolCalls, Model: r.Model,
		Output: []openai.Item{}, ParallelToolCalls: openai.Flag(r.ParallelToolCalls, true), PreviousResponseID: r.PreviousResponseID,
		PromptCacheKey: r.PromptCacheKey, SafetyIdentifier: r.SafetyIdentifier, ServiceTier: "auto", Store: p.store,
		Temperature: &sp.Temperature, TopP: &sp.TopP, ToolChoice: r.ToolChoice.Echo(), Tools: r.Tools,
		TopLogprobs: r.TopLogprobCount(), Truncation: "disabled", User: r.User, Metadata: r.Metadata,
		Text: openai.TextConfig{Format: &openai.TextFormat{Type: "text"}}}
	if r.Temperature != nil {
		resp.Temperature = r.Temperature // as asked: top_p 0 samples greedily
	}
	if r.TopP != nil {
		resp.TopP = r.TopP
	}
	if r.ServiceTier != nil {
		resp.ServiceTier = *r.ServiceTier
	}
	if r.Text != nil && r.Text.Format != nil {
		resp.Text = *r.Text
	}
	if r.Reasoning != nil {
		resp.Reasoning = openai.ReasoningConfig{Effort: r.Reasoning.Effort, Summary: r.Reasoning.Summary}
	}
	if r.Conversation != "" {
		resp.Conversation = &openai.ConversationRef{ID: r.Conversation}
	}
	if resp.Tools == nil {
		resp.Tools = []openai.FunctionTool{}
	}
	if resp.Metadata == nil {
		resp.Metadata = map[string]string{}
	}
	return resp
}

// handleResponse serves GET and DELETE /v1/responses/{id}.
func (s *Server) handleResponse(c *call, id string) {
	if !s.respStoreReady(c, id) {
		return
	}
	if string(c.rc.Method()) == http.MethodDelete {
		s.live.markDeleted(id)
		if err := s.responses.Delete(id); err != nil {
			writeError(c.rc, storeError(err, "Response", id))
			return
		}
		writeJSON(c.rc, http.StatusOK, openai.Deleted{ID: id, Object: openai.ObjectResponse, Deleted: true})
		return
	}
	if openai.Flag(boolQuery(c, "stream"), false) {
		writeError(c.rc, openai.Invalid("stream", openai.CodeUnsupported, "Streaming a stored response again is not supported: retrieve it without 'stream'."))
		return
	}
	rec, err := s.responses.Get(id)
	if err != nil {
		writeError(c.rc, storeError(err, "Response", id))
		return
	}
	writeRaw(c, rec.Object)
}

// handleCancelResponse serves POST /v1/responses/{id}/cancel: it stops
// the generation of a response in progress and returns its final record.
func (s *Server) handleCancelResponse(c *call, id string) {
	if !s.respStoreReady(c, id) {
		return
	}
	rec, err := s.responses.Cancel(id)
	if err != nil {
		writeError(c.rc, storeError(err, "Response", id))
		return
	}
	if !rec.Status.Running() {
		writeError(c.rc, openai.Invalid("", openai.CodeInvalidValue, "Only a response in progress can be cancelled: '%s' is %s.", id, rec.Status))
		return
	}
	if done := s.live.done(id); done != nil {
		select {
		case <-done:
		case <-time.After(cancelWait):
		}
	}
	if rec, err = s.responses.Get(id); err != nil {
		writeError(c.rc, storeError(err, "Response", id))
		return
	}
	writeRaw(c, rec.Object)
}

// handleInputItems serves GET /v1/responses/{id}/input_items.
func (s *Server) handleInputItems(c *call, id string) {
	if !s.respStoreReady(c, id) {
		return
	}
	writePage(c, "Response", id, s.responses.InputItems)
}

// respStoreReady answers the error of a disabled response store and
// reports whether the request may go on.
func (s *Server) respStoreReady(c *call, id string) bool {
	if !s.responsesEnabled() {
		writeError(c.rc, storeError(store.ErrDisabled, "Response", id))
	}
	return s.responsesEnabled()
}

// writeRaw writes a stored JSON object.
func writeRaw(c *call, obj json.RawMessage) {
	c.rc.SetStatusCode(http.StatusOK)
	c.rc.SetContentType("application/json")
	c.rc.SetBody(obj)
}
