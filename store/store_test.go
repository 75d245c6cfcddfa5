package store

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestLRUOrder(t *testing.T) {
	tests := []struct {
		name  string
		touch func(s *Store[string, int]) // after a, b, c are put in that order
		want  []string                    // most recent first, after d is put
	}{
		{"untouched", func(s *Store[string, int]) {}, []string{"d", "c", "b"}},
		{"get refreshes", func(s *Store[string, int]) { s.Get("a") }, []string{"d", "a", "c"}},
		{"peek does not", func(s *Store[string, int]) { s.Peek("a") }, []string{"d", "c", "b"}},
		{"put refreshes", func(s *Store[string, int]) { s.Put("a", 9, 1) }, []string{"d", "a", "c"}},
		{"resize refreshes", func(s *Store[string, int]) { s.Resize("b", 2) }, []string{"d", "b", "c"}},
		{"delete frees", func(s *Store[string, int]) { s.Delete("b") }, []string{"d", "c", "a"}},
		{"miss changes nothing", func(s *Store[string, int]) { s.Get("zz") }, []string{"d", "c", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTest(t, Options{MaxEntries: 3})
			for i, k := range []string{"a", "b", "c"} {
				mustPut(t, s, k, i, 1)
			}
			tt.touch(s)
			mustPut(t, s, "d", 3, 1)
			if got := order(s); !slices.Equal(got, tt.want) {
				t.Errorf("order = %v, want %v", got, tt.want)
			}
			checkInvariants(t, s)
		})
	}
}

func TestByteBudget(t *testing.T) {
	tests := []struct {
		name        string
		small, n    int64 // n entries of small bytes fill the budget
		large       int64
		wantEvicted int
	}{
		{"one small out", 10, 10, 10, 1},
		{"several small out", 10, 10, 35, 4},
		{"all small out", 10, 10, 100, 10},
		{"zero-size entries", 0, 50, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTest(t, Options{MaxEntries: 1000, MaxBytes: 100})
			for i := range tt.n {
				mustPut(t, s, fmt.Sprint("small", i), int(i), tt.small)
			}
			mustPut(t, s, "large", -1, tt.large)
			st := s.Stats()
			if int(st.Evictions) != tt.wantEvicted {
				t.Errorf("evictions = %d, want %d", st.Evictions, tt.wantEvicted)
			}
			// The oldest went first: exactly the first wantEvicted are gone.
			for i := range tt.n {
				_, ok := s.Peek(fmt.Sprint("small", i))
				if want := int(i) >= tt.wantEvicted; ok != want {
					t.Errorf("small%d present = %v, want %v", i, ok, want)
				}
			}
			if _, ok := s.Peek("large"); !ok {
				t.Error("the large entry was not kept")
			}
			checkInvariants(t, s)
		})
	}
}

func TestRefusedWrites(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		size int64
		want error
	}{
		{"disabled", Options{MaxEntries: 0, MaxBytes: 100}, 1, ErrDisabled},
		{"negative entries disable", Options{MaxEntries: -1}, 1, ErrDisabled},
		{"too large", Options{MaxEntries: 10, MaxBytes: 100}, 101, ErrTooLarge},
		{"negative size", Options{MaxEntries: 10, MaxBytes: 100}, -1, ErrBadSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTest(t, tt.opts)
			if tt.opts.MaxEntries > 0 {
				mustPut(t, s, "k", 1, 10)
			}
			if err := s.Put("k", 2, tt.size); !errors.Is(err, tt.want) {
				t.Errorf("Put = %v, want %v", err, tt.want)
			}
			if err := s.Resize("k", tt.size); !errors.Is(err, tt.want) {
				t.Errorf("Resize = %v, want %v", err, tt.want)
			}
			v, ok := s.Get("k")
			if wantOK := tt.opts.MaxEntries > 0; ok != wantOK || (ok && v != 1) {
				t.Errorf("Get = %d, %v; want the old value kept: %v", v, ok, wantOK)
			}
			checkInvariants(t, s)
		})
	}
}

func TestResize(t *testing.T) {
	s, _ := newTest(t, Options{MaxEntries: 10, MaxBytes: 100})
	for _, k := range []string{"a", "b", "c"} {
		mustPut(t, s, k, 0, 30)
	}
	if err := s.Resize("b", 60); err != nil {
		t.Fatalf("Resize: %v", err)
	}
	if got, want := order(s), []string{"b", "c"}; !slices.Equal(got, want) {
		t.Errorf("after growing b: order = %v, want %v (a evicted)", got, want)
	}
	if err := s.Resize("b", 10); err != nil {
		t.Fatalf("Resize: %v", err)
	}
	if st := s.Stats(); st.Bytes != 40 {
		t.Errorf("bytes = %d after shrinking b, want 40", st.Bytes)
	}
	if err := s.Resize("a", 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Resize of an evicted key = %v, want ErrNotFound", err)
	}
	checkInvariants(t, s)
}

func TestStatsExact(t *testing.T) {
	s, clock := newTest(t, Options{MaxEntries: 2, MaxBytes: 50, TTL: 10e9})
	mustPut(t, s, "a", 1, 10)
	mustPut(t, s, "b", 2, 20)
	s.Get("a")                // hit
	s.Get("x")                // miss
	s.Peek("b")               // neither
	mustPut(t, s, "c", 3, 5)  // evicts b (a was used)
	s.Get("b")                // miss
	clock.Advance(10e9)       // a and c expire
	mustPut(t, s, "a", 4, 40) // an expiration, then a fresh a
	s.Get("c")                // expired: miss, expiration
	s.Delete("a")
	want := Stats{Entries: 0, Bytes: 0, MaxEntries: 2, MaxBytes: 50, Hits: 1, Misses: 3, Evictions: 1, Expirations: 2}
	if got := s.Stats(); got != want {
		t.Errorf("Stats = %+v\nwant    %+v", got, want)
	}
}

func TestZeroMaxBytesIsUnbounded(t *testing.T) {
	s, _ := newTest(t, Options{MaxEntries: 2})
	mustPut(t, s, "a", 1, 1<<40)
	mustPut(t, s, "b", 2, 1<<40)
	if st := s.Stats(); st.Entries != 2 || st.Bytes != 2<<40 || st.Evictions != 0 {
		t.Errorf("Stats = %+v, want both entries kept", st)
	}
}
