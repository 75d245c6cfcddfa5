// Package hubtest is a fake Hugging Face Hub for tests and end-to-end
// checks. It serves repos from memory or from a directory, on loopback only,
// through the endpoints the real hub has: the revision and tree APIs, and
// resolve addresses that answer HEAD with X-Repo-Commit, X-Linked-Etag and
// X-Linked-Size and redirect large (LFS) files to a second, "CDN" listener.
// Both honour Range and ETag. Faults can be injected: a connection cut in the
// middle of a body, a status (500, 401, 404), a stall, a corrupted body.
// Every request is logged with the body bytes sent.
package hubtest

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Server is a running fake hub.
type Server struct {
	URL string // the hub, e.g. http://127.0.0.1:41234
	CDN string // where LFS files are redirected to

	mu         sync.Mutex
	repos      map[string]*repo
	renamed    map[string]string // old repo → new repo
	faults     []*Fault
	log        []*Request
	noRevision bool
	noRanges   bool
	treePage   int
	hub, cdn   *http.Server
	hubL, cdnL net.Listener
}

// repo is the history of one fake repo.
type repo struct {
	refs    map[string]string           // branch → commit
	commits map[string]map[string]*blob // commit → path → content
	token   string                      // required bearer token; "" for a public repo
}

// Request is one request the server received.
type Request struct {
	Server    string // "hub" or "cdn"
	Method    string
	Path      string // unescaped path
	File      string // repo path of the file served, if any
	Range     string // the Range header
	Auth      string // the Authorization header
	Status    int
	BodyBytes int64 // body bytes written before the answer ended (or was cut)
}

// Start serves the repos under root (see LoadDir; "" for none) on
// 127.0.0.1 at free ports.
func Start(root string) (*Server, error) { return Listen("127.0.0.1:0", root) }

// Listen serves the repos under root with the hub at addr, which must be a
// loopback address, and the CDN at a free loopback port.
func Listen(addr, root string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("hubtest: address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("hubtest: %q is not a loopback address", addr)
	}
	s := &Server{repos: map[string]*repo{}, renamed: map[string]string{}, treePage: 1000}
	if root != "" {
		if err := s.LoadDir(root); err != nil {
			return nil, err
		}
	}
	if s.hubL, err = net.Listen("tcp", addr); err != nil {
		return nil, fmt.Errorf("hubtest: %w", err)
	}
	if s.cdnL, err = net.Listen("tcp", net.JoinHostPort(host, "0")); err != nil {
		s.hubL.Close()
		return nil, fmt.Errorf("hubtest: %w", err)
	}
	s.URL = "http://" + s.hubL.Addr().String()
	s.CDN = "http://" + s.cdnL.Addr().String()
	s.hub = &http.Server{Handler: s.hubMux()}
	s.cdn = &http.Server{Handler: http.HandlerFunc(s.serveCDN)}
	go s.hub.Serve(s.hubL)
	go s.cdn.Serve(s.cdnL)
	return s, nil
}

// Close stops the server and drops its connections.
func (s *Server) Close() {
	s.hub.Close()
	s.cdn.Close()
}

// Wait blocks until ctx is done, then closes the server.
func (s *Server) Wait(ctx context.Context) {
	<-ctx.Done()
	s.hub.Shutdown(context.Background())
	s.cdn.Shutdown(context.Background())
}

// Publish makes files the complete content of repo ("org/name") at a new
// commit that main then points to, and returns the commit. Earlier commits
// stay reachable by their hash.
func (s *Server) Publish(repoName string, files map[string][]byte) string {
	blobs := map[string]*blob{}
	for p, data := range files {
		blobs[p] = memBlob(p, data)
	}
	return s.publish(repoName, blobs)
}

func (s *Server) publish(repoName string, blobs map[string]*blob) string {
	paths := make([]string, 0, len(blobs))
	for p := range blobs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	h := sha1.New()
	fmt.Fprintf(h, "repo %s\n", repoName)
	for _, p := range paths {
		fmt.Fprintf(h, "%s\x00%s\n", p, blobs[p].gitSHA1)
	}
	commit := hex.EncodeToString(h.Sum(nil))
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repos[repoName]
	if r == nil {
		r = &repo{refs: map[string]string{}, commits: map[string]map[string]*blob{}}
		s.repos[repoName] = r
	}
	r.commits[commit] = blobs
	r.refs["main"] = commit
	return commit
}

// Tag points the branch or tag rev of a repo to commit.
func (s *Server) Tag(repoName, rev, commit string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[repoName]; r != nil {
		r.refs[rev] = commit
	}
}

// Gate makes a repo answer 401 unless the request carries "Bearer token".
func (s *Server) Gate(repoName, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[repoName]; r != nil {
		r.token = token
	}
}

// Rename moves a repo; the old name answers with a relative redirect, as the
// hub does.
func (s *Server) Rename(oldName, newName string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[oldName]; r != nil {
		s.repos[newName] = r
		delete(s.repos, oldName)
		s.renamed[oldName] = newName
	}
}

// DisableRevisionAPI makes the revision API answer 404, so that clients
// must fall back to the tree API.
func (s *Server) DisableRevisionAPI() {
	s.mu.Lock()
	s.noRevision = true
	s.mu.Unlock()
}

// IgnoreRanges makes the server answer every Range request with the whole
// file (200), as some proxies do.
func (s *Server) IgnoreRanges() {
	s.mu.Lock()
	s.noRanges = true
	s.mu.Unlock()
}

// SetTreePage sets how many entries a page of the tree API holds.
func (s *Server) SetTreePage(n int) {
	s.mu.Lock()
	s.treePage = max(1, n)
	s.mu.Unlock()
}

// Requests returns a copy of the request log.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.log))
	for i, r := range s.log {
		out[i] = *r
	}
	return out
}

// ClearRequests empties the request log.
func (s *Server) ClearRequests() {
	s.mu.Lock()
	s.log = nil
	s.mu.Unlock()
}

// Served returns the body bytes sent for a repo file by GET requests, and the
// number of those requests.
func (s *Server) Served(file string) (bytes int64, gets int) {
	for _, r := range s.Requests() {
		if r.File == file && r.Method == http.MethodGet {
			bytes += r.BodyBytes
			gets++
		}
	}
	return bytes, gets
}

// record appends a request to the log and returns its entry. A request that
// outlives ClearRequests updates an entry no longer in the log.
func (s *Server) record(r Request) *Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := &r
	s.log = append(s.log, e)
	return e
}

// update changes a logged request.
func (s *Server) update(e *Request, f func(*Request)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(e)
}

// view is what a request sees of a repo at a revision.
type view struct {
	found   bool             // the repo exists
	movedTo string           // the repo was renamed to this
	token   string           // the token the repo requires
	commit  string           // "" when the revision does not exist
	files   map[string]*blob // at commit
}

// lookup returns the state of a repo at a revision.
func (s *Server) lookup(name, rev string) view {
	s.mu.Lock()
	defer s.mu.Unlock()
	if to, ok := s.renamed[name]; ok {
		return view{movedTo: to}
	}
	r := s.repos[name]
	if r == nil {
		return view{}
	}
	v := view{found: true, token: r.token, commit: r.refs[rev]}
	if _, ok := r.commits[rev]; ok && v.commit == "" {
		v.commit = rev
	}
	v.files = r.commits[v.commit]
	return v
}

func bearer(h http.Header) string {
	return strings.TrimPrefix(h.Get("Authorization"), "Bearer ")
}
