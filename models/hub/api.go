package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/mlxrun/mlx/models/bounded"
)

// maxJSON bounds an API answer.
const maxJSON = 32 << 20

// maxTreePages bounds the pages of a tree listing.
const maxTreePages = 1000

// repoInfo is the listing of a repo at a revision.
type repoInfo struct {
	Commit string           // "" when the listing did not say (tree API)
	Files  []string         // repo paths
	Sizes  map[string]int64 // file sizes the listing gave
}

// listedSize is the size of a file in a listing: that of its LFS object,
// else its own.
type listedSize struct {
	Size *int64 `json:"size"`
	LFS  *struct {
		Size *int64 `json:"size"`
	} `json:"lfs"`
}

// add records the size of path in info when the listing gave a sane one.
func (l listedSize) add(info *repoInfo, path string) {
	n := l.Size
	if l.LFS != nil && l.LFS.Size != nil {
		n = l.LFS.Size
	}
	if n == nil || *n < 0 || *n > maxFileSize {
		return
	}
	if info.Sizes == nil {
		info.Sizes = map[string]int64{}
	}
	info.Sizes[path] = *n
}

// listRepo lists a repo through the revision API, falling back to the tree
// API when the first is missing or answers in another shape (a mirror may
// have only one of them). Any other failure (authorization, an unreachable
// or failing hub) is final: the tree API would fail the same way.
func (c *Client) listRepo(ctx context.Context, repo, rev string) (repoInfo, error) {
	info, err := c.listRevision(ctx, repo, rev)
	if err == nil || !(errors.Is(err, ErrNotFound) || errors.Is(err, ErrProtocol)) || ctx.Err() != nil {
		return info, err
	}
	info, terr := c.listTree(ctx, repo, rev)
	if terr != nil {
		return repoInfo{}, terr
	}
	return info, nil
}

func (c *Client) listRevision(ctx context.Context, repo, rev string) (repoInfo, error) {
	var v struct {
		SHA      string `json:"sha"`
		Siblings *[]struct {
			RFilename string `json:"rfilename"`
			listedSize
		} `json:"siblings"`
	}
	u := c.hubURL(append(append([]string{"api", "models"}, strings.Split(repo, "/")...), "revision", rev)...) + "?blobs=true"
	if _, err := c.getJSON(ctx, u, repo+"@"+rev, &v); err != nil {
		return repoInfo{}, err
	}
	if v.Siblings == nil {
		return repoInfo{}, fmt.Errorf("%s: the revision API gave no file list: %w", repo, ErrProtocol)
	}
	if v.SHA != "" && !isCommit(v.SHA) {
		return repoInfo{}, fmt.Errorf("%s: the revision API gave the commit %.60q: %w", repo, v.SHA, ErrProtocol)
	}
	info := repoInfo{Commit: v.SHA}
	for _, s := range *v.Siblings {
		if checkRepoPath(s.RFilename) == nil {
			info.Files = append(info.Files, s.RFilename)
			s.add(&info, s.RFilename)
		}
	}
	return info, nil
}

func (c *Client) listTree(ctx context.Context, repo, rev string) (repoInfo, error) {
	u := c.hubURL(append(append([]string{"api", "models"}, strings.Split(repo, "/")...), "tree", rev)...) + "?recursive=true"
	var info repoInfo
	for page := 0; u != ""; page++ {
		if page == maxTreePages {
			return repoInfo{}, fmt.Errorf("%s: more than %d pages of files: %w", repo, maxTreePages, ErrProtocol)
		}
		var entries []struct {
			Type string `json:"type"`
			Path string `json:"path"`
			listedSize
		}
		next, err := c.getJSON(ctx, u, repo+"@"+rev, &entries)
		if err != nil {
			return repoInfo{}, err
		}
		for _, e := range entries {
			if e.Type == "file" && checkRepoPath(e.Path) == nil {
				info.Files = append(info.Files, e.Path)
				e.add(&info, e.Path)
			}
		}
		u = next
	}
	return info, nil
}

// getJSON decodes the answer to a GET of u into v, with retries, and returns
// the "next" address of its Link header.
func (c *Client) getJSON(ctx context.Context, u, what string, v any) (next string, err error) {
	err = c.retry(ctx, maxMetaRetries, func() (bool, error) {
		resp, err := c.send(ctx, c.http, http.MethodGet, u, nil)
		if err != nil {
			return false, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return false, statusError(resp, what, c.opts.Token != "")
		}
		body, err := bounded.Read(resp.Body, maxJSON)
		if errors.Is(err, bounded.ErrTooLarge) {
			return false, fmt.Errorf("%s: answer larger than %d bytes: %w", what, maxJSON, ErrProtocol)
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", what, err)
		}
		if err := json.Unmarshal(body, v); err != nil {
			return false, fmt.Errorf("%s: %v: %w", what, err, ErrProtocol)
		}
		next = nextLink(resp.Header.Get("Link"))
		return false, nil
	})
	return next, err
}

var linkNext = regexp.MustCompile(`<([^>]+)>\s*;\s*rel="?next"?`)

// nextLink returns the rel="next" address of a Link header, or "".
func nextLink(h string) string {
	if m := linkNext.FindStringSubmatch(h); m != nil {
		return m[1]
	}
	return ""
}
