package model

import "testing"

// TestAttnGroups checks that the attention tasks share evenly among the
// threads where a few more row groups allow it.
func TestAttnGroups(t *testing.T) {
	tests := []struct{ heads, threads, want int }{
		{9, 2, 2},    // SmolLM2-135M: 18 tasks, 9 per thread
		{32, 2, 1},   // already even
		{16, 4, 1},   // already even
		{15, 4, 4},   // 60 tasks
		{9, 1, 1},    // one thread
		{2, 8, 8},    // few heads: 16 tasks, two per thread
		{7, 3, 3},    // 21 tasks
		{14, 32, 16}, // 224 tasks, 7 per thread
	}
	for _, tt := range tests {
		got := attnGroups(tt.heads, tt.threads)
		if got != tt.want {
			t.Errorf("attnGroups(%d heads, %d threads) = %d, want %d", tt.heads, tt.threads, got, tt.want)
		}
		if tasks := tt.heads * got; tasks < 2*tt.threads {
			t.Errorf("attnGroups(%d, %d) = %d: %d tasks, fewer than two per thread", tt.heads, tt.threads, got, tasks)
		}
	}
}
