package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/store/responses"
)

// errResponseCancelled is the cause of a generation that POST
// /v1/responses/{id}/cancel stopped.
var errResponseCancelled = errors.New("the response was cancelled")

// responseRun is one response being generated.
type responseRun struct {
	plan *responsePlan
	b    *respBuilder
	r    *runner
}

// runResponse generates the response, keeps its record up to date in the
// stores, and ends it with its terminal event. A failure of the generation
// ends a stream with an error event and response.failed; a request that is
// not streamed gets it as an HTTP error. A response cancelled by POST
// /v1/responses/{id}/cancel or cut by the server's shutdown ends with
// status cancelled; one whose client went away just stops.
func (s *Server) runResponse(ctx context.Context, run *responseRun) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	p, b := run.plan, run.b
	s.live.add(p.id)
	defer s.live.remove(p.id)
	if p.store && !s.saveResponse(p, b, func() { cancel(errResponseCancelled) }) {
		p.store, b.resp.Store = false, false // too large for the store: answered, not kept
	}
	err := b.start()
	if err == nil {
		err = b.st.run(ctx, run.r)
	}
	status, failure, apiErr := outcome(ctx, err, b)
	emitErr := b.complete(status, time.Now().Unix(), failure)
	if p.store {
		s.saveResponse(p, b, nil)
	}
	if p.req.Stored && p.req.Conversation != "" && (status == openai.StatusCompleted || status == openai.StatusIncomplete) {
		s.appendConversation(p, b)
	}
	if status == openai.StatusFailed {
		emitErr = firstErr(emitErr, b.event(openai.NewErrorEvent(apiErr)))
	}
	emitErr = firstErr(emitErr, b.terminal())
	gone := b.writeErr != nil || errors.Is(context.Cause(ctx), ErrClientGone)
	if err != nil && (gone || (b.emit == nil && status == openai.StatusFailed)) {
		return err // the client is gone, or gets the failure as an HTTP error
	}
	return emitErr
}

// outcome is the final status of a response whose generation returned
// err, with the error it shows and, for a failure, the API error.
func outcome(ctx context.Context, err error, b *respBuilder) (string, *openai.ResponseError, *openai.Error) {
	cause := context.Cause(ctx)
	switch {
	case err == nil && b.finish == runtime.FinishLength:
		return openai.StatusIncomplete, nil, nil
	case err == nil:
		return openai.StatusCompleted, nil, nil
	case errors.Is(cause, errResponseCancelled):
		return openai.StatusCancelled, &openai.ResponseError{Code: "cancelled", Message: "The response was cancelled (POST /v1/responses/" + b.resp.ID + "/cancel)."}, nil
	case b.writeErr != nil || ctx.Err() != nil:
		// The client went away, or the server stops.
		why := err
		if cause != nil {
			why = cause
		}
		return openai.StatusCancelled, &openai.ResponseError{Code: "cancelled", Message: "The response was cut short: " + why.Error() + "."}, nil
	}
	e := apiError(err)
	code := e.Code
	if code == "" {
		code = "server_error"
	}
	return openai.StatusFailed, &openai.ResponseError{Code: code, Message: e.Message}, e
}

// saveResponse puts the response's record in the store; cancel stops its
// generation while it runs. A response deleted while it ran stays deleted.
// It reports whether the record was stored.
func (s *Server) saveResponse(p *responsePlan, b *respBuilder, cancel func()) bool {
	obj, err := json.Marshal(&b.resp)
	if err == nil && s.live.deleted(p.id) {
		return false
	}
	rec := responses.Response{ID: p.id, CreatedAt: p.created, Model: p.req.Model, Status: responses.Status(b.resp.Status),
		PreviousID: deref(p.req.PreviousResponseID), ConversationID: p.req.Conversation, Input: storeItems(p.input),
		Output: storeItems(b.resp.Output), Metadata: p.req.Metadata, Object: obj, Cancel: cancel}
	if err == nil {
		err = s.responses.Put(rec)
	}
	if err != nil {
		s.opt.Log.Warn("response not stored", "id", p.id, "err", err)
		_ = s.responses.Delete(p.id) // no stale record
		return false
	}
	return true
}

// appendConversation adds the new input items and the output items of a
// finished response to its conversation.
func (s *Server) appendConversation(p *responsePlan, b *respBuilder) {
	items := append(storeItems(p.input), storeItems(b.resp.Output)...)
	if _, err := s.conversations.Append(p.req.Conversation, items...); err != nil {
		s.opt.Log.Warn("conversation not updated", "conversation", p.req.Conversation, "response", p.id, "err", err)
	}
}

// liveResponses tracks the responses being generated, so that a cancel
// can wait for the final record and a delete is not undone by it.
type liveResponses struct {
	mu sync.Mutex
	m  map[string]*liveResponse
}

type liveResponse struct {
	done    chan struct{} // closed when the final record is stored
	deleted bool
}

func (l *liveResponses) add(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]*liveResponse{}
	}
	l.m[id] = &liveResponse{done: make(chan struct{})}
}

func (l *liveResponses) remove(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if lr := l.m[id]; lr != nil {
		close(lr.done)
		delete(l.m, id)
	}
}

// done returns the channel closed when response id has ended; nil when
// it is not running.
func (l *liveResponses) done(id string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if lr := l.m[id]; lr != nil {
		return lr.done
	}
	return nil
}

// markDeleted records that response id was deleted while it runs.
func (l *liveResponses) markDeleted(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if lr := l.m[id]; lr != nil {
		lr.deleted = true
	}
}

func (l *liveResponses) deleted(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	lr := l.m[id]
	return lr != nil && lr.deleted
}
