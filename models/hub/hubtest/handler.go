package hubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

func (s *Server) hubMux() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/models/{org}/{name}/revision/{rev}", s.revisionAPI)
	m.HandleFunc("GET /api/models/{org}/{name}/tree/{rev...}", s.treeAPI)
	m.HandleFunc("/", s.routeResolve)
	return m
}

// routeResolve sends GET and HEAD of /{org}/{name}/resolve/{rev}/{path...}
// to resolve (a pattern for it would overlap those of the API).
func (s *Server) routeResolve(w http.ResponseWriter, r *http.Request) {
	parts := strings.SplitN(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/", 5)
	if len(parts) == 5 && parts[2] == "resolve" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		names := []string{"org", "name", "", "rev", "path"}
		ok := true
		for i, n := range names {
			v, err := url.PathUnescape(parts[i])
			ok = ok && err == nil
			if n != "" {
				r.SetPathValue(n, v)
			}
		}
		if ok {
			s.resolve(w, r)
			return
		}
	}
	s.record(Request{Server: "hub", Method: r.Method, Path: r.URL.Path, Status: http.StatusNotFound})
	http.NotFound(w, r)
}

// open logs a hub request, looks up its repo and answers for the repo when
// it is missing, renamed or gated; ok is false when it answered.
func (s *Server) open(w http.ResponseWriter, r *http.Request) (v view, entry *Request, ok bool) {
	name := r.PathValue("org") + "/" + r.PathValue("name")
	rev := r.PathValue("rev")
	i := s.record(Request{Server: "hub", Method: r.Method, Path: r.URL.Path, File: r.PathValue("path"),
		Range: r.Header.Get("Range"), Auth: r.Header.Get("Authorization")})
	v = s.lookup(name, rev)
	fail := func(code int, errCode, msg string) (view, *Request, bool) {
		s.update(i, func(q *Request) { q.Status = code })
		w.Header().Set("X-Error-Code", errCode)
		w.Header().Set("X-Error-Message", msg)
		http.Error(w, msg, code)
		return v, i, false
	}
	switch {
	case v.movedTo != "":
		s.update(i, func(q *Request) { q.Status = http.StatusTemporaryRedirect })
		loc := strings.Replace(r.URL.EscapedPath(), "/"+name+"/", "/"+v.movedTo+"/", 1)
		w.Header().Set("Location", loc)
		w.WriteHeader(http.StatusTemporaryRedirect)
		return v, i, false
	case !v.found:
		return fail(http.StatusNotFound, "RepoNotFound", "Repository Not Found")
	case v.token != "" && bearer(r.Header) != v.token:
		return fail(http.StatusUnauthorized, "GatedRepo", "Access to model "+name+" is restricted")
	case v.commit == "":
		return fail(http.StatusNotFound, "RevisionNotFound", "Invalid rev id: "+rev)
	}
	return v, i, true
}

func (s *Server) revisionAPI(w http.ResponseWriter, r *http.Request) {
	v, i, ok := s.open(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	disabled := s.noRevision
	s.mu.Unlock()
	if disabled {
		s.update(i, func(q *Request) { q.Status = http.StatusNotFound })
		http.NotFound(w, r)
		return
	}
	type sibling struct {
		RFilename string `json:"rfilename"`
	}
	out := struct {
		ID       string    `json:"id"`
		SHA      string    `json:"sha"`
		Siblings []sibling `json:"siblings"`
	}{ID: r.PathValue("org") + "/" + r.PathValue("name"), SHA: v.commit, Siblings: []sibling{}}
	for _, p := range v.paths() {
		out.Siblings = append(out.Siblings, sibling{p})
	}
	s.writeJSON(w, i, out)
}

type lfsInfo struct {
	OID         string `json:"oid"`
	Size        int64  `json:"size"`
	PointerSize int    `json:"pointerSize"`
}

type treeEntry struct {
	Type string   `json:"type"`
	OID  string   `json:"oid"`
	Size int64    `json:"size"`
	Path string   `json:"path"`
	LFS  *lfsInfo `json:"lfs,omitempty"`
}

func (s *Server) treeAPI(w http.ResponseWriter, r *http.Request) {
	v, i, ok := s.open(w, r)
	if !ok {
		return
	}
	var entries []treeEntry
	dirs := map[string]bool{}
	for _, p := range v.paths() {
		for d := p; strings.Contains(d, "/"); {
			d = d[:strings.LastIndexByte(d, '/')]
			if !dirs[d] {
				dirs[d] = true
				entries = append(entries, treeEntry{Type: "directory", Path: d})
			}
		}
		b := v.files[p]
		e := treeEntry{Type: "file", OID: b.gitSHA1, Size: b.size, Path: p}
		if b.lfs {
			e.LFS = &lfsInfo{OID: b.sha256, Size: b.size, PointerSize: 134}
		}
		entries = append(entries, e)
	}
	s.mu.Lock()
	page := s.treePage
	s.mu.Unlock()
	from, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
	from = min(max(from, 0), len(entries))
	to := min(from+page, len(entries))
	if to < len(entries) {
		next := *r.URL
		q := next.Query()
		q.Set("cursor", strconv.Itoa(to))
		next.RawQuery = q.Encode()
		w.Header().Set("Link", fmt.Sprintf("<%s%s>; rel=\"next\"", s.URL, next.RequestURI()))
	}
	s.writeJSON(w, i, append([]treeEntry{}, entries[from:to]...))
}

func (s *Server) resolve(w http.ResponseWriter, r *http.Request) {
	v, i, ok := s.open(w, r)
	if !ok {
		return
	}
	file := r.PathValue("path")
	b := v.files[file]
	h := w.Header()
	h.Set("X-Repo-Commit", v.commit)
	if b == nil {
		s.update(i, func(q *Request) { q.Status = http.StatusNotFound })
		h.Set("X-Error-Code", "EntryNotFound")
		http.Error(w, "Entry not found", http.StatusNotFound)
		return
	}
	if !b.lfs {
		h.Set("ETag", strconv.Quote(b.gitSHA1))
		s.serveContent(w, r, b, file, i)
		return
	}
	h.Set("X-Linked-Etag", strconv.Quote(b.sha256))
	h.Set("X-Linked-Size", strconv.FormatInt(b.size, 10))
	h.Set("ETag", strconv.Quote(b.sha256))
	h.Set("Location", s.CDN+"/lfs/"+b.sha256+"?file="+url.QueryEscape(file))
	s.update(i, func(q *Request) { q.Status = http.StatusFound })
	w.WriteHeader(http.StatusFound)
}

// serveCDN answers GET and HEAD of /lfs/<sha256>?file=<repo path>.
func (s *Server) serveCDN(w http.ResponseWriter, r *http.Request) {
	file := r.URL.Query().Get("file")
	i := s.record(Request{Server: "cdn", Method: r.Method, Path: r.URL.Path, File: file,
		Range: r.Header.Get("Range"), Auth: r.Header.Get("Authorization")})
	b := s.blobBySHA(strings.TrimPrefix(r.URL.Path, "/lfs/"))
	if b == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		s.update(i, func(q *Request) { q.Status = http.StatusNotFound })
		http.NotFound(w, r)
		return
	}
	w.Header().Set("ETag", strconv.Quote(b.sha256))
	s.serveContent(w, r, b, file, i)
}

func (s *Server) blobBySHA(sha string) *blob {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.repos {
		for _, files := range r.commits {
			for _, b := range files {
				if b.lfs && b.sha256 == sha {
					return b
				}
			}
		}
	}
	return nil
}

func (s *Server) writeJSON(w http.ResponseWriter, i *Request, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	s.update(i, func(q *Request) { q.Status = http.StatusOK; q.BodyBytes = int64(len(body)) })
	w.Write(body)
}

// paths returns the sorted paths of the files of the view.
func (v view) paths() []string {
	var ps []string
	for p := range v.files {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps
}
