package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
	"github.com/mlxrun/mlx/server/upstream"
)

// remoteModel is a model an upstream serves, as one request acquires it:
// prepareRemote binds the request's plan to it, and Generate forwards the
// plan to the upstream and relays what it answers. The upstream parses
// reasoning and tool calls itself, so the model is also the output
// parser of its one choice: it hands on what the upstream parsed.
type remoteModel struct {
	srv   *Server
	up    *upstream.Client
	id    string // NAME/model, as requests name it
	model string // the upstream's name of the model
	path  string // the endpoint the plan goes to
	body  []byte // the request the plan became

	pending     toolparse.Delta // the upstream's part of the event being emitted
	inReasoning bool
}

// remoteFormat is the Format of a remote model in the listings.
const remoteFormat = "remote"

// errRemoteOnly is wrapped by the errors of what a remote model cannot do
// here, where its tokenizer and template are out of reach.
var errRemoteOnly = errors.New("the model runs on an upstream server")

// upstreamModel returns the remote model a request's name refers to:
// NAME/model of a configured upstream that lists model (looked for
// again when the list lacks it).
func (s *Server) upstreamModel(ctx context.Context, name string) (*remoteModel, bool) {
	prefix, model, ok := strings.Cut(name, "/")
	if !ok {
		return nil, false
	}
	for _, up := range s.opt.Upstreams {
		if up.Name() == prefix && up.Find(ctx, model) {
			return &remoteModel{srv: s, up: up, id: name, model: model}, true
		}
	}
	return nil, false
}

// Info implements Model.
func (m *remoteModel) Info() ModelInfo {
	return ModelInfo{Path: m.up.URL(), Format: remoteFormat, Parallel: 1}
}

// Tokenize implements Model: the upstream's tokenizer is not here.
func (m *remoteModel) Tokenize(string, bool) []int32 { return nil }

// EncodePrompt implements Model: the upstream's tokenizer is not here.
func (m *remoteModel) EncodePrompt(string) []int32 { return nil }

// Detokenize implements Model: the upstream's tokenizer is not here.
func (m *remoteModel) Detokenize([]int32, bool) string { return "" }

// RenderChat implements Model: the upstream renders its own prompts.
func (m *remoteModel) RenderChat(context.Context, []ChatMessage, ChatOptions) (string, error) {
	return "", fmt.Errorf("%w (%s): its chat template is applied there", errRemoteOnly, m.up.Name())
}

// Close implements Model.
func (m *remoteModel) Close() error { return nil }

// Feed implements outputParser with what the upstream parsed of the
// event being emitted.
func (m *remoteModel) Feed(string) toolparse.Delta {
	d := m.pending
	m.pending = toolparse.Delta{}
	return d
}

// Flush implements outputParser: the upstream held nothing back.
func (m *remoteModel) Flush() toolparse.Delta { return toolparse.Delta{} }

// InReasoning implements outputParser.
func (m *remoteModel) InReasoning() bool { return m.inReasoning }

// Generate implements Model: it streams the prepared request from the
// upstream. The request's context ending (the client gone) closes the
// upstream connection, which cancels the request there.
func (m *remoteModel) Generate(ctx context.Context, _ runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	if m.body == nil {
		return runtime.Result{}, fmt.Errorf("%w: no request was prepared for it", errRemoteOnly)
	}
	obs := m.srv.obs
	name := m.up.Name()
	obs.upRequests.Inc(name)
	obs.upInFlight.Add(1, name)
	start := time.Now()
	defer func() {
		obs.upInFlight.Add(-1, name)
		obs.upLatency.Observe(time.Since(start).Seconds(), name)
	}()
	res := runtime.Result{Finish: runtime.FinishStop, StopToken: -1}
	err := m.up.Stream(ctx, m.path, m.body, func(ev upstream.Event) error {
		if ev.Finish != "" {
			res.Finish = finishOf(ev.Finish)
			if u := ev.Usage; u != nil {
				res.Usage = runtime.Usage{Prompt: u.Prompt, Completion: u.Completion, Cached: u.Cached}
			}
		}
		d := toolparse.Delta{Content: ev.Content, Reasoning: ev.Reasoning}
		for _, c := range ev.Calls {
			d.Calls = append(d.Calls, toolparse.Call{Name: c.Name, Arguments: c.Arguments})
		}
		if d.Empty() {
			return nil
		}
		m.pending, m.inReasoning = d, d.Reasoning != "" && d.Content == ""
		return emit(runtime.Event{Text: d.Reasoning + d.Content})
	})
	if err != nil && ctx.Err() == nil {
		obs.upErrors.Inc(name)
	}
	return res, upstreamError(err)
}

// finishOf maps an upstream's finish reason to the engine's: tool calls
// end as a stop does, and the encoders tell them by the calls.
func finishOf(reason string) runtime.FinishReason {
	if reason == string(runtime.FinishLength) {
		return runtime.FinishLength
	}
	return runtime.FinishStop
}

// upstreamError keeps an upstream's error answer as it was (status and
// message); a failure to reach it is a 502.
func upstreamError(err error) error {
	var ue *upstream.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ue):
		return &openai.Error{Status: ue.Status, Message: ue.Message, Type: ue.Type, Param: ue.Param, Code: ue.Code}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return openai.ServerError(http.StatusBadGateway, "", "%v", err)
}
