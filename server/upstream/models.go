package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/mlxrun/mlx/models/bounded"
)

// Refresh fetches the upstream's models (GET /v1/models) and keeps them;
// on failure the last list stays and the error is kept for Health.
func (c *Client) Refresh(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	models, err := c.list(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checked, c.err = time.Now(), err
	if err == nil {
		c.models = models
	}
	return err
}

func (c *Client) list(ctx context.Context) ([]string, error) {
	resp, err := c.do(ctx, http.MethodGet, "/v1/models", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, readError(resp)
	}
	var body struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	b, err := bounded.Read(resp.Body, maxModelsBody)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, fmt.Errorf("upstream %s: /v1/models is larger than %d bytes", c.name, maxModelsBody)
	}
	if err != nil {
		return nil, fmt.Errorf("upstream %s: reading /v1/models: %w", c.name, err)
	}
	if err := json.Unmarshal(b, &body); err != nil {
		return nil, fmt.Errorf("upstream %s: /v1/models is not a model list: %w", c.name, err)
	}
	if len(body.Data) > maxModels {
		return nil, fmt.Errorf("upstream %s: /v1/models lists %d models, more than %d", c.name, len(body.Data), maxModels)
	}
	var out []string
	for _, m := range body.Data {
		if m.ID != "" && !slices.Contains(out, m.ID) {
			out = append(out, m.ID)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Models returns the models of the last successful Refresh.
func (c *Client) Models() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.models)
}

// Serves reports whether the upstream listed model.
func (c *Client) Serves(model string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := slices.BinarySearch(c.models, model)
	return ok
}

// missRefresh is the least time between two refreshes that a request for
// a model the list lacks makes.
const missRefresh = 5 * time.Second

// Find reports whether the upstream serves model. When its list lacks
// it (the upstream was down or has a new model), the list is fetched
// again first, at most once per missRefresh however many requests miss.
func (c *Client) Find(ctx context.Context, model string) bool {
	if c.Serves(model) {
		return true
	}
	c.refreshing.Lock()
	defer c.refreshing.Unlock()
	c.mu.Lock()
	stale := time.Since(c.checked) >= missRefresh
	c.mu.Unlock()
	if stale {
		_ = c.Refresh(ctx) // kept for Health
	}
	return c.Serves(model)
}

// Health is what the last Refresh found.
type Health struct {
	Name    string    `json:"name"`
	URL     string    `json:"url"`
	OK      bool      `json:"ok"`
	Error   string    `json:"error,omitempty"`
	Models  int       `json:"models"`
	Checked time.Time `json:"checked"`
}

// Health reports the upstream's state.
func (c *Client) Health() Health {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := Health{Name: c.name, URL: c.base, OK: c.err == nil && !c.checked.IsZero(), Models: len(c.models), Checked: c.checked}
	if c.err != nil {
		h.Error = c.err.Error()
	}
	return h
}

// Watch refreshes the model list every interval until ctx is done.
func (c *Client) Watch(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = c.Refresh(ctx) // kept for Health
		}
	}
}
