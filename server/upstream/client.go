// Package upstream is a client of an OpenAI-compatible server (vLLM,
// NVIDIA Dynamo, llama-server, another mlx) that serves some of mlx's
// models: it lists the upstream's models and streams its chat
// completions and completions, with bounded timeouts, sizes and retries.
package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Limits of what an upstream may send and how long it may take.
const (
	maxModelsBody = 4 << 20  // the body of /v1/models
	maxModels     = 4096     // models listed from one upstream
	maxErrorBody  = 64 << 10 // the body of an error answer
	maxLine       = 8 << 20  // one line of an event stream
	dialTimeout   = 10 * time.Second
	headerTimeout = 10 * time.Minute // an upstream may queue a request before it answers
	listTimeout   = 30 * time.Second
	connectTries  = 3
	retryPause    = 250 * time.Millisecond
)

// Config names an upstream. Key, when set, goes to it as a bearer token;
// it comes from the environment, never from a request.
type Config struct {
	Name string
	URL  string
	Key  string
}

// Client talks to one upstream. It is safe for concurrent use.
type Client struct {
	name string
	base string // scheme://host[:port][/prefix], without /v1
	key  string
	http *http.Client

	refreshing sync.Mutex // held by Find while it refreshes the list
	mu         sync.Mutex
	models     []string
	err        error
	checked    time.Time
}

// ErrConfig is wrapped by the errors of a bad upstream configuration.
var ErrConfig = errors.New("bad upstream")

// New checks cfg and returns its client.
func New(cfg Config) (*Client, error) {
	if cfg.Name == "" || strings.ContainsAny(cfg.Name, "/ \t") {
		return nil, fmt.Errorf("%w: the name %q must be a word without '/' or spaces", ErrConfig, cfg.Name)
	}
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%w: %s: the URL %q must be http(s)://host[:port][/path]", ErrConfig, cfg.Name, cfg.URL)
	}
	base := strings.TrimSuffix(strings.TrimRight(u.String(), "/"), "/v1")
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   dialTimeout,
		ResponseHeaderTimeout: headerTimeout,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
	}
	// Redirects are not followed: the upstream's address is the one
	// configured, whatever it answers.
	hc := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Client{name: cfg.Name, base: base, key: cfg.Key, http: hc}, nil
}

// Name is the upstream's name, the prefix of its models.
func (c *Client) Name() string { return c.name }

// URL is the upstream's base address.
func (c *Client) URL() string { return c.base }

// Error is an error answer of the upstream: its status and message, as
// it gave them.
type Error struct {
	Status  int
	Message string
	Type    string
	Code    string
	Param   string
}

func (e *Error) Error() string {
	return fmt.Sprintf("upstream answered %d: %s", e.Status, e.Message)
}

// readError reads an error answer: an OpenAI error body, or its text.
func readError(resp *http.Response) *Error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &Error{Status: resp.StatusCode}
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	var detail struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
		Param   string `json:"param"`
	}
	switch {
	case json.Unmarshal(b, &body) == nil && json.Unmarshal(body.Error, &detail) == nil && detail.Message != "":
		e.Message, e.Type, e.Param = detail.Message, detail.Type, detail.Param
		if detail.Code != nil {
			e.Code = fmt.Sprint(detail.Code)
		}
	case json.Unmarshal(body.Error, &e.Message) == nil && e.Message != "":
	default:
		e.Message = strings.TrimSpace(string(b))
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	return e
}

// do sends a request, trying again a bounded number of times when the
// connection cannot be made (nothing reached the upstream then).
func (c *Client) do(ctx context.Context, method, path string, body []byte) (*http.Response, error) {
	var last error
	for try := range connectTries {
		if try > 0 {
			select {
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			case <-time.After(retryPause << (try - 1)):
			}
		}
		var rd io.Reader
		if body != nil {
			rd = strings.NewReader(string(body))
		}
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
		if err != nil {
			return nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "text/event-stream")
		}
		if c.key != "" {
			req.Header.Set("Authorization", "Bearer "+c.key)
		}
		resp, err := c.http.Do(req)
		if err == nil {
			return resp, nil
		}
		last = err
		var op *net.OpError
		if ctx.Err() != nil || !errors.As(err, &op) || op.Op != "dial" {
			break
		}
	}
	return nil, fmt.Errorf("upstream %s: %w", c.name, last)
}
