package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/constrain"
	"github.com/mlxrun/mlx/server/upstream"
	"github.com/mlxrun/mlx/store"
	"github.com/mlxrun/mlx/store/conversations"
	"github.com/mlxrun/mlx/store/responses"
)

// Defaults of Options.
const (
	DefaultMaxBody      = 16 << 20
	DefaultSSEKeepAlive = 15 * time.Second
	DefaultKeepAlive    = 5 * time.Minute
	DefaultIdleTimeout  = 30 * time.Second
	// MaxDefaultConns bounds the connection cap that the open-file limit
	// gives.
	MaxDefaultConns = 4096
)

// DefaultMaxConns is the connection cap when Options.MaxConns is 0: the
// open-file limit less a reserve for model files, logs and downloads.
func DefaultMaxConns() int {
	limit := openFileLimit()
	if limit <= 0 {
		return 1024
	}
	return min(max(limit-max(64, limit/8), 16), MaxDefaultConns)
}

// Options configure a Server. The zero value of each field picks the
// default in its comment.
type Options struct {
	// APIKey, when set, is required as "Authorization: Bearer <key>" or
	// "x-api-key: <key>" on every route but /health.
	APIKey string
	// AllowedHosts, when not nil, are the only Host names answered besides
	// the loopback names (localhost, 127.0.0.0/8, ::1); others get 403,
	// which stops DNS rebinding. "*" allows every name; nil checks none.
	AllowedHosts []string
	// CORSOrigins are the origins allowed to call the API from a browser
	// ("*" allows all); none sends no CORS headers.
	CORSOrigins []string
	// MaxConns bounds the open connections (0: DefaultMaxConns()). Beyond
	// it the connection idle the longest is closed; when all are serving
	// requests the new one gets 503.
	MaxConns int
	// IdleTimeout closes a keep-alive connection idle this long
	// (DefaultIdleTimeout).
	IdleTimeout time.Duration
	// MaxBody bounds a request body in bytes (DefaultMaxBody); larger
	// bodies get 413.
	MaxBody int
	// SSEKeepAlive is the idle time after which a stream gets a
	// ": keep-alive" comment (DefaultSSEKeepAlive; negative: never).
	SSEKeepAlive time.Duration
	// MaxLoaded bounds the loaded models (0: no bound); the least recently
	// used idle model unloads first.
	MaxLoaded int
	// KeepAlive is how long an idle model stays loaded (DefaultKeepAlive;
	// negative: forever). Models named at start stay loaded.
	KeepAlive time.Duration
	// Fingerprint is the system_fingerprint of responses.
	Fingerprint string
	// Version is the server's version, as GET /api/version reports it.
	Version string
	// Log receives one line per request and the load events (nil: none).
	Log *slog.Logger
	// ResponseStore bounds the stored responses of the Responses API
	// (nil: responses.DefaultOptions()); MaxEntries 0 disables storing.
	ResponseStore *store.Options
	// ConversationStore bounds the conversations of the Conversations API
	// (nil: conversations.DefaultOptions()); MaxEntries 0 disables them.
	ConversationStore *store.Options
	// Upstreams are OpenAI-compatible servers whose models this one
	// serves too, as NAME/model; their model lists are refreshed by the
	// caller (upstream.Client.Watch).
	Upstreams []*upstream.Client
}

func (o Options) withDefaults() Options {
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns()
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.SSEKeepAlive == 0 {
		o.SSEKeepAlive = DefaultSSEKeepAlive
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.ResponseStore == nil {
		d := responses.DefaultOptions()
		o.ResponseStore = &d
	}
	if o.ConversationStore == nil {
		d := conversations.DefaultOptions()
		o.ConversationStore = &d
	}
	return o
}

// Server is the HTTP API. Create it with New, then call Serve.
type Server struct {
	opt      Options
	models   *manager
	obs      *observer
	loader   Loader
	http     *fasthttp.Server
	conns    *connSet
	base     context.Context // cancelled when shutdown gives up waiting
	cancel   context.CancelFunc
	starting atomic.Int32   // models named at start not yet loaded
	wg       sync.WaitGroup // generations running

	serving   sync.Mutex     // guards stopped and listeners
	stopped   bool           // Shutdown has been called
	listeners []net.Listener // those Serve was given

	responses     *responses.Store
	conversations *conversations.Store
	live          liveResponses // responses being generated
	grammars      *constrain.Cache
}

// New returns a Server that loads models through l.
func New(l Loader, opt Options) *Server {
	opt = opt.withDefaults()
	s := &Server{opt: opt, loader: l,
		responses: responses.New(*opt.ResponseStore), conversations: conversations.New(*opt.ConversationStore),
		grammars: constrain.NewCache(), conns: newConnSet(opt.MaxConns)}
	s.base, s.cancel = context.WithCancel(context.Background())
	s.models = newManager(s.base, l, opt.MaxLoaded, opt.KeepAlive)
	s.obs = newObserver(func() float64 { return float64(s.models.loaded()) })
	s.models.onLoad = func(id string, d time.Duration, err error) {
		if !errors.Is(err, runtime.ErrModelNotFound) { // a name of nothing is no series
			s.obs.modelLoaded(id, d, err)
		}
		if err != nil {
			opt.Log.Error("model load failed", "model", id, "err", err)
		} else {
			opt.Log.Info("model loaded", "model", id, "seconds", d.Seconds())
		}
	}
	s.http = &fasthttp.Server{
		Handler:               s.Handler(),
		Name:                  "mlx",
		MaxRequestBodySize:    opt.MaxBody,
		ErrorHandler:          s.parseError,
		NoDefaultServerHeader: false,
		NoDefaultContentType:  true,
		CloseOnShutdown:       true,
		// Bodies are JSON; a multipart one is refused, not parsed.
		DisablePreParseMultipartForm: true,
		IdleTimeout:                  2 * time.Minute,
		MaxIdleWorkerDuration:        2 * time.Second, // connection workers idle this long exit
		ReadTimeout:                  2 * time.Minute,
		Logger:                       discardLogger{},
	}
	go s.models.janitor(s.base, janitorInterval(opt.KeepAlive))
	return s
}

func janitorInterval(keepAlive time.Duration) time.Duration {
	if keepAlive > 0 && keepAlive/4 < time.Second {
		return max(keepAlive/4, 10*time.Millisecond)
	}
	return time.Second
}

// discardLogger silences fasthttp's own log lines.
type discardLogger struct{}

// Printf implements fasthttp.Logger.
func (discardLogger) Printf(string, ...any) {}

// Starting tells the server that Preload will load n models: /health
// answers 503 from now until Preload returns. Call it before Serve when
// Preload runs alongside, so that no health check finds the server ready
// before its models.
func (s *Server) Starting(n int) { s.starting.Store(int32(n)) }

// Preload loads the models named at start, in order; they are never
// unloaded while the server runs. /health answers 503 until it returns.
// The first error stops it.
func (s *Server) Preload(ctx context.Context, refs ...string) error {
	s.starting.Store(int32(len(refs)))
	defer s.starting.Store(0)
	for _, ref := range refs {
		_, release, err := s.models.acquire(ctx, ref, true)
		if err != nil {
			return err
		}
		release()
		s.starting.Add(-1)
	}
	return nil
}

// ErrStopped is Serve's error once Shutdown has been called.
var ErrStopped = errors.New("server: stopped")

// Serve answers requests on ln until Shutdown. After Shutdown it closes
// ln and returns ErrStopped: a Serve started late must not run on.
func (s *Server) Serve(ln net.Listener) error {
	s.serving.Lock()
	if s.stopped {
		s.serving.Unlock()
		ln.Close()
		return ErrStopped
	}
	s.listeners = append(s.listeners, ln)
	s.serving.Unlock()
	return s.http.Serve(&listener{Listener: ln, conns: s.conns, sleep: time.Sleep})
}

// Shutdown stops accepting connections and waits for the requests being
// served; when ctx ends first, it cancels the generations still running
// and waits for them. Then it unloads the models and stops the stores.
func (s *Server) Shutdown(ctx context.Context) error {
	s.serving.Lock()
	s.stopped = true
	s.serving.Unlock()
	done := make(chan error, 1)
	go func() { done <- s.http.ShutdownWithContext(ctx) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	// A Serve that had not yet handed its listener to fasthttp when
	// fasthttp shut down still accepts on it: closing it stops that Serve
	// (the listeners fasthttp knew are closed already).
	s.serving.Lock()
	for _, ln := range s.listeners {
		ln.Close()
	}
	s.serving.Unlock()
	s.cancel()
	s.wg.Wait()
	s.models.close()
	s.responses.Stop()
	s.conversations.Stop()
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil // cut short on purpose
	}
	return err
}
