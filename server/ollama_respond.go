package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/valyala/fasthttp"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/ollama"
)

// ollamaPrefix starts the paths of Ollama's API, whose errors have
// Ollama's shape.
const ollamaPrefix = "/api/"

// writeOllamaError writes err as Ollama does: {"error": "..."} with the
// status of the error.
func writeOllamaError(rc *fasthttp.RequestCtx, err error) {
	status, msg := ollamaError(err)
	writeJSON(rc, status, ollama.ErrorBody{Error: msg})
}

// ollamaError is the status and message of err.
func ollamaError(err error) (int, string) {
	var br *ollama.BadRequest
	var st *ollamaStatus
	var pe *paramError
	var se *sample.ParamError
	switch {
	case errors.As(err, &br):
		return http.StatusBadRequest, br.Msg
	case errors.As(err, &st):
		return st.status, st.msg
	case errors.As(err, &pe):
		_, msg := pe.in(ollamaNames)
		return http.StatusBadRequest, msg
	case errors.As(err, &se):
		return http.StatusBadRequest, "invalid " + ollamaNames.name(se.Param, 0) + ": " + se.Msg
	}
	e := apiError(err)
	return e.Status, e.Message
}

// ollamaNotFound is Ollama's 404 of an unknown model; other errors pass.
func ollamaNotFound(model string, err error) error {
	if !errors.Is(err, runtime.ErrModelNotFound) && !isNotFound(err) {
		return err
	}
	return &ollamaStatus{status: http.StatusNotFound, msg: fmt.Sprintf("model %q not found, try pulling it first", model)}
}

// isNotFound reports whether err is a 404.
func isNotFound(err error) bool {
	return apiError(err).Status == http.StatusNotFound
}

// ollamaStatus is an error with its own status.
type ollamaStatus struct {
	status int
	msg    string
}

func (e *ollamaStatus) Error() string { return e.msg }

// streamNDJSON answers with newline-delimited JSON objects that write
// sends inside fasthttp's body stream writer. An error write returns
// while the stream still works becomes a last {"error": "..."} object.
func streamNDJSON(s *Server, c *call, release func(), write func(context.Context, func(any) error) error) {
	c.streaming = true
	rc := c.rc
	rc.SetStatusCode(http.StatusOK)
	rc.SetContentType("application/x-ndjson")
	rc.Response.ImmediateHeaderFlush = true
	conn := rc.Conn()
	rc.SetBodyStreamWriter(func(bw *bufio.Writer) {
		defer c.finish()
		defer release()
		ctx, stop := s.watchCall(c, conn)
		defer stop()
		var werr error
		send := func(v any) error {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if _, werr = bw.Write(append(b, '\n')); werr == nil {
				werr = bw.Flush()
			}
			return werr
		}
		err := write(ctx, send)
		switch {
		case err != nil && werr == nil && !errors.Is(err, ErrClientGone):
			status, msg := ollamaError(err)
			c.status = status
			_ = send(ollama.ErrorBody{Error: msg})
		case err != nil && c.status == 0:
			c.status = 499 // the client went away
		case c.status == 0:
			c.status = http.StatusOK
		}
	})
}
