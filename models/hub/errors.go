package hub

import (
	"errors"
	"fmt"
	"net/http"
)

var (
	// ErrUnauthorized reports a 401 or 403: the model is gated or private.
	ErrUnauthorized = errors.New("gated or private model: set HF_TOKEN")
	// ErrNotFound reports a 404: no such model, revision or file.
	ErrNotFound = errors.New("no such model")
	// ErrNotCached reports a model missing from the cache in offline mode, or
	// a model that cannot be removed because it is not there.
	ErrNotCached = errors.New("model not in the cache")
	// ErrChecksum reports a downloaded file whose hash differs from the hub's.
	ErrChecksum = errors.New("checksum mismatch")
	// ErrDiskFull reports that the disk holding the cache is full.
	ErrDiskFull = errors.New("no space left on the disk of the cache")
	// ErrBadRef reports a model reference that cannot be parsed.
	ErrBadRef = errors.New("bad model reference")
	// ErrNoFile reports a model written as a local path (see LooksLikePath)
	// where there is no file or folder.
	ErrNoFile = errors.New("no such file or directory")
	// ErrNoQuant reports a GGUF quantization that the repo does not hold.
	ErrNoQuant = errors.New("quantization not available")
	// ErrAmbiguous reports a reference that matches several GGUF files.
	ErrAmbiguous = errors.New("ambiguous model reference")
	// ErrNoWeights reports a repo with neither safetensors nor GGUF weights.
	ErrNoWeights = errors.New("no safetensors or GGUF weights")
	// ErrProtocol reports an answer of the hub that breaks its protocol.
	ErrProtocol = errors.New("unexpected answer from the hub")
	// ErrUnverified reports a file whose ETag is not a checksum, refused
	// because it would come over plain http (see Options.AllowHTTP).
	ErrUnverified = errors.New("cannot be verified")
	// ErrUnknownSize reports a file whose size neither the hub's headers nor
	// its listing give: its download would have no bound.
	ErrUnknownSize = errors.New("the hub gives no size for the file")
)

// httpError is a response status that is not a success. It unwraps to
// ErrUnauthorized or ErrNotFound when it is one of those.
type httpError struct {
	Code  int
	What  string // what was asked, e.g. "Qwen/Qwen3-0.6B config.json"
	Kind  error  // a sentinel or nil
	Token bool   // a token was sent
}

func (e *httpError) Error() string {
	msg := fmt.Sprintf("%s: HTTP %d", e.What, e.Code)
	switch {
	case e.Kind == ErrUnauthorized && e.Token:
		return msg + ": " + e.Kind.Error() + " (the token was refused: accept the model's terms on the hub or check the token)"
	case e.Kind == ErrNotFound && e.Code != http.StatusNotFound && !e.Token:
		return msg + ": " + e.Kind.Error() + " (if it is private, set HF_TOKEN)"
	case e.Kind != nil:
		return msg + ": " + e.Kind.Error()
	}
	return msg + " " + http.StatusText(e.Code)
}

func (e *httpError) Unwrap() error { return e.Kind }

// transient reports whether retrying the request may succeed.
func (e *httpError) transient() bool {
	return e.Code >= 500 || e.Code == http.StatusTooManyRequests || e.Code == http.StatusRequestTimeout
}

// statusError turns a failed response into an httpError. The hub answers 401
// for a repo that does not exist when no token is sent; its X-Error-Code
// header tells the two apart.
func statusError(resp *http.Response, what string, token bool) error {
	e := &httpError{Code: resp.StatusCode, What: what, Token: token}
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		e.Kind = ErrUnauthorized
		if resp.Header.Get("X-Error-Code") == "RepoNotFound" {
			e.Kind = ErrNotFound
		}
	case http.StatusNotFound:
		e.Kind = ErrNotFound
	}
	return e
}
