//go:build !unix && !windows

package hub

import (
	"errors"
	"io/fs"
	"os"
)

// tryLock creates path exclusively; nil, nil means another holder has it.
// Platforms without file locks get this portable fallback.
func tryLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &fileLock{f: f, path: path}, nil
}

// Unlock releases the lock by removing the file.
func (l *fileLock) Unlock() error {
	err := l.f.Close()
	os.Remove(l.path)
	return err
}
