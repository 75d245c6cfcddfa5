package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockPoll is how often a held lock is tried again.
const lockPoll = 20 * time.Millisecond

// fileLock is an exclusive lock on a lock file, shared with the Hugging Face
// tools (they use flock on the same paths).
type fileLock struct {
	f    *os.File
	path string
}

// lockFile takes the lock at path, waiting until it is free or ctx is done.
func lockFile(ctx context.Context, path string) (*fileLock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, diskFull(err, path)
	}
	for {
		l, err := tryLock(path)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if l != nil {
			return l, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the lock %s: %w", path, context.Cause(ctx))
		case <-time.After(lockPoll):
		}
	}
}
