// Package bounded reads whole files that a model's folder may hold at any
// size (configs, tokenizers, templates, indexes) without trusting their
// size: it never reads more than one byte past the limit, so that a huge
// file, or a FIFO or device that never ends, costs no more memory.
package bounded

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is wrapped by the error of a file over its limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads the file at path, or fails with an error wrapping
// ErrTooLarge when it holds more than limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w: larger than %d bytes", path, ErrTooLarge, limit)
	}
	return b, nil
}
