package responses

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/store"
	"github.com/mlxrun/mlx/store/internal/storetest"
)

// newTest returns a response store on a fake clock, stopped at cleanup.
func newTest(t *testing.T, opts store.Options) (*Store, *storetest.Clock) {
	t.Helper()
	clock := storetest.NewClock()
	opts.Now = clock.Now
	s := New(opts)
	t.Cleanup(s.Stop)
	return s, clock
}

// sample returns a response with n input items and one output item.
func sample(id, prev string, n int) Response {
	r := Response{ID: id, PreviousID: prev, Model: "m", Status: StatusCompleted,
		Output:   []store.Item{{ID: "out_" + id, Data: json.RawMessage(`{"type":"message"}`)}},
		Metadata: map[string]string{"k": "v"}, Object: json.RawMessage(`{"object":"response"}`)}
	for i := range n {
		r.Input = append(r.Input, store.Item{ID: fmt.Sprint("in", i), Data: json.RawMessage(`{"role":"user"}`)})
	}
	return r
}

func TestPutGetDelete(t *testing.T) {
	s, _ := newTest(t, DefaultOptions())
	r := sample(store.NewID(store.PrefixResponse), "", 3)
	if err := s.Put(r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(r.ID)
	if err != nil || got.ID != r.ID || len(got.Input) != 3 || string(got.Object) != string(r.Object) {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if st := s.Stats(); st.Bytes != r.Size() || st.Entries != 1 {
		t.Errorf("Stats = %+v, want one entry of %d bytes", st, r.Size())
	}
	if err := s.Delete(r.ID); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{"Get": storetest.Err(s.Get(r.ID)), "Delete": s.Delete(r.ID)} {
		if !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), r.ID) {
			t.Errorf("%s after Delete = %v, want ErrNotFound naming the id", name, err)
		}
	}
}

func TestPutRefused(t *testing.T) {
	tests := []struct {
		name string
		opts store.Options
		r    Response
		want error
	}{
		{"no id", DefaultOptions(), sample("", "", 1), ErrNoID},
		{"too large", store.Options{MaxEntries: 4, MaxBytes: 300}, sample("resp_big", "", 10), store.ErrTooLarge},
		{"disabled", store.Options{}, sample("resp_x", "", 1), store.ErrDisabled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTest(t, tt.opts)
			if err := s.Put(tt.r); !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.r.ID) {
				t.Errorf("Put = %v, want %v naming %q", err, tt.want, tt.r.ID)
			}
		})
	}
}

func TestExpiry(t *testing.T) {
	s, clock := newTest(t, DefaultOptions())
	if err := s.Put(sample("resp_a", "", 1)); err != nil {
		t.Fatal(err)
	}
	clock.Advance(DefaultTTL)
	if _, err := s.Get("resp_a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get after the TTL = %v, want ErrNotFound", err)
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		status    Status
		wantCalls int
	}{
		{StatusQueued, 1}, {StatusInProgress, 1}, {StatusCompleted, 0}, {StatusCancelled, 0}, {StatusFailed, 0},
	}
	for _, tt := range tests {
		t.Run(string(tt.status), func(t *testing.T) {
			s, _ := newTest(t, DefaultOptions())
			calls := 0
			r := sample("resp_c", "", 1)
			r.Status, r.Cancel = tt.status, func() { calls++ }
			if err := s.Put(r); err != nil {
				t.Fatal(err)
			}
			got, err := s.Cancel("resp_c")
			if err != nil || got.Status != tt.status {
				t.Fatalf("Cancel = %v, %v", got.Status, err)
			}
			if calls != tt.wantCalls {
				t.Errorf("cancel func called %d times, want %d", calls, tt.wantCalls)
			}
		})
	}
	s, _ := newTest(t, DefaultOptions())
	if _, err := s.Cancel("resp_none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Cancel of a missing response = %v", err)
	}
}

func TestInputItems(t *testing.T) {
	s, _ := newTest(t, DefaultOptions())
	if err := s.Put(sample("resp_a", "", 5)); err != nil {
		t.Fatal(err)
	}
	page, more, err := s.InputItems("resp_a", "in1", 2, store.Asc)
	if err != nil || len(page) != 2 || page[0].ID != "in2" || page[1].ID != "in3" || !more {
		t.Errorf("InputItems = %v, %v, %v", page, more, err)
	}
	if _, _, err := s.InputItems("resp_a", "nope", 2, store.Asc); !errors.Is(err, store.ErrBadPage) {
		t.Errorf("unknown cursor: %v, want ErrBadPage", err)
	}
	if _, _, err := s.InputItems("resp_b", "", 2, store.Asc); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown response: %v, want ErrNotFound", err)
	}
}

func TestChain(t *testing.T) {
	tests := []struct {
		name    string
		stored  []Response
		from    string
		want    []string
		wantErr error
		words   string
	}{
		{"single", []Response{sample("a", "", 1)}, "a", []string{"a"}, nil, ""},
		{"three", []Response{sample("a", "", 1), sample("b", "a", 1), sample("c", "b", 1)}, "c", []string{"a", "b", "c"}, nil, ""},
		{"missing link", []Response{sample("b", "a", 1), sample("c", "b", 1)}, "c", nil, store.ErrNotFound, "response a, previous of b"},
		{"missing start", nil, "c", nil, store.ErrNotFound, "response c"},
		{"loop", []Response{sample("a", "b", 1), sample("b", "a", 1)}, "a", nil, ErrCycle, "response a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTest(t, DefaultOptions())
			for _, r := range tt.stored {
				if err := s.Put(r); err != nil {
					t.Fatal(err)
				}
			}
			chain, err := s.Chain(tt.from)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.words) {
					t.Errorf("Chain = %v, want %v naming %q", err, tt.wantErr, tt.words)
				}
				return
			}
			var got []string
			for _, r := range chain {
				got = append(got, r.ID)
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("Chain = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
