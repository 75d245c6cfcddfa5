package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// ErrDuplicateID reports an item id that is already in use where ids must be unique.
var ErrDuplicateID = errors.New("store: duplicate id")

// Item is one stored input or output item: its id and its JSON as the server
// renders it. Data is never modified once stored.
type Item struct {
	ID   string
	Data json.RawMessage
}

// Accounting overheads, in bytes, added to the lengths of the strings and
// JSON an object holds, so that many tiny objects still weigh something.
const (
	ItemOverhead   = 64  // per Item
	EntryOverhead  = 32  // per metadata pair
	ObjectOverhead = 256 // per response or conversation
)

// Size is the item's weight in a store's byte budget.
func (it Item) Size() int64 {
	return ItemOverhead + int64(len(it.ID)+len(it.Data))
}

// ItemsSize is the sum of the items' sizes.
func ItemsSize(items []Item) int64 {
	var n int64
	for _, it := range items {
		n += it.Size()
	}
	return n
}

// MetadataSize is the weight of a metadata map in a store's byte budget.
func MetadataSize(m map[string]string) int64 {
	var n int64
	for k, v := range m {
		n += EntryOverhead + int64(len(k)+len(v))
	}
	return n
}

// AssignIDs returns a copy of items in which each empty ID is a NewID(prefix),
// or ErrDuplicateID when an id repeats within items or is already taken.
func AssignIDs(items []Item, prefix string, taken func(id string) bool) ([]Item, error) {
	out := slices.Clone(items)
	seen := make(map[string]bool, len(out))
	for i := range out {
		if out[i].ID == "" {
			out[i].ID = NewID(prefix)
		}
		id := out[i].ID
		if seen[id] || (taken != nil && taken(id)) {
			return nil, fmt.Errorf("%w: item %q", ErrDuplicateID, id)
		}
		seen[id] = true
	}
	return out, nil
}
