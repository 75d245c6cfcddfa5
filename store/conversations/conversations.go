// Package conversations stores the conversations of the OpenAI
// Conversations API in a bounded in-memory store: a header (id, creation
// time, metadata) and an ordered list of items, whose bytes count against
// the store's budget as they are appended and deleted.
package conversations

import (
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/mlxrun/mlx/store"
)

// Defaults the server uses for the conversation store.
const (
	DefaultMaxEntries = 256
	DefaultTTL        = time.Hour
	DefaultMaxBytes   = 64 << 20
)

// DefaultOptions are the conversation store's default bounds.
func DefaultOptions() store.Options {
	return store.Options{MaxEntries: DefaultMaxEntries, TTL: DefaultTTL, MaxBytes: DefaultMaxBytes}
}

// Conversation is a snapshot of a stored conversation's header.
type Conversation struct {
	ID        string
	CreatedAt time.Time
	Metadata  map[string]string // a copy, nil when none
	Items     int               // how many items it holds
}

// conversation is the stored value. Its mutex orders appends and deletes,
// and is taken before the store's own lock, never after.
type conversation struct {
	mu       sync.Mutex
	id       string
	created  time.Time
	metadata map[string]string
	items    []store.Item
	index    map[string]int // item id → position in items
	size     int64          // the size the store holds for it
}

// headerSize is the weight of a conversation without its items.
func headerSize(id string, metadata map[string]string) int64 {
	return store.ObjectOverhead + int64(len(id)) + store.MetadataSize(metadata)
}

// snapshot copies the header; c.mu is held.
func (c *conversation) snapshot() Conversation {
	return Conversation{ID: c.id, CreatedAt: c.created, Metadata: maps.Clone(c.metadata), Items: len(c.items)}
}

// Store holds conversations by id.
type Store struct {
	s   *store.Store[string, *conversation]
	now func() time.Time
}

// New returns an empty conversation store bounded by opts (see
// DefaultOptions). Call Stop when done with it.
func New(opts store.Options) *Store {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Store{s: store.New[string, *conversation](opts), now: now}
}

// Create stores a new conversation with a fresh "conv_" id, a copy of
// metadata and the given first items (empty item ids become "msg_" ids). It
// returns its header and its items with their ids.
func (s *Store) Create(metadata map[string]string, items []store.Item) (Conversation, []store.Item, error) {
	items, err := store.AssignIDs(items, store.PrefixMessage, nil)
	if err != nil {
		return Conversation{}, nil, fmt.Errorf("new conversation: %w", err)
	}
	c := &conversation{
		id:       store.NewID(store.PrefixConversation),
		created:  s.now(),
		metadata: maps.Clone(metadata),
		index:    make(map[string]int, len(items)),
	}
	c.add(items)
	c.size = headerSize(c.id, c.metadata) + store.ItemsSize(items)
	header, stored := c.snapshot(), c.copyItems() // before c is shared
	if err := s.s.Put(c.id, c, c.size); err != nil {
		return Conversation{}, nil, fmt.Errorf("new conversation: %w", err)
	}
	return header, stored, nil
}

// Get returns the header of the conversation with id.
func (s *Store) Get(id string) (Conversation, error) {
	c, err := s.lookup(id)
	if err != nil {
		return Conversation{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snapshot(), nil
}

// SetMetadata replaces the metadata of the conversation with id by a copy
// of metadata and returns the new header.
func (s *Store) SetMetadata(id string, metadata map[string]string) (Conversation, error) {
	c, err := s.lookup(id)
	if err != nil {
		return Conversation{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	size := c.size - store.MetadataSize(c.metadata) + store.MetadataSize(metadata)
	if err := s.resize(c, size); err != nil {
		return Conversation{}, err
	}
	c.metadata = maps.Clone(metadata)
	return c.snapshot(), nil
}

// Delete removes the conversation with id.
func (s *Store) Delete(id string) error {
	if !s.s.Delete(id) {
		return notFound(id)
	}
	return nil
}

// Stats returns the store's counters.
func (s *Store) Stats() store.Stats { return s.s.Stats() }

// Stop ends the store's cleaner goroutine (see store.Store.Stop).
func (s *Store) Stop() { s.s.Stop() }

// lookup returns the live conversation with id, refreshing its recency.
func (s *Store) lookup(id string) (*conversation, error) {
	c, ok := s.s.Get(id)
	if !ok {
		return nil, notFound(id)
	}
	return c, nil
}

// resize tells the store c's new size; c.mu is held. On success the caller
// applies the change that has that size.
func (s *Store) resize(c *conversation, size int64) error {
	if err := s.s.Resize(c.id, size); err != nil {
		return fmt.Errorf("conversation %s: %w", c.id, err)
	}
	c.size = size
	return nil
}

func notFound(id string) error {
	return fmt.Errorf("conversation %s: %w", id, store.ErrNotFound)
}
