package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxMaxTokens bounds max_tokens when the context size is unknown.
const maxMaxTokens = 1 << 24

// setting is one key of /set.
type setting struct {
	name  string
	usage string // the values it takes, for help and errors
	set   func(s *Settings, v string, ctxSize int) bool
	show  func(s Settings) string
}

// settingsTable lists the keys of /set in the order /show prints them.
var settingsTable = []setting{
	{"temperature", "a number from 0 to 2 (0 is greedy)", func(s *Settings, v string, _ int) bool {
		return parseFloat(v, 0, 2, false, &s.Temperature)
	}, func(s Settings) string { return formatFloat(s.Temperature) }},
	{"top_p", "a number above 0, at most 1 (1 disables it)", func(s *Settings, v string, _ int) bool {
		return parseFloat(v, 0, 1, true, &s.TopP)
	}, func(s Settings) string { return formatFloat(s.TopP) }},
	{"top_k", "a whole number ≥ 0 (0 disables it)", func(s *Settings, v string, _ int) bool {
		return parseInt(v, 0, math.MaxInt32, &s.TopK)
	}, func(s Settings) string { return strconv.Itoa(s.TopK) }},
	{"max_tokens", "a whole number ≥ 0 (0 runs to the end of the context)", func(s *Settings, v string, ctx int) bool {
		limit := maxMaxTokens
		if ctx > 0 {
			limit = ctx
		}
		return parseInt(v, 0, limit, &s.MaxTokens)
	}, func(s Settings) string { return strconv.Itoa(s.MaxTokens) }},
	{"seed", "a whole number, or random", setSeed, func(s Settings) string {
		if s.Seed == nil {
			return "random"
		}
		return strconv.FormatInt(*s.Seed, 10)
	}},
	{"think", "on or off", func(s *Settings, v string, _ int) bool {
		on, ok := parseSwitch(v)
		if ok {
			s.Think = on
		}
		return ok
	}, func(s Settings) string { return map[bool]string{true: "on", false: "off"}[s.Think] }},
}

// applySetting validates and applies "/set KEY VALUE" to s.
func applySetting(s *Settings, key, value string, ctxSize int) error {
	for _, k := range settingsTable {
		if k.name != key {
			continue
		}
		if value == "" {
			return fmt.Errorf("%w: %s needs a value: %s", ErrSetting, key, k.usage)
		}
		if !k.set(s, value, ctxSize) {
			return fmt.Errorf("%w: %s must be %s, not %q", ErrSetting, key, k.usage, value)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown setting %q; the settings are %s", ErrSetting, key, settingNames())
}

func settingNames() string {
	names := make([]string, len(settingsTable))
	for i, k := range settingsTable {
		names[i] = k.name
	}
	return strings.Join(names, ", ")
}

func parseFloat(v string, lo, hi float64, openLo bool, dst *float64) bool {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || f < lo || f > hi || openLo && f == lo {
		return false
	}
	*dst = f
	return true
}

func parseInt(v string, lo, hi int, dst *int) bool {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return false
	}
	*dst = n
	return true
}

func setSeed(s *Settings, v string, _ int) bool {
	if strings.EqualFold(v, "random") {
		s.Seed = nil
		return true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return false
	}
	s.Seed = &n
	return true
}

func parseSwitch(v string) (on, ok bool) {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "1":
		return true, true
	case "off", "false", "no", "0":
		return false, true
	}
	return false, false
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
