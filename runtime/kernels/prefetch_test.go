package kernels

import "testing"

// TestPrefetchRowsWithin checks the runs PrefetchRows keeps: as many as
// asked while they lie whole within the slice, and asks for them on
// slices of every element size, at and past the end, without a fault.
func TestPrefetchRowsWithin(t *testing.T) {
	tests := []struct{ size, rows, n, stride, want int }{
		{100, 0, 10, 10, 0},
		{100, 1, 0, 10, 0},
		{100, -1, 5, 5, 0},
		{0, 1, 1, 1, 0},
		{100, 3, 64, 0, 1},
		{100, 3, 101, 0, 0},
		{1280, 10, 64, 128, 10},
		{1216, 10, 64, 128, 10},
		{1215, 10, 64, 128, 9},
		{100, 1000, 7, 64, 2},
		{129, 2, 129, 129, 1},
	}
	b := make([]byte, 2000)
	h := make([]uint16, 300)
	f := make([]float32, 129)
	for _, tt := range tests {
		got := runsWithin(tt.size, tt.rows, tt.n, tt.stride)
		if got != tt.want {
			t.Errorf("runsWithin(%d, %d, %d, %d) = %d, want %d", tt.size, tt.rows, tt.n, tt.stride, got, tt.want)
		}
		if got > 0 && (got-1)*tt.stride+tt.n > tt.size {
			t.Errorf("runsWithin(%d, %d, %d, %d) = %d: past the end", tt.size, tt.rows, tt.n, tt.stride, got)
		}
		PrefetchRows(b[:min(tt.size, len(b))], tt.rows, tt.n, tt.stride)
		PrefetchRows(h, tt.rows, tt.n, tt.stride)
		PrefetchRows(f, tt.rows, tt.n, tt.stride)
	}
}
