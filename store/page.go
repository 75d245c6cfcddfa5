package store

import (
	"errors"
	"fmt"
)

// ErrBadPage reports a list request with a bad order, limit or cursor.
var ErrBadPage = errors.New("store: bad page request")

// Order is the direction of a listing, by position in the list.
type Order string

// The two orders; Desc (newest first) is the OpenAI default.
const (
	Asc  Order = "asc"
	Desc Order = "desc"
)

// Page limits: a limit of 0 means DefaultPageLimit; above MaxPageLimit is an error.
const (
	DefaultPageLimit = 20
	MaxPageLimit     = 100
)

// ParseOrder reads an order query value; "" is Desc.
func ParseOrder(s string) (Order, error) {
	switch Order(s) {
	case "":
		return Desc, nil
	case Asc, Desc:
		return Order(s), nil
	}
	return "", fmt.Errorf("%w: order %q is neither %q nor %q", ErrBadPage, s, Asc, Desc)
}

// Page returns a copy of up to limit items that follow the item with id
// after (from the start when after is ""), walking items in order, and
// whether more items follow the page.
func Page(items []Item, after string, limit int, order Order) ([]Item, bool, error) {
	if order != Asc && order != Desc {
		return nil, false, fmt.Errorf("%w: order %q is neither %q nor %q", ErrBadPage, order, Asc, Desc)
	}
	if limit == 0 {
		limit = DefaultPageLimit
	}
	if limit < 0 || limit > MaxPageLimit {
		return nil, false, fmt.Errorf("%w: limit %d is not between 1 and %d", ErrBadPage, limit, MaxPageLimit)
	}
	// Walk positions 0..n-1 for Asc, n-1..0 for Desc: pos(k) is the k-th visited.
	n := len(items)
	pos := func(k int) int { return k }
	if order == Desc {
		pos = func(k int) int { return n - 1 - k }
	}
	start := 0
	if after != "" {
		start = -1
		for k := range n {
			if items[pos(k)].ID == after {
				start = k + 1
				break
			}
		}
		if start < 0 {
			return nil, false, fmt.Errorf("%w: no item %q to list after", ErrBadPage, after)
		}
	}
	end := min(start+limit, n)
	page := make([]Item, 0, end-start)
	for k := start; k < end; k++ {
		page = append(page, items[pos(k)])
	}
	return page, end < n, nil
}
