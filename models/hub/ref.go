package hub

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Ref is a parsed model reference: a repo on the hub, optionally narrowed to
// one GGUF quantization or file, at a revision.
type Ref struct {
	Repo     string // "org/name"
	Quant    string // GGUF quantization wanted, e.g. "Q4_K_M"; "" for the default
	File     string // a GGUF file of the repo, e.g. "sub/model-Q8_0.gguf"
	Revision string // branch, tag or commit; "" means "main"
}

// Rev returns the revision, "main" when none was given.
func (r Ref) Rev() string {
	if r.Revision == "" {
		return "main"
	}
	return r.Revision
}

// String returns the reference in the form ParseRef reads.
func (r Ref) String() string {
	s := r.Repo
	switch {
	case r.File != "":
		s += "/" + r.File
	case r.Quant != "":
		s += ":" + r.Quant
	}
	if r.Revision != "" {
		s += "@" + r.Revision
	}
	return s
}

// ParseRef reads a model reference: an alias from Aliases, or
// "org/name[:QUANT][@revision]", or "org/name/path/file.gguf[@revision]". A
// leading "https://huggingface.co/", "huggingface.co/" or "hf.co/" is
// ignored. It does not look at the local disk (see Client.Resolve): what
// looks like a local path is no reference, and fails with ErrNoFile.
func ParseRef(s string) (Ref, error) {
	orig := s
	if LooksLikePath(s) {
		return Ref{}, &noFileError{s}
	}
	s = strings.TrimSpace(s)
	for _, p := range []string{"https://", "http://", "huggingface.co/", "hf.co/"} {
		s = strings.TrimPrefix(s, p)
	}
	name, rev, hasRev := strings.Cut(s, "@")
	if target, ok := lookupAlias(name); ok {
		s = target
		if hasRev {
			s += "@" + rev
		}
	}
	bad := func(why string) (Ref, error) {
		return Ref{}, fmt.Errorf("%q: %s: %w", orig, why, ErrBadRef)
	}
	var r Ref
	if at := strings.IndexByte(s, '@'); at >= 0 {
		s, r.Revision = s[:at], s[at+1:]
		// Git refs cannot hold ':', so "org/name@rev:Q4_K_M" names a quant.
		if c := strings.IndexByte(r.Revision, ':'); c >= 0 {
			r.Revision, r.Quant = r.Revision[:c], r.Revision[c+1:]
		}
		if err := checkRevision(r.Revision); err != nil {
			return bad(err.Error())
		}
	}
	if c := strings.IndexByte(s, ':'); c >= 0 {
		if r.Quant != "" {
			return bad("two quantizations given")
		}
		s, r.Quant = s[:c], s[c+1:]
	}
	if strings.EqualFold(r.Quant, "latest") {
		r.Quant = ""
	}
	if r.Quant != "" && !isWord(r.Quant) {
		return bad("the quantization may hold only letters, digits, '_' and '-'")
	}
	parts := strings.Split(s, "/")
	if len(parts) < 2 {
		return bad("not an alias and not org/name (see the aliases with: mlx list --aliases)")
	}
	for _, p := range parts[:2] {
		if err := checkRepoPart(p); err != nil {
			return bad(err.Error())
		}
	}
	r.Repo = parts[0] + "/" + parts[1]
	if len(parts) > 2 {
		r.File = strings.Join(parts[2:], "/")
		if err := checkRepoPath(r.File); err != nil {
			return bad(err.Error())
		}
		if !isGGUF(r.File) {
			return bad("only a .gguf file can be named inside a repo")
		}
		if r.Quant != "" {
			return bad("give either a file or a quantization")
		}
	}
	return r, nil
}

// LooksLikePath reports whether s is written as a local path rather than a
// model reference: it starts with "/", "./", "../" or "~", is absolute, holds
// a backslash, or names a .gguf file with no org/name before it.
func LooksLikePath(s string) bool {
	s = strings.TrimSpace(s)
	for _, p := range []string{"/", "./", "../", "~", `.\`, `..\`} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == "." || s == ".." || filepath.IsAbs(s) || strings.ContainsRune(s, '\\') ||
		(isGGUF(s) && strings.Count(s, "/") < 2)
}

// noFileError is a reference written as a local path where nothing exists.
// It is ErrNoFile, and ErrBadRef for callers that only know bad references.
type noFileError struct{ path string }

func (e *noFileError) Error() string { return e.path + ": " + ErrNoFile.Error() }

func (e *noFileError) Is(target error) bool { return target == ErrNoFile || target == ErrBadRef }

// checkRepoPart checks an org or model name as the hub allows them; "--"
// is refused because the cache folder uses it as the separator.
func checkRepoPart(p string) error {
	switch {
	case p == "" || len(p) > 96:
		return fmt.Errorf("org and name must be 1 to 96 characters")
	case strings.Contains(p, "--") || strings.Contains(p, ".."):
		return fmt.Errorf("%q holds '--' or '..'", p)
	case !isAlnum(p[0]):
		return fmt.Errorf("%q must start with a letter or digit", p)
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return fmt.Errorf("%q holds %q", p, c)
		}
	}
	return nil
}

// checkRevision checks a branch, tag or commit name; it becomes a file name
// under refs/, so no path tricks are allowed.
func checkRevision(rev string) error {
	if rev == "" || len(rev) > 200 {
		return fmt.Errorf("the revision must be 1 to 200 characters")
	}
	if err := checkRepoPath(rev); err != nil {
		return fmt.Errorf("revision: %v", err)
	}
	return nil
}

// checkRepoPath checks a slash-separated path inside a repo: no empty, "."
// or ".." element, no backslash, no control character.
func checkRepoPath(p string) error {
	if p == "" || len(p) > 1024 {
		return fmt.Errorf("path %q must be 1 to 1024 characters", p)
	}
	for _, e := range strings.Split(p, "/") {
		if e == "" || e == "." || e == ".." {
			return fmt.Errorf("path %q has an empty, '.' or '..' element", p)
		}
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == '\\' || c == ':' {
			return fmt.Errorf("path %q holds the character %q", p, c)
		}
	}
	return nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '_' && c != '-' {
			return false
		}
	}
	return s != ""
}

func isGGUF(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".gguf") }
