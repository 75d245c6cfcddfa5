// Package responses stores the records of the OpenAI Responses API in a
// bounded in-memory store, for GET, cancel, input_items and
// previous_response_id.
package responses

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mlxrun/mlx/store"
)

// Defaults the server uses for the response store.
const (
	DefaultMaxEntries = 1024
	DefaultTTL        = time.Hour
	DefaultMaxBytes   = 256 << 20
)

// DefaultOptions are the response store's default bounds.
func DefaultOptions() store.Options {
	return store.Options{MaxEntries: DefaultMaxEntries, TTL: DefaultTTL, MaxBytes: DefaultMaxBytes}
}

var (
	// ErrNoID reports a response without an id.
	ErrNoID = errors.New("responses: response has no id")
	// ErrCycle reports previous_response_id links that loop.
	ErrCycle = errors.New("responses: previous response chain loops")
)

// Status is a response's lifecycle state, as in the OpenAI API.
type Status string

// Response statuses.
const (
	StatusQueued     Status = "queued"
	StatusInProgress Status = "in_progress"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
	StatusCancelled  Status = "cancelled"
	StatusIncomplete Status = "incomplete"
)

// Running reports whether a generation is still queued or under way.
func (s Status) Running() bool { return s == StatusQueued || s == StatusInProgress }

// Response is one stored response. A stored Response is never modified:
// to change it, Put a new value under the same ID.
type Response struct {
	ID             string
	CreatedAt      time.Time
	Model          string
	Status         Status
	PreviousID     string // previous_response_id, "" when none
	ConversationID string // "" when none
	Input          []store.Item
	Output         []store.Item
	Metadata       map[string]string
	// Object is the whole response object as the server last rendered it.
	Object json.RawMessage
	// Cancel stops the running generation; nil once it has ended. It is not
	// counted in Size.
	Cancel context.CancelFunc
}

// Size is the response's weight in the store's byte budget.
func (r *Response) Size() int64 {
	n := int64(store.ObjectOverhead + len(r.ID) + len(r.Model) + len(r.Status) +
		len(r.PreviousID) + len(r.ConversationID) + len(r.Object))
	return n + store.ItemsSize(r.Input) + store.ItemsSize(r.Output) + store.MetadataSize(r.Metadata)
}

// Store holds responses by id.
type Store struct {
	s *store.Store[string, Response]
}

// New returns an empty response store bounded by opts (see DefaultOptions).
// Call Stop when done with it.
func New(opts store.Options) *Store {
	return &Store{s: store.New[string, Response](opts)}
}

// Put stores r under r.ID, replacing an earlier record.
func (s *Store) Put(r Response) error {
	if r.ID == "" {
		return ErrNoID
	}
	if err := s.s.Put(r.ID, r, r.Size()); err != nil {
		return fmt.Errorf("response %s: %w", r.ID, err)
	}
	return nil
}

// Get returns the response with id, or store.ErrNotFound.
func (s *Store) Get(id string) (Response, error) {
	r, ok := s.s.Get(id)
	if !ok {
		return Response{}, fmt.Errorf("response %s: %w", id, store.ErrNotFound)
	}
	return r, nil
}

// Delete removes the response with id, or returns store.ErrNotFound. It does
// not cancel a running generation.
func (s *Store) Delete(id string) error {
	if !s.s.Delete(id) {
		return fmt.Errorf("response %s: %w", id, store.ErrNotFound)
	}
	return nil
}

// Cancel calls the Cancel func of the response with id if it is still
// running, and returns the record as it was. The generation's owner Puts the
// final record (status cancelled) when the generation stops.
func (s *Store) Cancel(id string) (Response, error) {
	r, err := s.Get(id)
	if err != nil {
		return Response{}, err
	}
	if r.Status.Running() && r.Cancel != nil {
		r.Cancel()
	}
	return r, nil
}

// InputItems pages through the input items of the response with id, as
// store.Page does.
func (s *Store) InputItems(id, after string, limit int, order store.Order) ([]store.Item, bool, error) {
	r, err := s.Get(id)
	if err != nil {
		return nil, false, err
	}
	page, more, err := store.Page(r.Input, after, limit, order)
	if err != nil {
		return nil, false, fmt.Errorf("response %s: %w", id, err)
	}
	return page, more, nil
}

// Chain returns the response with id and all those it follows through
// PreviousID, oldest first, so that the server can rebuild the conversation.
// A missing link is store.ErrNotFound, naming the id; a loop is ErrCycle.
func (s *Store) Chain(id string) ([]Response, error) {
	var chain []Response
	seen := make(map[string]bool)
	for next, from := id, ""; next != ""; {
		if seen[next] {
			return nil, fmt.Errorf("%w at response %s", ErrCycle, next)
		}
		seen[next] = true
		r, ok := s.s.Get(next)
		if !ok {
			if from == "" {
				return nil, fmt.Errorf("response %s: %w", next, store.ErrNotFound)
			}
			return nil, fmt.Errorf("response %s, previous of %s: %w", next, from, store.ErrNotFound)
		}
		chain = append(chain, r)
		from, next = next, r.PreviousID
	}
	slices.Reverse(chain)
	return chain, nil
}

// Stats returns the store's counters.
func (s *Store) Stats() store.Stats { return s.s.Stats() }

// Stop ends the store's cleaner goroutine (see store.Store.Stop).
func (s *Store) Stop() { s.s.Stop() }
