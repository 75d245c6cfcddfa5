package server

import (
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
)

// beamSearch returns the runtime's beam search of a request asking for
// one, with width beams returning n; nil otherwise.
func beamSearch(b *openai.BeamParams, width, n int) *runtime.BeamSearch {
	if !b.Beam() {
		return nil
	}
	bs := &runtime.BeamSearch{Width: width, N: n, LengthPenalty: b.LengthPenaltyValue(), Groups: b.Groups()}
	switch b.EarlyStopping {
	case "true":
		bs.EarlyStopping = runtime.StopEarly
	case "never":
		bs.EarlyStopping = runtime.StopNever
	}
	if b.DiversityPenalty != nil {
		bs.DiversityPenalty = *b.DiversityPenalty
	}
	return bs
}

// beamRequests turns reqs, the sequences of a request, into one beam
// search per prompt: reqs holds per prompts of each prompt, alike but for
// the seed.
func beamRequests(reqs []runtime.Request, per int, bs *runtime.BeamSearch) []runtime.Request {
	var out []runtime.Request
	for i := 0; i < len(reqs); i += per {
		r := reqs[i]
		r.Beam = bs
		r.Params.Seed = nil
		out = append(out, r)
	}
	return out
}

// fanBeams replays the hypotheses of a finished beam search as the
// streams of its choices: for the k-th best, one event with its whole
// text and the result it ended with.
func fanBeams(res runtime.Result, n int, fn func(k int, ev runtime.Event, res runtime.Result) error) error {
	for k := range n {
		r := res
		r.Beams = nil
		var ev runtime.Event
		if k < len(res.Beams) {
			b := res.Beams[k]
			ev = runtime.Event{Tokens: b.Tokens, Text: b.Text, Logprobs: b.Logprobs}
			r.Finish, r.StopString, r.StopToken = b.Finish, b.StopString, b.StopToken
			r.Usage.Completion = len(b.Tokens)
			if b.StopToken >= 0 {
				r.Usage.Completion++
			}
		} else {
			r.Usage.Completion = 0
		}
		if k > 0 {
			r.Usage.Cached = 0 // counted once, with the first choice
		}
		if err := fn(k, ev, r); err != nil {
			return err
		}
	}
	return nil
}

// errBeamConstraint refuses a beam search under a grammar.
var errBeamConstraint = planErr(keyBeam, openai.CodeUnsupported,
	"use_beam_search cannot be combined with response_format, grammar or forced tool calls: a beam search does not follow a grammar.")
