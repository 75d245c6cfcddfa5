package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// numbered returns n items with ids i0..i(n-1).
func numbered(n int) []Item {
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{ID: fmt.Sprint("i", i), Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}
	}
	return items
}

// ids lists the items' ids.
func ids(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

func TestPage(t *testing.T) {
	items := numbered(5)
	tests := []struct {
		name     string
		after    string
		limit    int
		order    Order
		want     []string
		wantMore bool
	}{
		{"asc all", "", 10, Asc, []string{"i0", "i1", "i2", "i3", "i4"}, false},
		{"desc all", "", 0, Desc, []string{"i4", "i3", "i2", "i1", "i0"}, false},
		{"asc first two", "", 2, Asc, []string{"i0", "i1"}, true},
		{"asc after", "i1", 2, Asc, []string{"i2", "i3"}, true},
		{"asc exact end", "i2", 2, Asc, []string{"i3", "i4"}, false},
		{"desc after", "i3", 2, Desc, []string{"i2", "i1"}, true},
		{"desc after first", "i0", 2, Desc, []string{}, false},
		{"asc after last", "i4", 2, Asc, []string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, more, err := Page(items, tt.after, tt.limit, tt.order)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(page); !slices.Equal(got, tt.want) || more != tt.wantMore {
				t.Errorf("Page = %v, more %v; want %v, more %v", got, more, tt.want, tt.wantMore)
			}
		})
	}
}

func TestPageWalksEverything(t *testing.T) {
	items := numbered(47)
	for _, order := range []Order{Asc, Desc} {
		var got []string
		after := ""
		for {
			page, more, err := Page(items, after, 10, order)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ids(page)...)
			if !more {
				break
			}
			after = page[len(page)-1].ID
		}
		want := ids(items)
		if order == Desc {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: walked %v, want %v", order, got, want)
		}
	}
}

func TestPageErrors(t *testing.T) {
	tests := []struct {
		name  string
		after string
		limit int
		order Order
		words string
	}{
		{"unknown cursor", "nope", 10, Asc, `"nope"`},
		{"limit too big", "", MaxPageLimit + 1, Asc, "limit"},
		{"negative limit", "", -1, Desc, "limit"},
		{"bad order", "", 10, Order("up"), "order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Page(numbered(3), tt.after, tt.limit, tt.order)
			if !errors.Is(err, ErrBadPage) || !strings.Contains(err.Error(), tt.words) {
				t.Errorf("err = %v, want ErrBadPage naming %s", err, tt.words)
			}
		})
	}
}

func TestParseOrder(t *testing.T) {
	tests := []struct {
		in      string
		want    Order
		wantErr bool
	}{
		{"", Desc, false},
		{"asc", Asc, false},
		{"desc", Desc, false},
		{"ASC", "", true},
	}
	for _, tt := range tests {
		got, err := ParseOrder(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, ErrBadPage)) {
			t.Errorf("ParseOrder(%q) = %q, %v", tt.in, got, err)
		}
	}
}

func TestAssignIDs(t *testing.T) {
	taken := func(id string) bool { return id == "old" }
	tests := []struct {
		name    string
		in      []Item
		wantErr bool
	}{
		{"fills empty ids", []Item{{}, {ID: "x"}, {}}, false},
		{"repeat in batch", []Item{{ID: "x"}, {ID: "x"}}, true},
		{"taken", []Item{{ID: "old"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := AssignIDs(tt.in, PrefixMessage, taken)
			if tt.wantErr {
				if !errors.Is(err, ErrDuplicateID) {
					t.Errorf("err = %v, want ErrDuplicateID", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, it := range out {
				if tt.in[i].ID != "" && it.ID != tt.in[i].ID {
					t.Errorf("item %d: id %q changed to %q", i, tt.in[i].ID, it.ID)
				}
				if tt.in[i].ID == "" && !strings.HasPrefix(it.ID, PrefixMessage+"_") {
					t.Errorf("item %d: assigned id %q", i, it.ID)
				}
			}
			if tt.in[0].ID == "" && tt.in[0].ID == out[0].ID {
				t.Error("the input slice was modified")
			}
		})
	}
}

func TestSizes(t *testing.T) {
	it := Item{ID: "abc", Data: json.RawMessage(`{"a":1}`)}
	if got, want := it.Size(), int64(ItemOverhead+3+7); got != want {
		t.Errorf("Item.Size = %d, want %d", got, want)
	}
	if got, want := ItemsSize([]Item{it, it}), 2*it.Size(); got != want {
		t.Errorf("ItemsSize = %d, want %d", got, want)
	}
	if got, want := MetadataSize(map[string]string{"k": "vv"}), int64(EntryOverhead+3); got != want {
		t.Errorf("MetadataSize = %d, want %d", got, want)
	}
}
