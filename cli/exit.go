package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// exitError is an error that sets the status mlx exits with.
type exitError struct {
	code int
	err  error
	// newLine starts the message on a line of its own on a terminal: after
	// Ctrl+C its cursor is behind the "^C" it echoed, maybe behind a
	// progress bar.
	newLine bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// interrupted ends a command stopped by SIGINT (Ctrl+C): mlx says so and
// exits with status 130, as shells report a process that SIGINT ended, so
// that a script can tell a cut answer from a whole one.
func interrupted(err error) *exitError {
	return &exitError{code: 130, err: err, newLine: true}
}

// errInterrupted is the message of a command stopped by SIGINT.
var errInterrupted = errors.New("interrupted")

// orInterrupted returns the interruption in place of an error that the end
// of ctx (SIGINT) caused, and err otherwise.
func orInterrupted(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && exitCode(err) != 130 {
		return interrupted(errInterrupted)
	}
	return err
}

// exitCode is the status mlx exits with after err.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}

// report writes err as the one line of a failed command, on a line of its
// own when w is a terminal (tty) whose cursor may be elsewhere, and returns
// the exit status.
func report(w io.Writer, tty bool, err error) int {
	var e *exitError
	if errors.As(err, &e) && e.newLine && tty {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "mlx: "+err.Error())
	return exitCode(err)
}
