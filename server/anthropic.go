package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/mlxrun/mlx/server/anthropic"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/sse"
)

// anthropicPrefix is the path of Anthropic's Messages API, whose routes
// answer errors in its shape.
const anthropicPrefix = "/v1/messages"

// handleMessages serves POST /v1/messages.
func (s *Server) handleMessages(c *call) {
	req, perr := anthropic.Parse(c.rc.PostBody(), false)
	if perr != nil {
		writeAnthropicError(c.rc, perr)
		return
	}
	m, id, release, err := s.acquire(c, req.Model)
	if err != nil {
		writeAnthropicError(c.rc, anthropicError(err))
		return
	}
	ctx, stop := watchClient(s.base, c.rc.Conn())
	g, err := s.newMessagesGen(ctx, m, req)
	stop()
	if err != nil {
		release()
		writeAnthropicError(c.rc, anthropicError(err))
		return
	}
	c.rc.Response.Header.Set("X-Request-Id", g.resp.ID)
	r := s.newRunner(c, m, id)
	run := func(ctx context.Context) error {
		if err := g.start(); err != nil {
			return err
		}
		return g.st.run(ctx, r)
	}
	if !req.Stream {
		respondWhole(s, c, release, run, func() any { return g.resp }, func(rc *fasthttp.RequestCtx, err error) {
			writeAnthropicError(rc, anthropicError(err))
		})
		return
	}
	streamSSE(s, c, release, func(ctx context.Context, w *sse.Writer) error {
		g.send = func(event string, v any) error {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			return w.Event(event, b)
		}
		err := run(ctx)
		if err == nil || w.Err() != nil || errors.Is(err, ErrClientGone) {
			return err
		}
		// The stream has begun: the error is its last event.
		e := anthropicError(err)
		c.status = e.Status
		return w.Event(anthropic.EventError, e.Body())
	})
}

// handleCountTokens serves POST /v1/messages/count_tokens: the tokens of
// the prompt the request would render.
func (s *Server) handleCountTokens(c *call) {
	req, perr := anthropic.Parse(c.rc.PostBody(), true)
	if perr != nil {
		writeAnthropicError(c.rc, perr)
		return
	}
	m, _, release, err := s.acquire(c, req.Model)
	if err != nil {
		writeAnthropicError(c.rc, anthropicError(err))
		return
	}
	defer release()
	ctx, stop := watchClient(s.base, c.rc.Conn())
	r, err := messagesPlan(req).renderPrompt(ctx, m)
	stop()
	if err != nil {
		writeAnthropicError(c.rc, anthropicError(err))
		return
	}
	writeJSON(c.rc, http.StatusOK, anthropic.TokenCount{InputTokens: len(r.ids)})
}

// newMessagesGen prepares the plan of a request, with the Messages
// encoder of its stream.
func (s *Server) newMessagesGen(ctx context.Context, m Model, req *anthropic.Request) (*messagesGen, error) {
	g := &messagesGen{stopSeqs: req.StopSequences}
	st, err := s.prepare(ctx, m, messagesPlan(req), g)
	if err != nil {
		return nil, err
	}
	g.st = st
	g.resp = anthropic.Response{ID: newID("msg_", 24), Type: anthropic.ObjectMessage, Role: anthropic.RoleAssistant, Model: req.Model}
	return g, nil
}

// anthropicError maps an error to the Anthropic error a client gets.
func anthropicError(err error) *anthropic.Error {
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		return ae
	}
	return fromOpenAI(apiError(anthropicNames.openai(err)))
}

// fromOpenAI gives an OpenAI-shaped error the Anthropic type of its
// status, and names its parameter in the message.
func fromOpenAI(e *openai.Error) *anthropic.Error {
	msg := e.Message
	if e.Param != "" && !strings.Contains(msg, e.Param) {
		msg = e.Param + ": " + msg
	}
	return &anthropic.Error{Status: e.Status, Type: anthropic.TypeOf(e.Status), Message: msg}
}

// writeAnthropicError writes an Anthropic error body.
func writeAnthropicError(rc *fasthttp.RequestCtx, e *anthropic.Error) {
	writeErrorBody(rc, e.Status, e.Body())
}

// isAnthropicPath reports whether a request path belongs to the Messages
// API (with or without /v1).
func isAnthropicPath(path string) bool {
	path = "/v1" + strings.TrimPrefix(path, "/v1")
	return path == anthropicPrefix || strings.HasPrefix(path, anthropicPrefix+"/")
}
