package openai

import (
	"encoding/json"
	"math"
)

// Limits of the beam search extensions.
const (
	MaxLengthPenalty    = 10  // |length_penalty|
	MaxDiversityPenalty = 100 // diversity_penalty
)

// BeamParams are the beam search extensions of vLLM and Hugging Face that
// chat completions and completions accept: use_beam_search turns it on,
// with best_of (or n) beams; the others shape it and are ignored without
// it.
type BeamParams struct {
	UseBeamSearch    *bool           `json:"use_beam_search"`
	LengthPenalty    *float64        `json:"length_penalty"`
	EarlyStoppingRaw json.RawMessage `json:"early_stopping"`
	NumBeamGroups    *int            `json:"num_beam_groups"`
	DiversityPenalty *float64        `json:"diversity_penalty"`

	// EarlyStopping is early_stopping: "true", "false" (the default) or
	// "never" (filled by validation).
	EarlyStopping string `json:"-"`
}

// Beam reports whether the request asks for a beam search.
func (b *BeamParams) Beam() bool { return Flag(b.UseBeamSearch, false) }

// LengthPenaltyValue returns length_penalty, 1 when unset (as Hugging
// Face).
func (b *BeamParams) LengthPenaltyValue() float64 {
	if b.LengthPenalty == nil {
		return 1
	}
	return *b.LengthPenalty
}

// Groups returns num_beam_groups, 1 when unset.
func (b *BeamParams) Groups() int {
	if b.NumBeamGroups == nil {
		return 1
	}
	return *b.NumBeamGroups
}

// validateBeam checks the beam search fields of a request of width beams
// (best_of, else n) that returns n; stream refuses a beam search.
func (b *BeamParams) validateBeam(width int, stream bool) *Error {
	if b.LengthPenalty != nil && (math.IsNaN(*b.LengthPenalty) || math.Abs(*b.LengthPenalty) > MaxLengthPenalty) {
		return Invalid("length_penalty", CodeInvalidValue, "length_penalty must be between %d and %d, got %g.", -MaxLengthPenalty, MaxLengthPenalty, *b.LengthPenalty)
	}
	if e := inRange("diversity_penalty", b.DiversityPenalty, 0, MaxDiversityPenalty); e != nil {
		return e
	}
	if b.NumBeamGroups != nil && (*b.NumBeamGroups < 1 || *b.NumBeamGroups > MaxBestOf) {
		return Invalid("num_beam_groups", CodeInvalidValue, "num_beam_groups must be between 1 and %d, got %d.", MaxBestOf, *b.NumBeamGroups)
	}
	switch string(b.EarlyStoppingRaw) {
	case "", "null", "false":
		b.EarlyStopping = "false"
	case "true":
		b.EarlyStopping = "true"
	case `"never"`:
		b.EarlyStopping = "never"
	default:
		return Invalid("early_stopping", CodeInvalidValue, "early_stopping must be true, false or \"never\", got %s.", b.EarlyStoppingRaw)
	}
	if !b.Beam() {
		return nil
	}
	switch {
	case width > MaxBestOf:
		return Invalid("best_of", CodeInvalidValue, "a beam search runs at most %d beams (best_of, else n), got %d.", MaxBestOf, width)
	case stream:
		return Invalid("use_beam_search", CodeUnsupported, "use_beam_search cannot be used with stream: the best beams are known only at the end.")
	case width%b.Groups() != 0:
		return Invalid("num_beam_groups", CodeInvalidValue, "num_beam_groups (%d) must divide the number of beams (best_of, else n: %d).", b.Groups(), width)
	case b.DiversityPenalty != nil && *b.DiversityPenalty > 0 && b.Groups() < 2:
		return Invalid("diversity_penalty", CodeInvalidValue, "diversity_penalty needs num_beam_groups of 2 or more: it penalizes the tokens earlier groups chose.")
	}
	return nil
}
