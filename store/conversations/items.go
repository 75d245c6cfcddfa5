package conversations

import (
	"fmt"
	"slices"

	"github.com/mlxrun/mlx/store"
)

// Append adds items at the end of the conversation with id (empty item ids
// become "msg_" ids) and returns them with their ids. Nothing is added when
// an id is already in the conversation or the result would not fit the
// store (store.ErrDuplicateID, store.ErrTooLarge).
func (s *Store) Append(id string, items ...store.Item) ([]store.Item, error) {
	c, err := s.lookup(id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	items, err = store.AssignIDs(items, store.PrefixMessage, c.has)
	if err != nil {
		return nil, fmt.Errorf("conversation %s: %w", id, err)
	}
	if err := s.resize(c, c.size+store.ItemsSize(items)); err != nil {
		return nil, err
	}
	c.add(items)
	return slices.Clone(items), nil
}

// Items returns a copy of all the items of the conversation with id, oldest first.
func (s *Store) Items(id string) ([]store.Item, error) {
	c, err := s.lookup(id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.copyItems(), nil
}

// List pages through the items of the conversation with id, as store.Page does.
func (s *Store) List(id, after string, limit int, order store.Order) ([]store.Item, bool, error) {
	c, err := s.lookup(id)
	if err != nil {
		return nil, false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	page, more, err := store.Page(c.items, after, limit, order)
	if err != nil {
		return nil, false, fmt.Errorf("conversation %s: %w", id, err)
	}
	return page, more, nil
}

// Item returns the item itemID of the conversation with id.
func (s *Store) Item(id, itemID string) (store.Item, error) {
	c, err := s.lookup(id)
	if err != nil {
		return store.Item{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.index[itemID]
	if !ok {
		return store.Item{}, itemNotFound(id, itemID)
	}
	return c.items[i], nil
}

// DeleteItem removes the item itemID from the conversation with id and
// returns the conversation's new header.
func (s *Store) DeleteItem(id, itemID string) (Conversation, error) {
	c, err := s.lookup(id)
	if err != nil {
		return Conversation{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.index[itemID]
	if !ok {
		return Conversation{}, itemNotFound(id, itemID)
	}
	if err := s.resize(c, c.size-c.items[i].Size()); err != nil {
		return Conversation{}, err
	}
	delete(c.index, itemID)
	c.items = slices.Delete(c.items, i, i+1)
	for j := i; j < len(c.items); j++ {
		c.index[c.items[j].ID] = j
	}
	return c.snapshot(), nil
}

// has reports whether the conversation holds an item with id; c.mu is held.
func (c *conversation) has(id string) bool {
	_, ok := c.index[id]
	return ok
}

// add appends items, whose ids are new; c.mu is held.
func (c *conversation) add(items []store.Item) {
	for _, it := range items {
		c.index[it.ID] = len(c.items)
		c.items = append(c.items, it)
	}
}

// copyItems returns a copy of the items; c.mu is held.
func (c *conversation) copyItems() []store.Item {
	return slices.Clone(c.items)
}

func itemNotFound(id, itemID string) error {
	return fmt.Errorf("conversation %s has no item %s: %w", id, itemID, store.ErrNotFound)
}
