package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error types and codes of the error bodies.
const (
	TypeInvalidRequest = "invalid_request_error"
	TypeServer         = "server_error"
	TypeNotFound       = "not_found_error"

	CodeModelNotFound = "model_not_found"
	CodeInvalidAPIKey = "invalid_api_key"
	CodeInvalidValue  = "invalid_value"
	CodeInvalidType   = "invalid_type"
	CodeMissing       = "missing_required_parameter"
	CodeUnsupported   = "unsupported_parameter"
	CodeContextLength = "context_length_exceeded"
	CodeTooLarge      = "request_too_large"
	CodeOverloaded    = "engine_overloaded"
	CodeInvalidJSON   = "invalid_json"
)

// Error is an API error: the HTTP status and the fields of the body
// {"error":{"message","type","param","code"}}.
type Error struct {
	Status  int
	Message string
	Type    string
	Param   string // "" is sent as null
	Code    string // "" is sent as null
}

// Error implements error.
func (e *Error) Error() string {
	if e.Param != "" {
		return fmt.Sprintf("%s (param %s)", e.Message, e.Param)
	}
	return e.Message
}

// wireError is the JSON of an Error.
type wireError struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// MarshalJSON writes the inner object of the error body.
func (e *Error) MarshalJSON() ([]byte, error) {
	return json.Marshal(wireError{Message: e.Message, Type: e.Type, Param: nullable(e.Param), Code: nullable(e.Code)})
}

// Body returns the error body {"error":{...}}.
func (e *Error) Body() []byte {
	b, _ := json.Marshal(struct {
		Error *Error `json:"error"`
	}{e})
	return b
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Invalid returns a 400 invalid_request_error about param.
func Invalid(param, code, format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Type: TypeInvalidRequest, Param: param, Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotFound returns the 404 of an unknown model.
func NotFound(model string) *Error {
	return &Error{Status: http.StatusNotFound, Type: TypeInvalidRequest, Param: "model", Code: CodeModelNotFound,
		Message: fmt.Sprintf("The model '%s' does not exist or cannot be loaded.", model)}
}

// ServerError returns an error of the server with status.
func ServerError(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Type: TypeServer, Code: code, Message: fmt.Sprintf(format, args...)}
}
