package conversations

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/store"
)

// TestConcurrentItems appends, lists, reads and deletes items of a few
// conversations from many goroutines (run it with -race), then checks that
// the store's bytes are the sum of the live conversations' sizes.
func TestConcurrentItems(t *testing.T) {
	const workers, ops = 8, 500
	s, _ := newTest(t, store.Options{MaxEntries: 3, MaxBytes: 200000})
	var ids []string
	for range 4 {
		c, _ := create(t, s, 2)
		ids = append(ids, c.ID)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 2))
			for range ops {
				id := ids[r.IntN(len(ids))]
				switch op := r.IntN(10); {
				case op < 4:
					s.Append(id, messages(1+r.IntN(3))...)
				case op < 6:
					s.List(id, "", 5, store.Desc)
				case op < 8:
					if page, _, err := s.List(id, "", 1, store.Asc); err == nil && len(page) == 1 {
						s.DeleteItem(id, page[0].ID)
					}
				case op < 9:
					s.SetMetadata(id, map[string]string{"w": string(rune('a' + w))})
				default:
					if _, err := s.Get(id); err != nil && w == 0 {
						c, _, err := s.Create(nil, messages(1))
						if err == nil {
							s.Delete(c.ID)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	var sum int64
	for _, id := range ids {
		if _, err := s.Get(id); err == nil {
			sum += wantSize(t, s, id)
		}
	}
	if st := s.Stats(); st.Bytes != sum || st.Entries > 3 {
		t.Errorf("Stats = %+v, want bytes %d and at most 3 entries", st, sum)
	}
}
