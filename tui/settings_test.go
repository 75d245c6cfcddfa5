package tui

import (
	"errors"
	"strings"
	"testing"
)

func TestApplySetting(t *testing.T) {
	seed := int64(42)
	tests := []struct {
		key, value string
		want       func(Settings) bool
		errHas     string // "" for success
	}{
		{"temperature", "0.7", func(s Settings) bool { return s.Temperature == 0.7 }, ""},
		{"temperature", "0", func(s Settings) bool { return s.Temperature == 0 }, ""},
		{"temperature", "2.5", nil, "temperature must be a number from 0 to 2"},
		{"temperature", "hot", nil, `not "hot"`},
		{"temperature", "NaN", nil, "temperature must be"},
		{"temperature", "", nil, "temperature needs a value"},
		{"top_p", "1", func(s Settings) bool { return s.TopP == 1 }, ""},
		{"top_p", "0", nil, "top_p must be a number above 0"},
		{"top_k", "40", func(s Settings) bool { return s.TopK == 40 }, ""},
		{"top_k", "-1", nil, "top_k must be a whole number"},
		{"top_k", "1.5", nil, "top_k must be"},
		{"max_tokens", "128", func(s Settings) bool { return s.MaxTokens == 128 }, ""},
		{"max_tokens", "5000", nil, "max_tokens must be"}, // the context holds 4096
		{"seed", "42", func(s Settings) bool { return s.Seed != nil && *s.Seed == seed }, ""},
		{"seed", "random", func(s Settings) bool { return s.Seed == nil }, ""},
		{"seed", "x", nil, "seed must be a whole number, or random"},
		{"think", "on", func(s Settings) bool { return s.Think }, ""},
		{"think", "OFF", func(s Settings) bool { return !s.Think }, ""},
		{"think", "maybe", nil, "think must be on or off"},
		{"color", "red", nil, `unknown setting "color"`},
	}
	for _, tc := range tests {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			s := Settings{Temperature: 1, TopP: 0.9, Think: true, Seed: &seed}
			before := s
			err := applySetting(&s, tc.key, tc.value, 4096)
			if tc.errHas != "" {
				if err == nil || !errors.Is(err, ErrSetting) || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("error %v, want ErrSetting with %q", err, tc.errHas)
				}
				if s != before {
					t.Errorf("a bad value changed the settings: %+v", s)
				}
				return
			}
			if err != nil || !tc.want(s) {
				t.Fatalf("error %v, settings %+v", err, s)
			}
		})
	}
}
