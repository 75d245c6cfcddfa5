//go:build unix

package mmap

import (
	"os"

	"golang.org/x/sys/unix"
)

func mapFile(f *os.File, size int) ([]byte, bool, error) {
	data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

func unmap(b []byte) error { return unix.Munmap(b) }

// release drops the process's pages of b, page-aligned bytes of a shared
// read-only file mapping; the next read faults them in from the file again.
func release(b []byte) error { return unix.Madvise(b, unix.MADV_DONTNEED) }
