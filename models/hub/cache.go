package hub

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Cache is a hub cache directory in the layout of the Hugging Face tools:
//
//	models--org--name/blobs/<etag>                 file contents, named by sha256 (LFS) or git sha1
//	models--org--name/snapshots/<commit>/<path>    relative symlinks to ../../blobs/<etag>
//	models--org--name/refs/<revision>              the commit a branch or tag pointed to
//	.locks/models--org--name/<etag>.lock           held while a blob is written
type Cache struct {
	Dir string
}

// RepoDir returns the folder of a repo ("org/name") in the cache.
func (c Cache) RepoDir(repo string) string {
	return filepath.Join(c.Dir, repoFolder(repo))
}

// SnapshotDir returns the folder of the files of a repo at a commit.
func (c Cache) SnapshotDir(repo, commit string) string {
	return filepath.Join(c.RepoDir(repo), "snapshots", commit)
}

func repoFolder(repo string) string { return "models--" + strings.ReplaceAll(repo, "/", "--") }

func (c Cache) blobPath(repo, etag string) string {
	return filepath.Join(c.RepoDir(repo), "blobs", etag)
}

func (c Cache) lockPath(repo, etag string) string {
	return filepath.Join(c.Dir, ".locks", repoFolder(repo), etag+".lock")
}

func (c Cache) refPath(repo, rev string) string {
	return filepath.Join(c.RepoDir(repo), "refs", filepath.FromSlash(rev))
}

// ReadRef returns the commit a revision points to in the cache. A commit
// hash is its own answer.
func (c Cache) ReadRef(repo, rev string) (string, error) {
	if isCommit(rev) {
		return rev, nil
	}
	f, err := os.Open(c.refPath(repo, rev))
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 256))
	if err != nil {
		return "", err
	}
	commit := string(bytes.TrimSpace(b))
	if !isCommit(commit) {
		return "", fmt.Errorf("%s: not a commit hash: %w", c.refPath(repo, rev), ErrProtocol)
	}
	return commit, nil
}

// writeRef records that rev points to commit. A commit needs no ref.
func (c Cache) writeRef(repo, rev, commit string) error {
	if rev == commit {
		return nil
	}
	return writeFileAtomic(c.refPath(repo, rev), []byte(commit))
}

// link makes snapshots/<commit>/<file> point to the blob: a relative
// symlink, else (Windows without the right) a hard link, else a copy. It
// replaces what was there atomically.
func (c Cache) link(repo, commit, file, etag string) error {
	blob := c.blobPath(repo, etag)
	dst := filepath.Join(c.SnapshotDir(repo, commit), filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	rel, err := filepath.Rel(filepath.Dir(dst), blob)
	if err != nil {
		return err
	}
	if target, err := os.Readlink(dst); err == nil && target == rel {
		return nil
	}
	tmp := tempName(dst)
	if err := os.Symlink(rel, tmp); err != nil {
		if err := os.Link(blob, tmp); err != nil {
			if err := copyFile(blob, tmp); err != nil {
				os.Remove(tmp)
				return fmt.Errorf("link %s: %w", dst, err)
			}
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// writeFileAtomic writes data to a temporary file and renames it to path.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := tempName(path)
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return diskFull(err, path)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// tempCount makes temporary names unique within the process; the pid and
// the time make them unique across processes.
var tempCount atomic.Int64

func tempName(path string) string {
	return fmt.Sprintf("%s.tmp%d-%s-%d", path, os.Getpid(),
		strconv.FormatInt(time.Now().UnixNano(), 36), tempCount.Add(1))
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return diskFull(err, dst)
	}
	return out.Close()
}

// isCommit reports whether s is a full git commit hash.
func isCommit(s string) bool { return len(s) == 40 && isHex(s) }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return s != ""
}
