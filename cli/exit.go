package cli

import "errors"

// exitError is an error that sets the status mlx exits with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// interrupted ends a command stopped by SIGINT (Ctrl+C): mlx says so and
// exits with status 130, as shells report a process that SIGINT ended, so
// that a script can tell a cut answer from a whole one.
func interrupted(err error) error {
	return &exitError{code: 130, err: err}
}

// errInterrupted is the error of a run stopped by SIGINT.
var errInterrupted = interrupted(errors.New("interrupted"))

// exitCode is the status mlx exits with after err.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}
