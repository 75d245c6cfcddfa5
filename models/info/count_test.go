package info

import "testing"

func TestHumanCount(t *testing.T) {
	cases := []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1K"}, {3232, "3.2K"},
		{3_219_776, "3.2M"}, {9_822_656, "9.8M"}, {9_960_000, "10M"}, {13_894_912, "14M"},
		{134_515_008, "135M"}, {999_600_000, "1B"}, {1_543_714_304, "1.5B"}, {7_000_000_000, "7B"},
		{405_000_000_000, "405B"}, {1_200_000_000_000, "1.2T"},
	}
	for _, c := range cases {
		if got := HumanCount(c.n); got != c.want {
			t.Errorf("HumanCount(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
