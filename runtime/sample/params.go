package sample

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/mlxrun/mlx/models/config"
)

// ErrInvalid is wrapped by every error about a sampling parameter or an
// argument out of range.
var ErrInvalid = errors.New("invalid sampling parameter")

// Limits on request values that size allocations.
const (
	MaxTopLogprobs = 20   // most alternatives reported per token (as OpenAI)
	MaxStops       = 64   // most stop strings per request
	MaxStopBytes   = 4096 // longest stop string, in bytes
	MaxLogitBias   = 100  // logit_bias values are clamped to ±MaxLogitBias
)

// Params are the sampling parameters of one request. The zero value is not
// valid (top_p, typical_p and repetition_penalty would be 0): start from
// Defaults and change what the request sets. Names in errors are the JSON
// names of the OpenAI and vLLM APIs; the ranges of the float parameters are
// config.SamplingRange's.
type Params struct {
	Temperature       float64 // [0, 2]; 0 selects greedy decoding
	TopK              int     // ≥ 0; 0 disables; larger than the vocabulary keeps all
	TopP              float64 // (0, 1]; 1 disables
	MinP              float64 // [0, 1]; 0 disables
	TypicalP          float64 // (0, 1]; 1 disables
	RepetitionPenalty float64 // > 0; 1 disables; over prompt and output tokens
	FrequencyPenalty  float64 // [-2, 2]; over output tokens, times their count
	PresencePenalty   float64 // [-2, 2]; over output tokens, once each

	// LogitBias adds a bias to the logit of a token id, clamped to
	// [-MaxLogitBias, MaxLogitBias]. Ids must lie inside the vocabulary.
	LogitBias map[int32]float64

	Seed      *int64 // nil: a random seed (see Sampler.Seed)
	MinTokens int    // EOS and stop token ids are masked until this many tokens are generated
	MaxTokens int    // 0: no limit from the request; see Budget
	IgnoreEOS bool   // mask the EOS ids for the whole request

	StopTokenIDs           []int32  // token ids that end the sequence, besides EOS
	Stop                   []string // stop strings, see StopMatcher
	IncludeStopStrInOutput bool     // emit the matched stop string too

	Logprobs    bool // report the log-probability of each chosen token
	TopLogprobs int  // [0, MaxTopLogprobs]: alternatives reported per token
}

// Defaults returns the parameters of a request that sets nothing: temperature
// 1 with every filter and penalty off.
func Defaults() Params {
	return Params{Temperature: 1, TopP: 1, TypicalP: 1, RepetitionPenalty: 1}
}

// ParamError is an invalid parameter. It wraps ErrInvalid; Param is the JSON
// name of the parameter, for an API error body.
type ParamError struct {
	Param string
	Msg   string
}

// Error implements error.
func (e *ParamError) Error() string { return ErrInvalid.Error() + ": " + e.Param + ": " + e.Msg }

// Unwrap returns ErrInvalid.
func (e *ParamError) Unwrap() error { return ErrInvalid }

func invalid(param, format string, args ...any) error {
	return &ParamError{Param: param, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks every parameter that does not depend on the vocabulary
// (New checks token ids). Errors wrap ErrInvalid and are *ParamError.
func (p Params) Validate() error {
	floats := []struct {
		name string
		v    float64
	}{
		{"temperature", p.Temperature},
		{"top_p", p.TopP},
		{"min_p", p.MinP},
		{"typical_p", p.TypicalP},
		{"repetition_penalty", p.RepetitionPenalty},
		{"frequency_penalty", p.FrequencyPenalty},
		{"presence_penalty", p.PresencePenalty},
	}
	for _, f := range floats {
		if r, _ := config.SamplingRange(f.name); !r.Contains(f.v) {
			return invalid(f.name, "%v is not in %v", f.v, r)
		}
	}
	ints := []struct {
		name   string
		v, max int
	}{
		{"top_k", p.TopK, math.MaxInt},
		{"min_tokens", p.MinTokens, math.MaxInt},
		{"max_tokens", p.MaxTokens, math.MaxInt},
		{"top_logprobs", p.TopLogprobs, MaxTopLogprobs},
	}
	for _, f := range ints {
		switch {
		case f.v < 0:
			return invalid(f.name, "%d is negative: it must be 0 or more", f.v)
		case f.v > f.max:
			return invalid(f.name, "%d is more than %d", f.v, f.max)
		}
	}
	if p.MaxTokens > 0 && p.MinTokens > p.MaxTokens {
		return invalid("min_tokens", "%d exceeds max_tokens %d", p.MinTokens, p.MaxTokens)
	}
	for id, b := range p.LogitBias {
		if math.IsNaN(b) {
			return invalid("logit_bias", "token %d: bias is NaN", id)
		}
	}
	return validateStops(p.Stop)
}

func validateStops(stops []string) error {
	if len(stops) > MaxStops {
		return invalid("stop", "%d stop strings, at most %d", len(stops), MaxStops)
	}
	for i, s := range stops {
		switch {
		case s == "":
			return invalid("stop", "stop string %d is empty", i)
		case len(s) > MaxStopBytes:
			return invalid("stop", "stop string %d is %d bytes long, at most %d", i, len(s), MaxStopBytes)
		case !utf8.ValidString(s):
			return invalid("stop", "stop string %d is not valid UTF-8", i)
		}
	}
	return nil
}

// Budget returns how many tokens the request may generate after a prompt of
// promptLen tokens in a context of contextLen: the room left, capped by
// MaxTokens when set. A max_tokens beyond the context is capped, not refused,
// and the sequence then ends for length. A prompt that fills the context is
// an error naming both sizes.
func (p Params) Budget(promptLen, contextLen int) (int, error) {
	room := contextLen - promptLen
	if promptLen < 0 || room <= 0 {
		return 0, invalid("prompt", "%d tokens leave no room in a context of %d", promptLen, contextLen)
	}
	if p.MaxTokens > 0 && p.MaxTokens < room {
		return p.MaxTokens, nil
	}
	return room, nil
}
