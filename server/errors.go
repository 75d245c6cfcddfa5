package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/openai"
)

// ErrShutdown reports a request refused or cut because the server stops.
var ErrShutdown = errors.New("the server is shutting down")

// apiError maps an error to the API error a client gets.
func apiError(err error) *openai.Error {
	var ae *openai.Error
	var pe *sample.ParamError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &pe):
		return openai.Invalid(pe.Param, openai.CodeInvalidValue, "%s", pe.Msg)
	case errors.Is(err, runtime.ErrContextLength):
		return openai.Invalid("messages", openai.CodeContextLength, "%v", err)
	case errors.Is(err, grammar.ErrTooComplex):
		return openai.Invalid("", openai.CodeInvalidValue, "The output grammar is too complex to follow: %v.", err)
	case errors.Is(err, runtime.ErrInvalidRequest), errors.Is(err, sample.ErrInvalid):
		return openai.Invalid("", openai.CodeInvalidValue, "%v", err)
	case errors.Is(err, runtime.ErrBusy):
		return openai.ServerError(http.StatusTooManyRequests, openai.CodeOverloaded,
			"The server is busy: %v (mlx serve --max-queue, --parallel). Retry after %d s.", err, retryAfterSeconds)
	case errors.Is(err, runtime.ErrModelNotFound):
		return &openai.Error{Status: http.StatusNotFound, Type: openai.TypeInvalidRequest, Param: "model", Code: openai.CodeModelNotFound, Message: err.Error()}
	case errors.Is(err, runtime.ErrClosed), errors.Is(err, ErrShutdown):
		return openai.ServerError(http.StatusServiceUnavailable, "", "%v", err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return openai.ServerError(499, "", "the request was cancelled: %v", err)
	}
	return openai.ServerError(http.StatusInternalServerError, "", "%v", err)
}

// retryAfterSeconds is the Retry-After of a 429: the queue of a busy
// engine moves on within seconds.
const retryAfterSeconds = 1
