package openai

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/mlxrun/mlx/models/config"
)

// Limits of request values.
const (
	MaxN           = 64  // most choices per request
	MaxStop        = 4   // most stop strings (as OpenAI)
	MaxTopLogprobs = 20  // chat top_logprobs
	MaxCompLogprob = 5   // completions logprobs
	MaxBestOf      = 20  // completions best_of
	MaxLogitBias   = 300 // most logit_bias entries
	MaxStopIDs     = 64  // most stop_token_ids
)

// Sampling holds the fields that chat completions and completions share.
type Sampling struct {
	Model            string             `json:"model"`
	MaxTokens        *int               `json:"max_tokens"`
	Temperature      *float64           `json:"temperature"`
	TopP             *float64           `json:"top_p"`
	N                *int               `json:"n"`
	Stream           bool               `json:"stream"`
	StreamOptions    *StreamOptions     `json:"stream_options"`
	StopRaw          json.RawMessage    `json:"stop"`
	PresencePenalty  *float64           `json:"presence_penalty"`
	FrequencyPenalty *float64           `json:"frequency_penalty"`
	LogitBiasRaw     map[string]float64 `json:"logit_bias"`
	Seed             *int64             `json:"seed"`
	User             string             `json:"user"`

	// Filled by validation.
	Stop      []string          `json:"-"`
	LogitBias map[int32]float64 `json:"-"`
}

// StreamOptions are the options of a streamed response.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
	// ContinuousUsageStats adds the usage so far to every chunk (vLLM).
	ContinuousUsageStats bool `json:"continuous_usage_stats"`
}

// Choices returns n, 1 when unset.
func (s *Sampling) Choices() int {
	if s.N == nil {
		return 1
	}
	return *s.N
}

// ParseBase decodes body into r, a request type embedding s and x, and
// validates the fields they hold: the sampling fields that other APIs'
// completion requests share with OpenAI's (llama-server's /infill).
func ParseBase(body []byte, r any, s *Sampling, x *Ext) *Error { return parseBase(body, r, s, x) }

// parseBase is ParseBase.
func parseBase(body []byte, r any, s *Sampling, x *Ext) *Error {
	if e := decode(body, r, ""); e != nil {
		return e
	}
	if e := parseExt(body, x); e != nil {
		return e
	}
	return s.validate()
}

func (s *Sampling) validate() *Error {
	if s.Model == "" {
		return Invalid("model", CodeMissing, "you must provide a model parameter")
	}
	if s.N != nil && (*s.N < 1 || *s.N > MaxN) {
		return Invalid("n", CodeInvalidValue, "n must be between 1 and %d, got %d.", MaxN, *s.N)
	}
	if s.MaxTokens != nil && *s.MaxTokens < 1 {
		return Invalid("max_tokens", CodeInvalidValue, "max_tokens must be at least 1, got %d.", *s.MaxTokens)
	}
	checks := []struct {
		name string
		v    *float64
	}{
		{"temperature", s.Temperature},
		{"top_p", s.TopP}, // 0 asks for greedy decoding
		{"presence_penalty", s.PresencePenalty},
		{"frequency_penalty", s.FrequencyPenalty},
	}
	for _, c := range checks {
		if e := inSamplingRange(c.name, c.v); e != nil {
			return e
		}
	}
	if s.StreamOptions != nil && !s.Stream {
		return Invalid("stream_options", CodeInvalidValue, "The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	stop, e := parseStop(s.StopRaw)
	if e != nil {
		return e
	}
	s.Stop = stop
	s.LogitBias, e = parseLogitBias(s.LogitBiasRaw)
	return e
}

// inSamplingRange checks a sampling parameter against the one table of
// ranges, config.SamplingRange, with its lower bound allowed: the APIs take
// a top_p or typical_p of 0 as a request for greedy decoding or no filter.
func inSamplingRange(name string, v *float64) *Error {
	r, _ := config.SamplingRange(name)
	return inRange(name, v, r.Lo, r.Hi)
}

func inRange(name string, v *float64, lo, hi float64) *Error {
	if v == nil {
		return nil
	}
	if math.IsNaN(*v) || *v < lo || *v > hi {
		return Invalid(name, CodeInvalidValue, "%s must be between %g and %g, got %g.", name, lo, hi, *v)
	}
	return nil
}

// parseStop reads stop: a string or an array of up to MaxStop strings.
// Empty strings are dropped.
func parseStop(raw json.RawMessage) ([]string, *Error) {
	if isNull(raw) {
		return nil, nil
	}
	var list []string
	switch kind(raw) {
	case "string":
		var s string
		if e := decodeValue(raw, &s, "stop"); e != nil {
			return nil, e
		}
		list = []string{s}
	case "array":
		var items []json.RawMessage
		if e := decodeValue(raw, &items, "stop"); e != nil {
			return nil, e
		}
		for _, it := range items {
			if kind(it) != "string" {
				return nil, Invalid("stop", CodeInvalidType, "stop must be a string or an array of strings.")
			}
		}
		if e := decodeValue(raw, &list, "stop"); e != nil {
			return nil, e
		}
	default:
		return nil, Invalid("stop", CodeInvalidType, "stop must be a string or an array of strings.")
	}
	if len(list) > MaxStop {
		return nil, Invalid("stop", CodeInvalidValue, "stop may hold at most %d sequences, got %d.", MaxStop, len(list))
	}
	out := list[:0]
	for _, s := range list {
		if s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// parseLogitBias checks the keys (token ids) and values (−100…100).
func parseLogitBias(raw map[string]float64) (map[int32]float64, *Error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if len(raw) > MaxLogitBias {
		return nil, Invalid("logit_bias", CodeInvalidValue, "logit_bias may hold at most %d entries, got %d.", MaxLogitBias, len(raw))
	}
	out := make(map[int32]float64, len(raw))
	for k, v := range raw {
		id, err := strconv.ParseInt(k, 10, 32)
		if err != nil || id < 0 {
			return nil, Invalid("logit_bias", CodeInvalidValue, "Invalid key in 'logit_bias': %q is not a token id.", k)
		}
		if math.IsNaN(v) || v < -100 || v > 100 {
			return nil, Invalid("logit_bias", CodeInvalidValue, "Invalid value for 'logit_bias' of token %s: %g is outside [-100, 100].", k, v)
		}
		out[int32(id)] = v
	}
	return out, nil
}
