package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"sync"

	"github.com/valyala/fasthttp"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/sse"
)

// delivery takes the chunks of a response: an SSE stream, or an
// aggregator that builds the non-streamed response from the same chunks.
type delivery[T any] interface {
	send(chunk *T) error
	annotate(a annotation) error
}

// aggregator is a delivery that builds a whole response.
type aggregator[T any] interface {
	delivery[T]
	result() any
}

// annotation is an extension frame (event: annotation) that OpenAI
// clients ignore: the token ids of a choice's delta, or its timings.
type annotation struct {
	Index    int            `json:"index"`
	TokenIDs []int32        `json:"token_ids,omitempty"`
	Timing   *timingSummary `json:"timing,omitempty"`
}

// timingSummary is the timing annotation of a finished choice.
type timingSummary struct {
	QueueMS      float64 `json:"queue_ms"`
	TTFTMS       float64 `json:"ttft_ms"`
	PrefillMS    float64 `json:"prefill_ms"`
	DecodeMS     float64 `json:"decode_ms"`
	PrefillRate  float64 `json:"prefill_tokens_per_second"`
	DecodeRate   float64 `json:"decode_tokens_per_second"`
	CachedTokens int     `json:"cached_tokens"`
}

// annotations collects the annotations of an aggregated response.
type annotations struct{ list []annotation }

func (a *annotations) annotate(an annotation) error {
	a.list = append(a.list, an)
	return nil
}

// sseDelivery writes chunks as data frames.
type sseDelivery[T any] struct{ w *sse.Writer }

func (d sseDelivery[T]) send(chunk *T) error {
	b, err := json.Marshal(chunk)
	if err != nil {
		return err
	}
	return d.w.Data(b)
}

func (d sseDelivery[T]) annotate(a annotation) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return d.w.Event("annotation", b)
}

// respond runs gen, the one code path of a generation: streamed, inside
// fasthttp's body stream writer, as Server-Sent Events of chunks ending
// with [DONE]; otherwise into agg, whose result is the JSON body. release
// runs when generation is over.
func respond[T any](s *Server, c *call, stream bool, agg aggregator[T], release func(), gen func(context.Context, delivery[T]) error) {
	if !stream {
		respondWhole(s, c, release, func(ctx context.Context) error { return gen(ctx, agg) }, agg.result, writeAPIError)
		return
	}
	streamSSE(s, c, release, func(ctx context.Context, w *sse.Writer) error {
		if err := gen(ctx, sseDelivery[T]{w}); err != nil {
			return err
		}
		return w.Done()
	})
}

// respondWhole runs gen, watching the client, and writes result's value
// as the JSON body, or gen's error with fail, the error writer of the
// request's API. release runs when generation is over.
func respondWhole(s *Server, c *call, release func(), gen func(context.Context) error, result func() any,
	fail func(*fasthttp.RequestCtx, error)) {
	defer release()
	ctx, stop := s.watchCall(c, c.rc.Conn())
	err := gen(ctx)
	stop()
	if err != nil {
		if errors.Is(err, ErrClientGone) {
			c.status = 499
		}
		fail(c.rc, err)
		return
	}
	writeJSON(c.rc, http.StatusOK, result())
}

// writeAPIError writes err as an OpenAI error body.
func writeAPIError(rc *fasthttp.RequestCtx, err error) { writeError(rc, apiError(err)) }

// streamSSE answers with an event stream that write writes inside
// fasthttp's body stream writer, with keep-alive comments while it is
// idle. An error write returns while the stream still works becomes an
// "error" event. release runs when write returned.
func streamSSE(s *Server, c *call, release func(), write func(context.Context, *sse.Writer) error) {
	c.streaming = true
	rc := c.rc
	rc.SetStatusCode(http.StatusOK)
	rc.SetContentType("text/event-stream")
	rc.Response.Header.Set("Cache-Control", "no-cache")
	rc.Response.Header.Set("X-Accel-Buffering", "no")
	rc.Response.ImmediateHeaderFlush = true
	conn := rc.Conn()
	rc.SetBodyStreamWriter(func(bw *bufio.Writer) {
		defer c.finish()
		defer release()
		ctx, stop := s.watchCall(c, conn)
		w := sse.NewWriter(bw)
		kaCtx, kaStop := context.WithCancel(ctx)
		var ka sync.WaitGroup
		ka.Add(1)
		go func() {
			defer ka.Done()
			w.KeepAlive(kaCtx, s.opt.SSEKeepAlive, nil)
		}()
		err := write(ctx, w)
		kaStop()
		ka.Wait()
		if err != nil && w.Err() == nil && !errors.Is(err, ErrClientGone) {
			e := apiError(err)
			c.status = e.Status
			err = w.Event("error", e.Body())
		}
		switch {
		case err != nil && c.status == 0:
			c.status = 499 // the client went away
		case c.status == 0:
			c.status = http.StatusOK
		}
		stop()
		w.Close() // nothing may touch bw once this function returns
	})
}

// watchCall watches c's client as watchClient does, on a context that
// also carries the queue place acquire reserved for c, so that the
// request's first generation runs in it.
func (s *Server) watchCall(c *call, conn net.Conn) (context.Context, func()) {
	ctx, stop := watchClient(s.base, conn)
	return runtime.WithReservation(ctx, c.place), stop
}

// generation is a prepared request: its sequences, and how their events
// become chunks of type T.
type generation[T any] interface {
	seqHandler
	requestID() string
	requests() []runtime.Request
	// open starts the response on out, before the sequences run.
	open(ctx context.Context, out delivery[T]) error
	// finish ends it after they all ended.
	finish() error
}

// serveGeneration is the flow of the generating routes: get the model,
// prepare the generation, run its sequences into the response.
func serveGeneration[T any](s *Server, c *call, model string, stream bool, prepare func(context.Context, Model) (generation[T], aggregator[T], error)) {
	run, agg, release, ok := startGeneration(s, c, model, prepare)
	if ok {
		respond(s, c, stream, agg, release, run)
	}
}

// startGeneration gets the model and prepares the generation: it returns
// how to run it into a delivery, the aggregator of a whole response, and
// the release of the model; or it answers the error and returns false.
func startGeneration[T any](s *Server, c *call, model string, prepare func(context.Context, Model) (generation[T], aggregator[T], error)) (func(context.Context, delivery[T]) error, aggregator[T], func(), bool) {
	m, id, release, err := s.acquire(c, model)
	if err != nil {
		writeError(c.rc, apiError(err))
		return nil, nil, nil, false
	}
	ctx, stop := watchClient(s.base, c.rc.Conn())
	g, agg, err := prepare(ctx, m)
	stop()
	if err != nil {
		release()
		writeError(c.rc, apiError(err))
		return nil, nil, nil, false
	}
	c.rc.Response.Header.Set("X-Request-Id", g.requestID())
	r := s.newRunner(c, m, id)
	return func(ctx context.Context, out delivery[T]) error { return runGeneration(ctx, r, g, out) }, agg, release, true
}

// newRunner returns the runner of a request's sequences on m.
func (s *Server) newRunner(c *call, m Model, name string) *runner {
	return &runner{srv: s, model: m, name: name, start: c.start, parallel: m.Info().Parallel}
}

// runGeneration opens g on out, runs its sequences and finishes it.
func runGeneration[T any](ctx context.Context, r *runner, g generation[T], out delivery[T]) error {
	if err := g.open(ctx, out); err != nil {
		return err
	}
	if err := r.run(ctx, g.requests(), g); err != nil {
		return err
	}
	return g.finish()
}
