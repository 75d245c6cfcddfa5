package chat

import (
	"testing"
	"time"
)

// TestStrftime compares with Python's datetime.strftime on Linux (C
// locale); the expected strings were printed by Python 3.11.
func TestStrftime(t *testing.T) {
	friday := time.Date(2024, 7, 26, 15, 4, 5, 123456000, time.UTC)
	sunday := time.Date(2021, 1, 3, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		t            time.Time
		format, want string
	}{
		{friday, "%d %b %Y", "26 Jul 2024"},
		{friday, "%Y-%m-%d", "2024-07-26"},
		{friday, "%B %d, %Y", "July 26, 2024"},
		{friday, "%A %a %j %U %W %w %u %V %G %g", "Friday Fri 208 29 30 5 5 30 2024 24"},
		{friday, "%I:%M:%S %p %H %k|%l|%e", "03:04:05 PM 15 15| 3|26"},
		{friday, "%-d/%-m %_d %^b %c", "26/7 26 JUL Fri Jul 26 15:04:05 2024"},
		{friday, "%D %F %T %R %r %x %X %y %C", "07/26/24 2024-07-26 15:04:05 15:04 03:04:05 PM 07/26/24 15:04:05 24 20"},
		{friday, "%f|%z|%Z|%%|%Q", "123456|||%|%Q"},
		{sunday, "%U %W %V %G %j %u %w", "01 00 53 2020 003 7 0"},
		{sunday, "%I %p %l", "12 AM 12"},
	}
	for _, c := range cases {
		if got := Strftime(c.t, c.format); got != c.want {
			t.Errorf("Strftime(%q) = %q, want %q", c.format, got, c.want)
		}
	}
}
