package hub

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Removed says what Remove deleted.
type Removed struct {
	Repo      string
	Snapshots []string // commits whose snapshot is gone
	Refs      []string // refs deleted
	Files     int      // snapshot files deleted
	Blobs     int      // blobs deleted
	Freed     int64    // bytes freed on disk
	All       bool     // no snapshot is left: the repo folder is gone
}

// Remove deletes a model from the cache: the snapshot of the reference's
// revision (every snapshot when it names none), or only the GGUF files of its
// quantization or file; then the refs to deleted snapshots, and the blobs no
// remaining snapshot uses. A repo left with no snapshot is deleted whole. A
// pull of the same repo must not run meanwhile.
func (c Cache) Remove(r Ref) (Removed, error) {
	res := Removed{Repo: r.Repo}
	repoDir := c.RepoDir(r.Repo)
	if _, err := os.Stat(repoDir); err != nil {
		return res, fmt.Errorf("%s: %w", r.Repo, ErrNotCached)
	}
	commits, err := c.targetCommits(r)
	if err != nil {
		return res, err
	}
	unlinked := map[string]bool{} // blobs the deleted links pointed to
	for _, commit := range commits {
		dir := c.SnapshotDir(r.Repo, commit)
		files := snapshotEntries(dir)
		if r.Quant != "" || r.File != "" {
			sel, err := selectFiles(r, files)
			if err != nil {
				continue // not in this snapshot
			}
			files = sel.Files
		}
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if target, err := os.Readlink(p); err == nil {
				unlinked[filepath.Base(target)] = true
			} else if st, err := os.Stat(p); err == nil {
				res.Freed += st.Size() // a copy, not a link
			}
			if os.Remove(p) == nil {
				res.Files++
			}
		}
		pruneEmpty(dir)
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			res.Snapshots = append(res.Snapshots, commit)
		}
	}
	if res.Files == 0 {
		return res, fmt.Errorf("%s: nothing in the cache matches: %w", r, ErrNotCached)
	}
	for commit, revs := range c.refsByCommit(r.Repo) {
		if slices.Contains(res.Snapshots, commit) {
			for _, rev := range revs {
				if os.Remove(c.refPath(r.Repo, rev)) == nil {
					res.Refs = append(res.Refs, rev)
				}
			}
		}
	}
	slices.Sort(res.Refs)
	c.freeBlobs(r.Repo, unlinked, &res)
	return res, nil
}

// targetCommits returns the snapshots a reference names: the one of its
// revision, or all.
func (c Cache) targetCommits(r Ref) ([]string, error) {
	if r.Revision != "" {
		commit, err := c.ReadRef(r.Repo, r.Revision)
		if err != nil {
			return nil, fmt.Errorf("%s: no revision %s in the cache: %w", r.Repo, r.Revision, ErrNotCached)
		}
		return []string{commit}, nil
	}
	entries, _ := os.ReadDir(filepath.Join(c.RepoDir(r.Repo), "snapshots"))
	var commits []string
	for _, e := range entries {
		if e.IsDir() {
			commits = append(commits, e.Name())
		}
	}
	return commits, nil
}

// freeBlobs deletes the unlinked blobs that no remaining snapshot uses, or
// the whole repo when no snapshot remains.
func (c Cache) freeBlobs(repo string, unlinked map[string]bool, res *Removed) {
	repoDir := c.RepoDir(repo)
	snaps, _ := os.ReadDir(filepath.Join(repoDir, "snapshots"))
	if len(snaps) == 0 {
		entries, _ := os.ReadDir(filepath.Join(repoDir, "blobs"))
		for _, e := range entries {
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				res.Freed += info.Size()
				res.Blobs++
			}
		}
		os.RemoveAll(repoDir)
		os.RemoveAll(filepath.Join(c.Dir, ".locks", repoFolder(repo)))
		res.All = true
		return
	}
	used := map[string]bool{}
	for _, s := range snaps {
		dir := filepath.Join(repoDir, "snapshots", s.Name())
		for _, f := range snapshotEntries(dir) {
			if target, err := os.Readlink(filepath.Join(dir, filepath.FromSlash(f))); err == nil {
				used[filepath.Base(target)] = true
			}
		}
	}
	for etag := range unlinked {
		if used[etag] || !validETag(etag) {
			continue
		}
		p := c.blobPath(repo, etag)
		if st, err := os.Stat(p); err == nil && os.Remove(p) == nil {
			res.Freed += st.Size()
			res.Blobs++
		}
	}
}

// snapshotEntries lists the repo paths of a snapshot, dangling links too.
func snapshotEntries(dir string) []string {
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if rel, err := filepath.Rel(dir, p); err == nil {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return files
}

// pruneEmpty removes empty folders below and including dir.
func pruneEmpty(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			pruneEmpty(filepath.Join(dir, e.Name()))
		}
	}
	os.Remove(dir) // fails when not empty
}
