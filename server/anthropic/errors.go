package anthropic

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error types of the error bodies.
const (
	TypeInvalidRequest = "invalid_request_error"
	TypeAuthentication = "authentication_error"
	TypePermission     = "permission_error"
	TypeNotFound       = "not_found_error"
	TypeTooLarge       = "request_too_large"
	TypeRateLimit      = "rate_limit_error"
	TypeAPI            = "api_error"
	TypeOverloaded     = "overloaded_error"
)

// Error is an API error: the HTTP status and the body
// {"type":"error","error":{"type","message"}}.
type Error struct {
	Status  int
	Type    string
	Message string
}

// Error implements error.
func (e *Error) Error() string { return e.Message }

// errorBody is the JSON of an Error.
type errorBody struct {
	Type  string      `json:"type"`
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Body returns the error body.
func (e *Error) Body() []byte {
	b, _ := json.Marshal(errorBody{Type: "error", Error: errorDetail{Type: e.Type, Message: e.Message}})
	return b
}

// Invalid returns a 400 invalid_request_error.
func Invalid(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// TypeOf is the error type of an HTTP status, as Anthropic pairs them.
func TypeOf(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return TypeAuthentication
	case status == http.StatusForbidden:
		return TypePermission
	case status == http.StatusNotFound:
		return TypeNotFound
	case status == http.StatusRequestEntityTooLarge:
		return TypeTooLarge
	case status == http.StatusTooManyRequests:
		return TypeRateLimit
	case status == http.StatusServiceUnavailable || status == 529:
		return TypeOverloaded
	case status >= 500:
		return TypeAPI
	}
	return TypeInvalidRequest
}
