// Package hub downloads models from the Hugging Face Hub into the cache layout
// that the Hugging Face tools use (models--org--name/{blobs,snapshots,refs}),
// so a model fetched by either is reused by the other.
//
// Downloads verify the hub's checksum, resume from .incomplete files, fetch
// large files in parallel byte ranges, retry transient failures with backoff
// and hold a per-blob file lock so that concurrent pulls cannot corrupt the
// cache. A snapshot appears only once all its files are complete. The package
// only fetches files: it reads no environment variable and loads no model.
package hub

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultEndpoint is the Hugging Face Hub.
const DefaultEndpoint = "https://huggingface.co"

// Options configures a Client. The zero value of each field picks the default
// given in its comment; CacheDir is required.
type Options struct {
	Endpoint     string         // hub base URL; DefaultEndpoint when empty
	Token        string         // bearer token sent to the hub (never to a CDN host)
	CacheDir     string         // the hub cache, e.g. ~/.cache/huggingface/hub
	Offline      bool           // use the cache only
	HTTPClient   *http.Client   // nil: a client without compression or global timeout
	Connections  int            // parallel byte ranges for a large file; 4
	ParallelMin  int64          // files at least this large use ranges; 64 MiB
	StallTimeout time.Duration  // a request with no progress for this long is retried; 30 s
	Retries      int            // retries after a transient failure (negative: none); 6
	RetryDelay   time.Duration  // first backoff delay, doubled on each retry; 1 s
	UserAgent    string         // User-Agent header; "mlx"
	Progress     func(Progress) // called with download progress; may be nil
	Notify       func(string)   // called with a line for a person (a retry, an unverified file); may be nil
	AllowHTTP    bool           // accept files that cannot be verified over plain http from a host that is not loopback
}

// Client pulls models from one hub into one cache. It is safe for concurrent
// use.
type Client struct {
	opts     Options
	endpoint *url.URL
	http     *http.Client // follows redirects, dropping Authorization across hosts
	head     *http.Client // follows no redirect
	cache    Cache
}

// New checks opts, fills in the defaults and returns a Client.
func New(opts Options) (*Client, error) {
	if opts.CacheDir == "" {
		return nil, fmt.Errorf("hub: no cache directory given")
	}
	if opts.Endpoint == "" {
		opts.Endpoint = DefaultEndpoint
	}
	u, err := url.Parse(strings.TrimRight(opts.Endpoint, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("hub: endpoint %q is not an http(s) URL", opts.Endpoint)
	}
	setDefaults(&opts)
	base := opts.HTTPClient
	if base == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DisableCompression = true
		tr.MaxIdleConnsPerHost = 2 * opts.Connections
		base = &http.Client{Transport: tr}
	}
	follow := *base
	follow.CheckRedirect = dropAuthAcrossHosts
	noFollow := *base
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Client{opts: opts, endpoint: u, http: &follow, head: &noFollow, cache: Cache{Dir: opts.CacheDir}}, nil
}

func setDefaults(o *Options) {
	if o.Connections <= 0 {
		o.Connections = 4
	}
	if o.ParallelMin <= 0 {
		o.ParallelMin = 64 << 20
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = 30 * time.Second
	}
	if o.Retries == 0 {
		o.Retries = 6
	}
	if o.RetryDelay <= 0 {
		o.RetryDelay = time.Second
	}
	if o.UserAgent == "" {
		o.UserAgent = "mlx"
	}
}

// Cache returns the cache the client writes to.
func (c *Client) Cache() Cache { return c.cache }

// dropAuthAcrossHosts follows up to 10 redirects and removes the token when
// a redirect leaves the host (with its port) of the first request, as the
// Hugging Face tools do for CDN redirects.
func dropAuthAcrossHosts(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return fmt.Errorf("stopped after 10 redirects")
	}
	if req.URL.Host != via[0].URL.Host {
		req.Header.Del("Authorization")
	}
	return nil
}

// Endpoint returns the address of the hub.
func (c *Client) Endpoint() string { return c.endpoint.String() }

// Offline reports whether the client uses the cache only.
func (c *Client) Offline() bool { return c.opts.Offline }
