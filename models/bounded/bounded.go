// Package bounded reads whole files and streams without trusting their
// size: a model folder's configs, tokenizers, templates and indexes, a
// token file, standard input. It never reads more than one byte past the
// limit, so that a huge file, or a FIFO or device that never ends, costs
// no more memory.
package bounded

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is wrapped by the error of a file or stream over its limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads the file at path, or fails with an error wrapping
// ErrTooLarge when it holds more than limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := Read(f, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Read reads r to its end, or fails with an error wrapping ErrTooLarge
// once it has given more than limit bytes.
func Read(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrTooLarge, limit)
	}
	return b, nil
}
