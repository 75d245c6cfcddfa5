package config

import (
	"fmt"
	"math"
)

// Range is the interval a sampling parameter lies in.
type Range struct {
	Lo, Hi float64
	LoOpen bool // Lo itself is outside
}

// Contains reports whether v is a number in the range.
func (r Range) Contains(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < r.Lo || v > r.Hi {
		return false
	}
	return !r.LoOpen || v > r.Lo
}

// String writes the range as an interval, "[0, 2]", or "> 0" when it has
// no upper bound.
func (r Range) String() string {
	open := "["
	if r.LoOpen {
		open = "("
	}
	if r.Hi == math.MaxFloat64 {
		if r.LoOpen {
			return fmt.Sprintf("> %g", r.Lo)
		}
		return fmt.Sprintf("≥ %g", r.Lo)
	}
	return fmt.Sprintf("%s%g, %g]", open, r.Lo, r.Hi)
}

// samplingRanges are the ranges of the sampling parameters by their API
// names: the one table that generation_config.json, the sampler and the
// HTTP APIs are checked against.
var samplingRanges = map[string]Range{
	"temperature":        {Lo: 0, Hi: 2},
	"top_p":              {Lo: 0, Hi: 1, LoOpen: true},
	"min_p":              {Lo: 0, Hi: 1},
	"typical_p":          {Lo: 0, Hi: 1, LoOpen: true},
	"repetition_penalty": {Lo: 0, Hi: math.MaxFloat64, LoOpen: true},
	"frequency_penalty":  {Lo: -2, Hi: 2},
	"presence_penalty":   {Lo: -2, Hi: 2},
}

// SamplingRange returns the range of the sampling parameter name
// (temperature, top_p, min_p, typical_p, repetition_penalty,
// frequency_penalty, presence_penalty); ok is false for another name.
func SamplingRange(name string) (r Range, ok bool) {
	r, ok = samplingRanges[name]
	return r, ok
}
