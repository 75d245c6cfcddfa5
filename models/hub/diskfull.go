package hub

import (
	"errors"
	"fmt"
)

// diskFull wraps an error that says the disk is full with ErrDiskFull and
// the path being written; other errors are returned as they are.
func diskFull(err error, path string) error {
	if err == nil || errors.Is(err, ErrDiskFull) || !isNoSpace(err) {
		return err
	}
	return fmt.Errorf("writing %s: %w (%v): free some space or put the cache on another disk", path, ErrDiskFull, err)
}
