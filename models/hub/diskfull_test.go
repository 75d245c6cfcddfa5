//go:build !windows

package hub

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

func TestDiskFull(t *testing.T) {
	err := diskFull(&fs.PathError{Op: "write", Path: "/c/blob", Err: syscall.ENOSPC}, "/c/blob")
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "/c/blob") {
		t.Fatalf("%v", err)
	}
	if other := diskFull(fs.ErrPermission, "x"); errors.Is(other, ErrDiskFull) {
		t.Fatalf("%v reported as disk full", other)
	}
}
