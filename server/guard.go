package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/mlxrun/mlx/server/openai"
)

// Error codes of the requests refused before routing.
const (
	codeHostNotAllowed   = "host_not_allowed"
	codeUnsupportedMedia = "unsupported_media_type"
)

// hostAllowed reports whether the request's Host names this server: with
// Options.AllowedHosts set, only loopback names and those hosts pass, so
// that a web page whose name was rebound to 127.0.0.1 cannot call the API.
func (s *Server) hostAllowed(rc *fasthttp.RequestCtx) bool {
	if s.opt.AllowedHosts == nil || slices.Contains(s.opt.AllowedHosts, "*") {
		return true
	}
	host := hostName(string(rc.Request.Header.Host()))
	if host == "" || isLoopbackName(host) {
		return true
	}
	for _, h := range s.opt.AllowedHosts {
		if hostName(h) == host {
			return true
		}
	}
	return false
}

// hostName returns the name of a Host header (or a host given on the
// command line): lower case, without port, brackets or final dot.
func hostName(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if name, _, err := net.SplitHostPort(h); err == nil {
		h = name
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// isLoopbackName reports whether a host name always means this machine:
// localhost and its subdomains (RFC 6761), 127.0.0.0/8 and ::1.
func isLoopbackName(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hostError is the 403 of a request for another host.
func hostError(rc *fasthttp.RequestCtx) *openai.Error {
	return &openai.Error{Status: http.StatusForbidden, Type: openai.TypeInvalidRequest, Code: codeHostNotAllowed,
		Message: fmt.Sprintf("Host %q is not allowed: this server answers requests for localhost and its own address; "+
			"allow more names with mlx serve --allowed-hosts.", hostName(string(rc.Request.Header.Host())))}
}

// jsonBody reports whether a request's body may be read as JSON: a
// request without a body (GET, DELETE), or one whose Content-Type is
// missing or JSON. Form and text types are refused, since a browser sends
// them from any page without asking the server first.
func jsonBody(rc *fasthttp.RequestCtx) bool {
	if rc.IsGet() || rc.IsHead() || rc.IsDelete() || rc.IsOptions() {
		return true
	}
	ct := string(rc.Request.Header.ContentType())
	if strings.TrimSpace(ct) == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// contentTypeError is the 415 of a body that is not JSON.
func contentTypeError(rc *fasthttp.RequestCtx) *openai.Error {
	return &openai.Error{Status: http.StatusUnsupportedMediaType, Type: openai.TypeInvalidRequest, Code: codeUnsupportedMedia,
		Message: fmt.Sprintf("Content-Type %q is not supported: send the body as application/json.", rc.Request.Header.ContentType())}
}
