//go:build !windows

package hub

import (
	"errors"
	"syscall"
)

// isNoSpace reports a full disk.
func isNoSpace(err error) bool { return errors.Is(err, syscall.ENOSPC) }
