package server

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/mlxrun/mlx/server/openai"
)

// authorized checks the key when an API key is set: a bearer token
// ("Bearer" in any case, as RFC 9110 makes auth schemes) or the x-api-key
// header that Anthropic clients send.
func (s *Server) authorized(rc *fasthttp.RequestCtx) bool {
	if s.opt.APIKey == "" {
		return true
	}
	tok := strings.TrimSpace(string(rc.Request.Header.Peek("x-api-key")))
	if tok == "" {
		h := strings.TrimSpace(string(rc.Request.Header.Peek("Authorization")))
		scheme, rest, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return false
		}
		tok = strings.TrimSpace(rest)
	}
	return subtle.ConstantTimeCompare([]byte(tok), []byte(s.opt.APIKey)) == 1
}

// cors sets the CORS headers of an allowed origin and answers preflight
// requests; it reports whether the request goes on to its handler.
func (s *Server) cors(rc *fasthttp.RequestCtx) bool {
	origin := string(rc.Request.Header.Peek("Origin"))
	allowed := origin != "" && (slices.Contains(s.opt.CORSOrigins, "*") || slices.Contains(s.opt.CORSOrigins, origin))
	h := &rc.Response.Header
	if allowed {
		if slices.Contains(s.opt.CORSOrigins, "*") && s.opt.APIKey == "" {
			h.Set("Access-Control-Allow-Origin", "*")
		} else {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
		}
		h.Set("Access-Control-Expose-Headers", "X-Request-Id")
	}
	if !rc.IsOptions() || rc.Request.Header.Peek("Access-Control-Request-Method") == nil {
		return true
	}
	if allowed {
		h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
		reqHeaders := string(rc.Request.Header.Peek("Access-Control-Request-Headers"))
		if reqHeaders == "" {
			reqHeaders = "Authorization, Content-Type"
		}
		h.Set("Access-Control-Allow-Headers", reqHeaders)
		h.Set("Access-Control-Max-Age", "600")
	}
	rc.SetStatusCode(http.StatusNoContent)
	return false
}

// writeJSON writes v with status.
func writeJSON(rc *fasthttp.RequestCtx, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(rc, openai.ServerError(http.StatusInternalServerError, "", "encoding the response: %v", err))
		return
	}
	rc.SetStatusCode(status)
	rc.SetContentType("application/json")
	rc.SetBody(b)
}

// writeError writes an OpenAI error body.
func writeError(rc *fasthttp.RequestCtx, e *openai.Error) { writeErrorBody(rc, e.Status, e.Body()) }

// writeErrorBody writes the error body of an API with status; a 429 says
// when to retry.
func writeErrorBody(rc *fasthttp.RequestCtx, status int, body []byte) {
	if status == http.StatusTooManyRequests {
		rc.Response.Header.Set("Retry-After", itoa(retryAfterSeconds))
	}
	rc.SetStatusCode(status)
	rc.SetContentType("application/json")
	rc.SetBody(body)
}

// parseError answers requests fasthttp could not read.
func (s *Server) parseError(rc *fasthttp.RequestCtx, err error) {
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		writeError(rc, &openai.Error{Status: http.StatusRequestEntityTooLarge, Type: openai.TypeInvalidRequest, Code: openai.CodeTooLarge,
			Message: "The request body is larger than the server accepts (" + humanBytes(s.opt.MaxBody) + "; see --max-body)."})
		s.obs.requests.Inc(routeOther, "413")
		return
	}
	writeError(rc, &openai.Error{Status: http.StatusBadRequest, Type: openai.TypeInvalidRequest, Message: "Malformed HTTP request: " + err.Error()})
	s.obs.requests.Inc(routeOther, "400")
}

func humanBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return itoa(n>>10) + " KiB"
	}
	return itoa(n) + " bytes"
}

func itoa(n int) string { return strconv.Itoa(n) }
