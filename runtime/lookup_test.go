package runtime

import (
	"slices"
	"testing"
)

// TestLookup checks the proposals of prompt lookup.
func TestLookup(t *testing.T) {
	tests := []struct {
		name   string
		tokens []int32
		k      int
		want   []int32
	}{
		{"no repeat", []int32{1, 2, 3, 4}, 4, nil},
		{"latest trigram", []int32{1, 2, 3, 9, 1, 2, 3, 7, 8, 1, 2, 3}, 2, []int32{7, 8}},
		{"longest n-gram wins", []int32{2, 3, 5, 1, 3, 6, 2, 3}, 3, []int32{5, 1, 3}},
		{"unigram", []int32{4, 5, 6, 4}, 2, []int32{5, 6}},
		{"loop repeats", []int32{7, 1, 2, 1, 2}, 5, []int32{1, 2, 1, 2, 1}},
		{"one token loop", []int32{3, 3, 3}, 4, []int32{3, 3, 3, 3}},
		{"k zero", []int32{1, 1}, 0, nil},
		{"single token", []int32{1}, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lookup(tt.tokens, tt.k, nil); !slices.Equal(got, tt.want) {
				t.Errorf("lookup(%v, %d) = %v, want %v", tt.tokens, tt.k, got, tt.want)
			}
		})
	}
}
