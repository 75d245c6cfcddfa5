package info

import (
	"strconv"
	"strings"
)

// HumanCount writes a parameter count the way model names do: "135M", "3.2M",
// "1.5B", "7B", "27K". Below 10 of a unit it keeps one decimal (dropping
// ".0"); from 10 on it rounds to a whole number.
func HumanCount(n int64) string {
	units := []struct {
		size   float64
		suffix string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}}
	for i, u := range units {
		v := float64(n) / u.size
		if v < 1 {
			continue
		}
		prec := 1
		if v >= 9.95 {
			prec = 0
		}
		s := strconv.FormatFloat(v, 'f', prec, 64)
		if s == "1000" && i > 0 { // 999.6M rounds to 1B
			return HumanCount(int64(units[i-1].size))
		}
		return strings.TrimSuffix(s, ".0") + u.suffix
	}
	return strconv.FormatInt(n, 10)
}
