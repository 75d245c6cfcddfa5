package hub

import (
	"errors"

	"golang.org/x/sys/windows"
)

// isNoSpace reports a full disk.
func isNoSpace(err error) bool {
	return errors.Is(err, windows.ERROR_DISK_FULL) || errors.Is(err, windows.ERROR_HANDLE_DISK_FULL)
}
