package server

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
)

// Route names: the metric label of each route, also its canonical path.
const (
	routeChat        = "/v1/chat/completions"
	routeCompletions = "/v1/completions"
	routeModels      = "/v1/models"
	routeEmbeddings  = "/v1/embeddings"
	routeRerank      = "/v1/rerank"
	routeRerankV2    = "/v2/rerank"
	routeModel       = "/v1/models/{id}"
	routeHealth      = "/health"
	routeMetrics     = "/metrics"
	routeMLXModels   = "/mlx/models"
	routeOther       = "other"
	routeMessages    = "/v1/messages"
	routeCountTokens = "/v1/messages/count_tokens"

	routeTokenize      = "/tokenize"
	routeDetokenize    = "/detokenize"
	routeApplyTemplate = "/apply-template"
	routeInfill        = "/infill"
	routeInputTokens   = "/v1/responses/input_tokens"

	routeOllamaChat     = "/api/chat"
	routeOllamaGenerate = "/api/generate"
	routeOllamaTags     = "/api/tags"
	routeOllamaShow     = "/api/show"
	routeOllamaPs       = "/api/ps"
	routeOllamaVersion  = "/api/version"
	routeOllamaEmbed    = "/api/embed"
	routeOllamaPull     = "/api/pull"
	routeOllamaCopy     = "/api/copy"
	routeOllamaDelete   = "/api/delete"

	routeResponses      = "/v1/responses"
	routeResponse       = "/v1/responses/{id}"
	routeResponseCancel = "/v1/responses/{id}/cancel"
	routeResponseInputs = "/v1/responses/{id}/input_items"
	routeConversations  = "/v1/conversations"
	routeConversation   = "/v1/conversations/{id}"
	routeConvItems      = "/v1/conversations/{id}/items"
	routeConvItem       = "/v1/conversations/{id}/items/{item_id}"
)

// routeMethods are the methods of the routes that take more than GET.
var routeMethods = map[string][]string{
	routeChat:           {http.MethodPost},
	routeCompletions:    {http.MethodPost},
	routeOllamaChat:     {http.MethodPost},
	routeOllamaGenerate: {http.MethodPost},
	routeOllamaShow:     {http.MethodPost},
	routeOllamaEmbed:    {http.MethodPost},
	routeOllamaPull:     {http.MethodPost},
	routeOllamaCopy:     {http.MethodPost},
	routeOllamaDelete:   {http.MethodDelete},
	routeEmbeddings:     {http.MethodPost},
	routeRerank:         {http.MethodPost},
	routeRerankV2:       {http.MethodPost},
	routeMessages:       {http.MethodPost},
	routeCountTokens:    {http.MethodPost},
	routeTokenize:       {http.MethodPost},
	routeDetokenize:     {http.MethodPost},
	routeApplyTemplate:  {http.MethodPost},
	routeInfill:         {http.MethodPost},
	routeInputTokens:    {http.MethodPost},
	routeResponses:      {http.MethodPost},
	routeResponse:       {http.MethodGet, http.MethodDelete},
	routeResponseCancel: {http.MethodPost},
	routeConversations:  {http.MethodPost},
	routeConversation:   {http.MethodGet, http.MethodPost, http.MethodDelete},
	routeConvItems:      {http.MethodGet, http.MethodPost},
	routeConvItem:       {http.MethodGet, http.MethodDelete},
}

// call is one request being served. Streaming handlers finish it from
// their body stream writer, after the handler returned: fasthttp runs that
// writer in a goroutine of its own and may reuse rc for another request
// once the client is gone, so finish reads only what the call copied at
// the start, and a streaming handler sets status before finishing.
type call struct {
	rc                   *fasthttp.RequestCtx
	route                string
	method, path, remote string
	start                time.Time
	streaming            bool
	status               int
	srv                  *Server
	place                *runtime.Reservation // the model's queue place, taken before answering
}

// newCall starts serving rc on route.
func (s *Server) newCall(rc *fasthttp.RequestCtx, route string) *call {
	c := &call{rc: rc, route: route, start: time.Now(), srv: s,
		method: string(rc.Method()), path: string(rc.Path()), remote: rc.RemoteAddr().String()}
	if wc, ok := rc.Conn().(*watchConn); ok && wc.set != nil {
		wc.set.begin(wc)
	}
	return c
}

// finish records the request's metrics and log line, once.
func (c *call) finish() {
	status := c.status
	if status == 0 && !c.streaming {
		status = c.rc.Response.StatusCode()
	}
	d := time.Since(c.start)
	c.srv.obs.requests.Inc(c.route, strconv.Itoa(status))
	c.srv.obs.duration.Observe(d.Seconds(), c.route)
	c.srv.obs.inFlight.Add(-1)
	c.srv.opt.Log.Info("request", "method", c.method, "path", c.path,
		"status", status, "ms", d.Milliseconds(), "remote", c.remote)
}

// Handler returns the request handler (Serve uses it; tests may too).
func (s *Server) Handler() fasthttp.RequestHandler {
	return func(rc *fasthttp.RequestCtx) {
		route, handle, allowed := s.route(rc)
		c := s.newCall(rc, route)
		s.obs.inFlight.Add(1)
		defer func() {
			if !c.streaming {
				c.finish()
			}
		}()
		fail := func(e *openai.Error) { writeError(rc, e) }
		ollamaPath := strings.HasPrefix(c.path, ollamaPrefix)
		switch {
		case ollamaPath:
			fail = func(e *openai.Error) { writeOllamaError(rc, e) }
		case isAnthropicPath(c.path):
			fail = func(e *openai.Error) { writeAnthropicError(rc, fromOpenAI(e)) }
		}
		switch {
		case !s.hostAllowed(rc):
			fail(hostError(rc))
			return
		case !s.cors(rc):
			return
		}
		switch {
		case route != routeHealth && !s.authorized(rc):
			fail(&openai.Error{Status: http.StatusUnauthorized, Type: openai.TypeInvalidRequest, Code: openai.CodeInvalidAPIKey,
				Message: "Incorrect API key provided. Send it as 'Authorization: Bearer <key>' or 'x-api-key: <key>'."})
		case handle == nil:
			fail(&openai.Error{Status: http.StatusNotFound, Type: openai.TypeInvalidRequest,
				Message: fmt.Sprintf("Invalid URL (%s %s)", rc.Method(), rc.Path())})
		case !allowed:
			methods := methodsOf(route)
			rc.Response.Header.Set("Allow", strings.Join(methods, ", "))
			fail(&openai.Error{Status: http.StatusMethodNotAllowed, Type: openai.TypeInvalidRequest,
				Message: fmt.Sprintf("Method %s is not allowed on %s: use %s.", rc.Method(), rc.Path(), orList(methods))})
		case !jsonBody(rc) && !ollamaPath: // Ollama takes any Content-Type, as curl -d sends
			fail(contentTypeError(rc))
		default:
			handle(c)
		}
	}
}

// ollamaRoutes are the handlers of Ollama's API, by path.
var ollamaRoutes = map[string]func(*Server, *call){
	routeOllamaChat:     (*Server).handleOllamaChat,
	routeOllamaGenerate: (*Server).handleOllamaGenerate,
	routeOllamaTags:     (*Server).handleOllamaTags,
	routeOllamaShow:     (*Server).handleOllamaShow,
	routeOllamaPs:       (*Server).handleOllamaPs,
	routeOllamaVersion:  (*Server).handleOllamaVersion,
	routeOllamaEmbed:    (*Server).handleOllamaEmbed,
	routeOllamaPull:     (*Server).handleOllamaPull,
	routeOllamaCopy:     (*Server).handleOllamaCopy,
	routeOllamaDelete:   (*Server).handleOllamaDelete,
}

// llamaRoutes are the handlers of llama-server's own endpoints, by path.
var llamaRoutes = map[string]func(*Server, *call){
	routeTokenize:      (*Server).handleTokenize,
	routeDetokenize:    (*Server).handleDetokenize,
	routeApplyTemplate: (*Server).handleApplyTemplate,
	routeInfill:        (*Server).handleInfill,
}

// route finds the handler of a request; allowed is false for a known path
// with the wrong method. Every path works with and without /v1.
func (s *Server) route(rc *fasthttp.RequestCtx) (route string, handle func(*call), allowed bool) {
	path := string(rc.Request.URI().PathOriginal())
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimSuffix(strings.TrimPrefix(path, "/v1"), "/")
	method := string(rc.Method())
	switch path {
	case "/chat/completions":
		route, handle = routeChat, s.handleChat
	case "/completions":
		route, handle = routeCompletions, s.handleCompletions
	case "/messages":
		route, handle = routeMessages, s.handleMessages
	case "/messages/count_tokens":
		route, handle = routeCountTokens, s.handleCountTokens
	case "/models":
		route, handle = routeModels, s.handleModels
	case "/embeddings":
		route, handle = routeEmbeddings, s.handleEmbeddings
	case "/rerank", "/reranking":
		route, handle = routeRerank, s.handleRerank
	case routeRerankV2:
		route, handle = routeRerankV2, s.handleRerankV2
	case "/health":
		route, handle = routeHealth, s.handleHealth
	case "/metrics":
		route, handle = routeMetrics, s.handleMetrics
	case "/mlx/models":
		route, handle = routeMLXModels, s.handleMLXModels
	case "/responses/input_tokens":
		route, handle = routeInputTokens, s.handleInputTokens
	default:
		if h, ok := ollamaRoutes[path]; ok {
			route, handle = path, func(c *call) { h(s, c) }
			break
		}
		if h, ok := llamaRoutes[path]; ok {
			route, handle = path, func(c *call) { h(s, c) }
			break
		}
		id, ok := strings.CutPrefix(path, "/models/")
		if !ok || id == "" {
			route, handle = s.statefulRoute(path)
			break
		}
		if u, err := url.PathUnescape(id); err == nil {
			id = u
		}
		route = routeModel
		handle = func(c *call) { s.handleModel(c, id) }
	}
	methods := methodsOf(route)
	return route, handle, slices.Contains(methods, method) || (method == http.MethodHead && slices.Contains(methods, http.MethodGet))
}

// methodsOf returns the methods a route takes.
func methodsOf(route string) []string {
	if m, ok := routeMethods[route]; ok {
		return m
	}
	return []string{http.MethodGet}
}

// orList writes "A", "A or B", "A, B or C".
func orList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
