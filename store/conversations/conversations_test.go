package conversations

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/store"
	"github.com/mlxrun/mlx/store/internal/storetest"
)

// newTest returns a conversation store on a fake clock, stopped at cleanup.
func newTest(t *testing.T, opts store.Options) (*Store, *storetest.Clock) {
	t.Helper()
	clock := storetest.NewClock()
	opts.Now = clock.Now
	s := New(opts)
	t.Cleanup(s.Stop)
	return s, clock
}

// messages returns n items without ids.
func messages(n int) []store.Item {
	items := make([]store.Item, n)
	for i := range items {
		items[i].Data = json.RawMessage(fmt.Sprintf(`{"type":"message","n":%d}`, i))
	}
	return items
}

// create makes a conversation of n items and returns its header and items.
func create(t *testing.T, s *Store, n int) (Conversation, []store.Item) {
	t.Helper()
	c, items, err := s.Create(map[string]string{"topic": "test"}, messages(n))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return c, items
}

// wantSize is the bytes a conversation should weigh, from its header and items.
func wantSize(t *testing.T, s *Store, id string) int64 {
	t.Helper()
	c, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	items, err := s.Items(id)
	if err != nil {
		t.Fatal(err)
	}
	return headerSize(c.ID, c.Metadata) + store.ItemsSize(items)
}

// itemIDs lists the items' ids.
func itemIDs(items []store.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

func TestCreate(t *testing.T) {
	s, clock := newTest(t, DefaultOptions())
	md := map[string]string{"topic": "test"}
	c, items, err := s.Create(md, messages(3))
	if err != nil {
		t.Fatal(err)
	}
	md["topic"] = "changed after Create"
	if !strings.HasPrefix(c.ID, store.PrefixConversation+"_") || !c.CreatedAt.Equal(clock.Now()) || c.Items != 3 {
		t.Errorf("header = %+v", c)
	}
	for _, it := range items {
		if !strings.HasPrefix(it.ID, store.PrefixMessage+"_") {
			t.Errorf("item id %q", it.ID)
		}
	}
	got, err := s.Get(c.ID)
	if err != nil || got.Metadata["topic"] != "test" {
		t.Errorf("Get = %+v, %v: metadata not copied", got, err)
	}
	if st := s.Stats(); st.Bytes != wantSize(t, s, c.ID) {
		t.Errorf("bytes = %d, want %d", st.Bytes, wantSize(t, s, c.ID))
	}
	if _, _, err := s.Create(nil, []store.Item{{ID: "x"}, {ID: "x"}}); !errors.Is(err, store.ErrDuplicateID) {
		t.Errorf("Create with a repeated id = %v, want ErrDuplicateID", err)
	}
}

func TestList(t *testing.T) {
	s, _ := newTest(t, DefaultOptions())
	c, items := create(t, s, 6)
	all := itemIDs(items)
	tests := []struct {
		name     string
		after    int // index of the cursor item, -1 for none
		limit    int
		order    store.Order
		want     []string
		wantMore bool
	}{
		{"asc first page", -1, 4, store.Asc, all[:4], true},
		{"asc after", 3, 4, store.Asc, all[4:], false},
		{"desc first page", -1, 2, store.Desc, []string{all[5], all[4]}, true},
		{"desc after", 2, 5, store.Desc, []string{all[1], all[0]}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after := ""
			if tt.after >= 0 {
				after = all[tt.after]
			}
			page, more, err := s.List(c.ID, after, tt.limit, tt.order)
			if err != nil || !slices.Equal(itemIDs(page), tt.want) || more != tt.wantMore {
				t.Errorf("List = %v, %v, %v; want %v, %v", itemIDs(page), more, err, tt.want, tt.wantMore)
			}
		})
	}
	if _, _, err := s.List(c.ID, "", store.MaxPageLimit+1, store.Asc); !errors.Is(err, store.ErrBadPage) || !strings.Contains(err.Error(), c.ID) {
		t.Errorf("List with a bad limit = %v, want ErrBadPage naming the conversation", err)
	}
}

func TestAppendAndDeleteItems(t *testing.T) {
	s, _ := newTest(t, DefaultOptions())
	c, first := create(t, s, 2)
	added, err := s.Append(c.ID, messages(3)...)
	if err != nil || len(added) != 3 {
		t.Fatalf("Append = %v, %v", added, err)
	}
	before := s.Stats().Bytes
	if before != wantSize(t, s, c.ID) {
		t.Errorf("after Append: bytes = %d, want %d", before, wantSize(t, s, c.ID))
	}
	victim := added[1]
	h, err := s.DeleteItem(c.ID, victim.ID)
	if err != nil || h.Items != 4 {
		t.Fatalf("DeleteItem = %+v, %v", h, err)
	}
	if got := s.Stats().Bytes; got != before-victim.Size() || got != wantSize(t, s, c.ID) {
		t.Errorf("after DeleteItem: bytes = %d, want %d", got, before-victim.Size())
	}
	// Positions after the deleted item still resolve.
	for _, it := range append(first, added[0], added[2]) {
		if got, err := s.Item(c.ID, it.ID); err != nil || string(got.Data) != string(it.Data) {
			t.Errorf("Item(%s) = %s, %v", it.ID, got.Data, err)
		}
	}
	for name, err := range map[string]error{
		"Item":       storetest.Err(s.Item(c.ID, victim.ID)),
		"DeleteItem": storetest.Err(s.DeleteItem(c.ID, victim.ID)),
	} {
		if !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), victim.ID) {
			t.Errorf("%s of a deleted item = %v, want ErrNotFound naming it", name, err)
		}
	}
}

func TestAppendRefused(t *testing.T) {
	tests := []struct {
		name  string
		items func(existing []store.Item) []store.Item
		want  error
	}{
		{"existing id", func(ex []store.Item) []store.Item { return []store.Item{{ID: ex[0].ID}} }, store.ErrDuplicateID},
		{"repeated id", func([]store.Item) []store.Item { return []store.Item{{ID: "x"}, {ID: "x"}} }, store.ErrDuplicateID},
		{"over budget", func([]store.Item) []store.Item { return messages(100) }, store.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTest(t, store.Options{MaxEntries: 4, MaxBytes: 2000})
			c, items := create(t, s, 2)
			before := s.Stats().Bytes
			if _, err := s.Append(c.ID, tt.items(items)...); !errors.Is(err, tt.want) || !strings.Contains(err.Error(), c.ID) {
				t.Errorf("Append = %v, want %v naming the conversation", err, tt.want)
			}
			got, _ := s.Get(c.ID)
			if got.Items != 2 || s.Stats().Bytes != before {
				t.Errorf("after a refused Append: %d items, %d bytes; want 2, %d", got.Items, s.Stats().Bytes, before)
			}
		})
	}
}

func TestAppendEvictsOthers(t *testing.T) {
	s, _ := newTest(t, store.Options{MaxEntries: 4, MaxBytes: 3000})
	old, _ := create(t, s, 1)
	grow, _ := create(t, s, 1)
	// Grow one until both no longer fit: the other, least recently used, goes.
	for s.Stats().Evictions == 0 {
		if _, err := s.Append(grow.ID, messages(1)...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Get(old.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the least recently used conversation was kept: %v", err)
	}
	if st := s.Stats(); st.Evictions != 1 || st.Bytes != wantSize(t, s, grow.ID) {
		t.Errorf("Stats = %+v, want one eviction and only %s's bytes", st, grow.ID)
	}
}

func TestSetMetadataAndDelete(t *testing.T) {
	s, _ := newTest(t, DefaultOptions())
	c, _ := create(t, s, 1)
	h, err := s.SetMetadata(c.ID, map[string]string{"a": "1", "b": "22"})
	if err != nil || h.Metadata["b"] != "22" {
		t.Fatalf("SetMetadata = %+v, %v", h, err)
	}
	if got := s.Stats().Bytes; got != wantSize(t, s, c.ID) {
		t.Errorf("bytes = %d, want %d", got, wantSize(t, s, c.ID))
	}
	if err := s.Delete(c.ID); err != nil {
		t.Fatal(err)
	}
	errs := map[string]error{
		"Get":         storetest.Err(s.Get(c.ID)),
		"Delete":      s.Delete(c.ID),
		"Append":      storetest.Err(s.Append(c.ID, messages(1)...)),
		"Items":       storetest.Err(s.Items(c.ID)),
		"SetMetadata": storetest.Err(s.SetMetadata(c.ID, nil)),
	}
	for name, err := range errs {
		if !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), c.ID) {
			t.Errorf("%s after Delete = %v, want ErrNotFound naming the conversation", name, err)
		}
	}
	if st := s.Stats(); st.Bytes != 0 || st.Entries != 0 {
		t.Errorf("Stats after Delete = %+v", st)
	}
}

func TestAppendRestartsTTL(t *testing.T) {
	s, clock := newTest(t, DefaultOptions())
	idle, _ := create(t, s, 1)
	busy, _ := create(t, s, 1)
	clock.Advance(DefaultTTL - time.Second)
	if _, err := s.Append(busy.ID, messages(1)...); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if _, err := s.Get(idle.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("idle conversation after its TTL: %v", err)
	}
	if _, err := s.Get(busy.ID); err != nil {
		t.Errorf("conversation appended to within its TTL: %v", err)
	}
}
