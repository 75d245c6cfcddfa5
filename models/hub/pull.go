package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Snapshot is a model in the cache, ready to load.
type Snapshot struct {
	Repo     string
	Revision string
	Commit   string
	Dir      string   // snapshots/<commit>
	Path     string   // what to load: the (first) GGUF file, or Dir
	Format   string   // FormatGGUF or FormatSafetensors
	Files    []string // repo paths of the model's files
}

// Resolve returns the path the runtime loads for a reference: an existing
// local file or directory as it is; else the cached snapshot when it is
// complete, with no network access; else (unless offline) what Pull fetches.
func (c *Client) Resolve(ctx context.Context, ref string) (string, error) {
	if _, err := os.Stat(ref); err == nil {
		return ref, nil
	}
	r, err := ParseRef(ref)
	if err != nil {
		return "", err
	}
	s, err := c.cache.Find(r)
	if err == nil {
		return s.Path, nil
	}
	if c.opts.Offline {
		return "", c.offlineError(r, err)
	}
	if s, err = c.Pull(ctx, r); err != nil {
		return "", err
	}
	return s.Path, nil
}

// Pull asks the hub which commit the reference's revision is at and
// downloads the files the model needs that the cache lacks. Blobs are written
// first, then the snapshot links, then the ref, so a snapshot is complete
// whenever it is visible. Offline, it returns the cached snapshot.
func (c *Client) Pull(ctx context.Context, r Ref) (*Snapshot, error) {
	if c.opts.Offline {
		s, err := c.cache.Find(r)
		if err != nil {
			return nil, c.offlineError(r, err)
		}
		return s, nil
	}
	rev := r.Rev()
	info, err := c.listRepo(ctx, r.Repo, rev)
	if err != nil {
		return nil, err
	}
	sel, err := selectFiles(r, info.Files)
	if err != nil {
		return nil, err
	}
	commit := info.Commit
	etags := make([]string, len(sel.Files))
	var mu sync.Mutex
	for i, file := range sel.Files {
		fp := &fileProgress{mu: &mu, fn: c.opts.Progress,
			p: Progress{Repo: r.Repo, File: file, Total: -1, Index: i + 1, Count: len(sel.Files)}}
		if commit != "" {
			st, err := os.Stat(filepath.Join(c.cache.SnapshotDir(r.Repo, commit), filepath.FromSlash(file)))
			if err == nil && st.Mode().IsRegular() {
				fp.p.Total = st.Size()
				fp.event(EventCached)
				continue
			}
		}
		at := rev
		if commit != "" {
			at = commit
		}
		m, err := c.fileMeta(ctx, r.Repo, at, file)
		if err != nil {
			return nil, err
		}
		if m.Size < 0 {
			size, ok := info.Sizes[file]
			if !ok {
				return nil, fmt.Errorf("%s %s: %w, so its download would have no bound", r.Repo, file, ErrUnknownSize)
			}
			m.Size = size
		}
		switch {
		case commit == "" && m.Commit == "":
			return nil, fmt.Errorf("%s %s: the hub gave no X-Repo-Commit: %w", r.Repo, file, ErrProtocol)
		case commit == "":
			commit = m.Commit
		}
		fp.p.Total = m.Size
		if err := c.fetchBlob(ctx, r.Repo, commit, file, m, fp); err != nil {
			return nil, err
		}
		etags[i] = m.ETag
	}
	for i, file := range sel.Files {
		if etags[i] != "" {
			if err := c.cache.link(r.Repo, commit, file, etags[i]); err != nil {
				return nil, diskFull(err, file)
			}
		}
	}
	if err := c.cache.writeRef(r.Repo, rev, commit); err != nil {
		return nil, err
	}
	return c.cache.snapshot(r, commit, sel), nil
}

func (c *Client) offlineError(r Ref, err error) error {
	return fmt.Errorf("%s is not in the cache %s and offline mode forbids downloading it: %w", r, c.cache.Dir, err)
}

// fileExists reports whether path (following links) is a regular file.
func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
