package tui

import (
	"errors"
	"fmt"
)

// Errors of the chat, wrapped with details.
var (
	// ErrContextFull is what a Generator wraps when the conversation no
	// longer fits in the model's context; the chat then suggests /clear.
	ErrContextFull = errors.New("the conversation does not fit in the context")
	// ErrSetting reports a bad /set value.
	ErrSetting = errors.New("invalid setting")
	// ErrTranscript reports a file /load cannot read as a transcript.
	ErrTranscript = errors.New("not a chat transcript")
	// ErrPanic reports a panic turned into an error.
	ErrPanic = errors.New("internal error")
)

// Error pairs a message for the person with its cause. A Generator may
// return one to choose the words the chat shows.
type Error struct {
	Msg string // for the person, one sentence
	Err error  // the cause, for errors.Is and logs
}

// Error returns the message and the cause.
func (e *Error) Error() string {
	if e.Err == nil {
		return e.Msg
	}
	return e.Msg + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// userMessage returns the words the chat shows for err.
func userMessage(err error) string {
	var ue *Error
	switch {
	case errors.As(err, &ue):
		return ue.Msg
	case errors.Is(err, ErrContextFull):
		return fmt.Sprintf("%v. Use /clear to start a new conversation.", err)
	default:
		return err.Error()
	}
}

// recovered turns a recovered panic value into an error.
func recovered(where string, r any) error {
	return &Error{Msg: "Something went wrong inside the chat (" + where + "); the chat goes on.",
		Err: fmt.Errorf("%w: panic in %s: %v", ErrPanic, where, r)}
}
