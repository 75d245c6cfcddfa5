package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/mlxrun/mlx/models/bounded"
	"github.com/mlxrun/mlx/models/hub"
)

// maxTokenFile bounds the token file read.
const maxTokenFile = 4 << 10

// hubEnv reads the environment variables of the Hugging Face tools into
// hub options:
//
//	HF_ENDPOINT     hub address (default https://huggingface.co)
//	HF_TOKEN        access token; else the file HF_TOKEN_PATH, else $HF_HOME/token
//	HF_HUB_CACHE    cache folder; else $HF_HOME/hub
//	HF_HOME         default $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface
//	HF_HUB_OFFLINE  1/true/yes/on: use the cache only
//	MLX_HUB_INSECURE 1/true/yes/on: accept files that cannot be verified over
//	                plain http (always accepted from a loopback hub)
func hubEnv() (hub.Options, error) {
	home := os.Getenv("HF_HOME")
	if home == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return hub.Options{}, fmt.Errorf("no home folder to put the model cache in (set HF_HOME): %w", err)
			}
			cache = filepath.Join(h, ".cache")
		}
		home = filepath.Join(cache, "huggingface")
	}
	opts := hub.Options{
		Endpoint:  os.Getenv("HF_ENDPOINT"),
		CacheDir:  os.Getenv("HF_HUB_CACHE"),
		Offline:   isTrue(os.Getenv("HF_HUB_OFFLINE")),
		Token:     strings.TrimSpace(os.Getenv("HF_TOKEN")),
		UserAgent: "mlx/" + build.Version,
	}
	opts.AllowHTTP = isTrue(os.Getenv("MLX_HUB_INSECURE")) || loopbackURL(opts.Endpoint)
	if opts.CacheDir == "" {
		opts.CacheDir = filepath.Join(home, "hub")
	}
	if opts.Token == "" {
		path := os.Getenv("HF_TOKEN_PATH")
		if path == "" {
			path = filepath.Join(home, "token")
		}
		tok, err := readToken(path)
		if err != nil {
			return hub.Options{}, err
		}
		opts.Token = tok
	}
	return opts, nil
}

// readToken reads the token file the Hugging Face tools write; a missing
// file means no token.
func readToken(path string) (string, error) {
	b, err := bounded.ReadFile(path, maxTokenFile)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	return string(bytes.TrimSpace(b)), nil
}

func isTrue(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// newHubClient makes a hub client from the environment that draws progress
// on w (bars on a terminal, periodic lines otherwise), or none when quiet.
// Retries and files that cannot be verified are named on w either way.
func newHubClient(w io.Writer, quiet bool) (*hub.Client, error) {
	opts, err := hubEnv()
	if err != nil {
		return nil, err
	}
	p := newPullProgress(w, isTerminal(w))
	if !quiet {
		opts.Progress = p.update
	}
	opts.Notify = p.note
	return hub.New(opts)
}

// note prints a line of the hub on its own line, clearing a bar drawn on
// the current one first.
func (p *pullProgress) note(msg string) {
	if p.tty && p.bar != nil {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintln(p.w, "mlx: "+msg)
}

// loopbackURL reports whether an http(s) address names a loopback host.
func loopbackURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// hubHint adds to a hub error what the person can do about it.
func hubHint(err error) error {
	switch {
	case errors.Is(err, hub.ErrNotCached) && isTrue(os.Getenv("HF_HUB_OFFLINE")):
		return fmt.Errorf("%w (HF_HUB_OFFLINE is set: unset it to download)", err)
	case errors.Is(err, hub.ErrDiskFull):
		return fmt.Errorf("%w (HF_HUB_CACHE chooses the cache folder)", err)
	case errors.Is(err, hub.ErrUnreachable):
		return fmt.Errorf("%w; check the network, or set HF_ENDPOINT to a hub you can reach, "+
			"give a local .gguf file or model folder, or set HF_HUB_OFFLINE=1 to use the models in the cache", err)
	case errors.Is(err, hub.ErrUnverified):
		return fmt.Errorf("%w (use an https HF_ENDPOINT, or set MLX_HUB_INSECURE=1 to accept it)", err)
	case errors.Is(err, hub.ErrNoFile):
		return err
	case errors.Is(err, hub.ErrBadRef):
		return fmt.Errorf("%w\nforms: org/name, org/name:QUANT, org/name/file.gguf, with an optional @revision, or an alias (mlx list --aliases)", err)
	}
	return err
}
