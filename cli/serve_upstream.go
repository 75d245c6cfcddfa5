package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/server/upstream"
)

// upstreamRefresh is how often the model lists of the upstreams are
// fetched again.
const upstreamRefresh = time.Minute

// upstreamFlags are --upstream NAME=URL, --upstream-key NAME=ENVVAR and
// --upstream-config FILE.
type upstreamFlags struct {
	specs  []string
	keys   []string
	config string
}

// maxUpstreamConfig bounds the size of an --upstream-config file.
const maxUpstreamConfig = 1 << 20

// upstreamConfig is the file --upstream-config names: the upstreams, each
// with the environment variable that holds its key (keys are never
// written in the file).
type upstreamConfig struct {
	Upstreams []struct {
		Name   string `json:"name"`
		URL    string `json:"url"`
		KeyEnv string `json:"key_env"`
	} `json:"upstreams"`
}

// readConfig adds the upstreams of the --upstream-config file to specs and
// keys, in the flags' form.
func (u *upstreamFlags) readConfig(specs, keys []string) ([]string, []string, error) {
	if u.config == "" {
		return specs, keys, nil
	}
	f, err := os.Open(u.config)
	if err != nil {
		return nil, nil, fmt.Errorf("--upstream-config: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxUpstreamConfig+1))
	if err != nil {
		return nil, nil, fmt.Errorf("--upstream-config %s: %w", u.config, err)
	}
	if len(b) > maxUpstreamConfig {
		return nil, nil, fmt.Errorf("--upstream-config %s is larger than %d KiB", u.config, maxUpstreamConfig>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var cfg upstreamConfig
	if err := dec.Decode(&cfg); err != nil {
		return nil, nil, fmt.Errorf("--upstream-config %s: %w (want {\"upstreams\": [{\"name\", \"url\", \"key_env\"}]}; keys come from the environment)", u.config, err)
	}
	specs, keys = slices.Clone(specs), slices.Clone(keys)
	for _, up := range cfg.Upstreams {
		specs = append(specs, up.Name+"="+up.URL)
		if up.KeyEnv != "" {
			keys = append(keys, up.Name+"="+up.KeyEnv)
		}
	}
	return specs, keys, nil
}

func (u *upstreamFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&u.specs, "upstream", nil,
		"an OpenAI-compatible server whose models are named NAME/model (NAME=URL, repeatable; env MLX_UPSTREAM, comma-separated)")
	f.StringArrayVar(&u.keys, "upstream-key", nil,
		"the environment variable that holds the API key of an upstream (NAME=ENVVAR, repeatable)")
	f.StringVar(&u.config, "upstream-config", "",
		`a JSON file of upstreams: {"upstreams": [{"name": ..., "url": ..., "key_env": ...}]}`)
}

// clients checks the flags (MLX_UPSTREAM when --upstream is not given)
// and returns the upstreams' clients.
func (u *upstreamFlags) clients(f *pflag.FlagSet) ([]*upstream.Client, error) {
	specs := u.specs
	if v := os.Getenv("MLX_UPSTREAM"); v != "" && !f.Changed("upstream") {
		specs = strings.Split(v, ",")
	}
	specs, keyFlags, err := u.readConfig(specs, u.keys)
	if err != nil {
		return nil, err
	}
	keys := map[string]string{}
	for _, k := range keyFlags {
		name, env, ok := strings.Cut(k, "=")
		if !ok || name == "" || env == "" {
			return nil, fmt.Errorf("--upstream-key %q: give NAME=ENVVAR, the variable that holds the key", k)
		}
		key := os.Getenv(env)
		if key == "" {
			return nil, fmt.Errorf("--upstream-key %s: the environment variable %s is not set", name, env)
		}
		keys[name] = key
	}
	var out []*upstream.Client
	seen := map[string]bool{}
	for _, s := range specs {
		name, url, ok := strings.Cut(strings.TrimSpace(s), "=")
		if !ok {
			return nil, fmt.Errorf("--upstream %q: give NAME=URL, e.g. cluster=http://10.0.0.5:8000", s)
		}
		if seen[name] {
			return nil, fmt.Errorf("--upstream %s is given twice", name)
		}
		seen[name] = true
		c, err := upstream.New(upstream.Config{Name: name, URL: url, Key: keys[name]})
		if err != nil {
			return nil, err
		}
		delete(keys, name)
		out = append(out, c)
	}
	for name := range keys {
		return nil, fmt.Errorf("--upstream-key %s: no --upstream is named %s", name, name)
	}
	return out, nil
}

// watchUpstreams fetches the model lists of ups once (waiting for all)
// and then every upstreamRefresh until ctx is done. An upstream that does
// not answer is logged; its models appear once it does.
func watchUpstreams(ctx context.Context, ups []*upstream.Client, log *slog.Logger) {
	var wg sync.WaitGroup
	for _, up := range ups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := up.Refresh(ctx); err != nil {
				log.Warn("upstream unavailable", "upstream", up.Name(), "err", err)
			} else {
				log.Info("upstream", "upstream", up.Name(), "url", up.URL(), "models", len(up.Models()))
			}
		}()
	}
	wg.Wait()
	for _, up := range ups {
		go up.Watch(ctx, upstreamRefresh)
	}
}
