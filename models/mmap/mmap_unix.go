//go:build unix

package mmap

import (
	"os"
	"syscall"
)

func mapFile(f *os.File, size int) ([]byte, bool, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

func unmap(b []byte) error { return syscall.Munmap(b) }
