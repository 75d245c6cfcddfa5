package jinja

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error returned by this package wraps one of them.
var (
	// ErrSyntax marks a template that cannot be parsed.
	ErrSyntax = errors.New("template syntax error")
	// ErrRuntime marks a failure while rendering (type errors, undefined
	// values, sandbox violations), as Python's jinja2 would raise.
	ErrRuntime = errors.New("template runtime error")
	// ErrRaised marks an error the template raised itself (raise_exception).
	ErrRaised = errors.New("template raised an error")
	// ErrLimit marks a template that exceeded a resource limit.
	ErrLimit = errors.New("template limit exceeded")
)

// Error is a template failure with the Python exception type jinja2 would
// raise and the line it happened on.
type Error struct {
	Kind error  // ErrSyntax, ErrRuntime, ErrRaised or ErrLimit
	Type string // Python exception name, e.g. "TypeError", "UndefinedError"
	Msg  string // the message, as Python would word it where possible
	Name string // template name, if any
	Line int    // 1-based source line, 0 when unknown
}

// Error returns the message; an error raised by the template itself is
// returned exactly as the template worded it.
func (e *Error) Error() string {
	if e.Kind == ErrRaised {
		return e.Msg
	}
	where := e.Name
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", where, e.Line)
	}
	if where != "" {
		where += ": "
	}
	return fmt.Sprintf("%s%s: %s", where, e.Type, e.Msg)
}

// Unwrap returns the sentinel kind.
func (e *Error) Unwrap() error { return e.Kind }

// RaiseError returns the error a template function such as raise_exception
// returns: rendering stops and Render returns an *Error whose message is
// exactly msg and which wraps ErrRaised.
func RaiseError(msg string) error {
	return &Error{Kind: ErrRaised, Type: "TemplateError", Msg: msg}
}

func newErr(kind error, typ, format string, a ...any) *Error {
	msg := format
	if len(a) > 0 {
		msg = fmt.Sprintf(format, a...)
	}
	return &Error{Kind: kind, Type: typ, Msg: msg}
}

func typeErr(format string, a ...any) *Error { return newErr(ErrRuntime, "TypeError", format, a...) }

func valueErr(format string, a ...any) *Error { return newErr(ErrRuntime, "ValueError", format, a...) }

func runtimeErr(format string, a ...any) *Error {
	return newErr(ErrRuntime, "TemplateRuntimeError", format, a...)
}

func limitErr(format string, a ...any) *Error { return newErr(ErrLimit, "LimitError", format, a...) }

func syntaxErr(line int, format string, a ...any) *Error {
	e := newErr(ErrSyntax, "TemplateSyntaxError", format, a...)
	e.Line = line
	return e
}

func assertionErr(line int, format string, a ...any) *Error {
	e := syntaxErr(line, format, a...)
	e.Type = "TemplateAssertionError"
	return e
}
