package sample

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name  string
		edit  func(*Params)
		param string // "" when valid
	}{
		{"defaults", func(*Params) {}, ""},
		{"greedy", func(p *Params) { p.Temperature = 0 }, ""},
		{"all bounds", func(p *Params) {
			p.Temperature, p.TopP, p.MinP, p.TypicalP = 2, 1, 1, 1
			p.FrequencyPenalty, p.PresencePenalty, p.TopLogprobs = -2, 2, MaxTopLogprobs
		}, ""},
		{"temperature high", func(p *Params) { p.Temperature = 2.01 }, "temperature"},
		{"temperature negative", func(p *Params) { p.Temperature = -0.1 }, "temperature"},
		{"temperature NaN", func(p *Params) { p.Temperature = nan }, "temperature"},
		{"top_p zero", func(p *Params) { p.TopP = 0 }, "top_p"},
		{"top_p above 1", func(p *Params) { p.TopP = 1.5 }, "top_p"},
		{"top_k negative", func(p *Params) { p.TopK = -1 }, "top_k"},
		{"min_p above 1", func(p *Params) { p.MinP = 1.1 }, "min_p"},
		{"typical_p zero", func(p *Params) { p.TypicalP = 0 }, "typical_p"},
		{"repetition zero", func(p *Params) { p.RepetitionPenalty = 0 }, "repetition_penalty"},
		{"repetition Inf", func(p *Params) { p.RepetitionPenalty = math.Inf(1) }, "repetition_penalty"},
		{"frequency", func(p *Params) { p.FrequencyPenalty = 2.5 }, "frequency_penalty"},
		{"presence", func(p *Params) { p.PresencePenalty = -3 }, "presence_penalty"},
		{"top_logprobs", func(p *Params) { p.TopLogprobs = 21 }, "top_logprobs"},
		{"min_tokens negative", func(p *Params) { p.MinTokens = -1 }, "min_tokens"},
		{"min above max", func(p *Params) { p.MinTokens, p.MaxTokens = 5, 4 }, "min_tokens"},
		{"max_tokens negative", func(p *Params) { p.MaxTokens = -1 }, "max_tokens"},
		{"bias NaN", func(p *Params) { p.LogitBias = map[int32]float64{3: nan} }, "logit_bias"},
		{"empty stop", func(p *Params) { p.Stop = []string{"a", ""} }, "stop"},
		{"long stop", func(p *Params) { p.Stop = []string{strings.Repeat("x", MaxStopBytes+1)} }, "stop"},
		{"many stops", func(p *Params) { p.Stop = make([]string, MaxStops+1) }, "stop"},
		{"bad UTF-8 stop", func(p *Params) { p.Stop = []string{"\xff"} }, "stop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			tc.edit(&p)
			checkParamErr(t, p.Validate(), tc.param)
		})
	}
}

// checkParamErr checks that err is nil when param is "", else a *ParamError
// for param that wraps ErrInvalid and names it.
func checkParamErr(t *testing.T, err error, param string) {
	t.Helper()
	if param == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var pe *ParamError
	if !errors.Is(err, ErrInvalid) || !errors.As(err, &pe) || pe.Param != param {
		t.Fatalf("error %v, want a ParamError for %q wrapping ErrInvalid", err, param)
	}
	if !strings.Contains(err.Error(), param) {
		t.Errorf("error %q does not name %q", err, param)
	}
}

func TestNewChecksTokenIDs(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Params)
		vocab int
		eos   []int32
		param string
	}{
		{"ok", func(p *Params) { p.LogitBias = map[int32]float64{9: 200} }, 10, []int32{9}, ""},
		{"bias id too large", func(p *Params) { p.LogitBias = map[int32]float64{10: 1} }, 10, nil, "logit_bias"},
		{"bias id negative", func(p *Params) { p.LogitBias = map[int32]float64{-1: 1} }, 10, nil, "logit_bias"},
		{"stop id", func(p *Params) { p.StopTokenIDs = []int32{3, 12} }, 10, nil, "stop_token_ids"},
		{"invalid params", func(p *Params) { p.TopP = 2 }, 10, nil, "top_p"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			tc.edit(&p)
			_, err := New(p, tc.vocab, tc.eos)
			checkParamErr(t, err, tc.param)
		})
	}
}

func TestNewChecksModel(t *testing.T) {
	tests := []struct {
		name  string
		vocab int
		eos   []int32
	}{
		{"zero vocabulary", 0, nil},
		{"huge vocabulary", MaxVocab + 1, nil},
		{"EOS outside", 10, []int32{10}},
	}
	for _, tc := range tests {
		if _, err := New(Defaults(), tc.vocab, tc.eos); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error %v, want ErrInvalid", tc.name, err)
		}
	}
}

func TestBudget(t *testing.T) {
	tests := []struct {
		name                  string
		maxTokens             int
		prompt, context, want int
		fails                 bool
	}{
		{"room left", 0, 10, 100, 90, false},
		{"max_tokens smaller", 20, 10, 100, 20, false},
		{"max_tokens capped", 500, 10, 100, 90, false},
		{"prompt fills context", 0, 100, 100, 0, true},
		{"negative prompt", 0, -1, 100, 0, true},
	}
	for _, tc := range tests {
		p := Defaults()
		p.MaxTokens = tc.maxTokens
		got, err := p.Budget(tc.prompt, tc.context)
		if (err != nil) != tc.fails || got != tc.want {
			t.Errorf("%s: Budget = %d, %v; want %d, error %v", tc.name, got, err, tc.want, tc.fails)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error %v does not wrap ErrInvalid", tc.name, err)
		}
	}
}

// A negative count says so, without the largest int as a bound.
func TestNegativeCountMessage(t *testing.T) {
	p := Defaults()
	p.MaxTokens = -3
	err := p.Validate()
	checkParamErr(t, err, "max_tokens")
	if msg := err.Error(); !strings.Contains(msg, "-3 is negative") || strings.Contains(msg, "922337") {
		t.Errorf("message %q", msg)
	}
}
