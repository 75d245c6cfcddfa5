package runtime

import (
	"fmt"
	"math"
)

// BeamSearch asks for a deterministic beam search instead of sampling: at
// every step the Width most probable continuations of the beams are kept,
// and the N best finished hypotheses are returned in Result.Beams. The
// sampling parameters (temperature, top-p, penalties, seed) do not apply;
// max_tokens, min_tokens, stop strings, stop token ids, ignore_eos and the
// logprobs wishes do. A beam search emits no events. Its beams take a
// cache block each beyond the prompt's shared full blocks; when the cache
// runs out of blocks the beams end there, for length.
type BeamSearch struct {
	// Width is how many beams are kept at each step (1 is greedy search).
	Width int
	// N is how many hypotheses are returned, best first: 1 to Width; 0
	// means 1.
	N int
	// LengthPenalty is the exponent of the length in a hypothesis's
	// score: its cumulative log-probability divided by length^LengthPenalty
	// (as Hugging Face's beam search; 1 there by default). Above 0 favours
	// longer hypotheses, below 0 shorter ones; 0 ranks by the sum alone.
	LengthPenalty float64
	// EarlyStopping says when a group of beams is finished; see the
	// constants.
	EarlyStopping EarlyStopping
	// Groups splits the beams into groups of Width/Groups that each run
	// their own search (diverse beam search); 0 or 1 means one group.
	Groups int
	// DiversityPenalty is subtracted from the log-probability of a token,
	// once for every beam of an earlier group that chose it at the same
	// step (Hamming diversity). It counts in the ranking, not in the
	// log-probabilities reported.
	DiversityPenalty float64
}

// EarlyStopping is the stopping rule of a beam search, as Hugging Face's
// early_stopping.
type EarlyStopping int8

// The stopping rules.
const (
	// StopHeuristic (early_stopping=false) stops a group once no beam can
	// still beat its worst kept hypothesis, judged at the current length.
	StopHeuristic EarlyStopping = iota
	// StopEarly (early_stopping=true) stops a group as soon as it holds as
	// many finished hypotheses as beams.
	StopEarly
	// StopNever (early_stopping="never") stops a group only when no beam
	// can beat its worst hypothesis even at the longest length allowed.
	StopNever
)

// Beam is one finished hypothesis of a beam search.
type Beam struct {
	Tokens   []int32   // generated, the stop token left out
	Text     string    // their text, cut at a stop string
	Logprobs []Logprob // one per token, when Params.Logprobs is set
	// Logprob is the sum of the log-probabilities of the generated
	// tokens, the stop token included; Score ranks the hypotheses: that
	// sum less the diversity penalties, divided by length^LengthPenalty,
	// where the length counts the stop token.
	Logprob, Score float64
	Finish         FinishReason
	StopString     string // the stop string that ended it, if one did
	StopToken      int32  // the EOS or stop token that ended it, else -1
}

// checkBeam validates the beam search of req against what one forward
// pass of the engine can hold (every beam is a row of logits).
func (e *Engine) checkBeam(req *Request) error {
	b := req.Beam
	if b == nil {
		return nil
	}
	most := min(e.state.MaxOut(), e.state.MaxRows()) - 1
	groups := max(b.Groups, 1)
	switch {
	case e.model.StateElems() > 0:
		return fmt.Errorf("%w: beam search on %s: its linear-attention layers keep one recurrent state per sequence, which beams cannot share", ErrInvalidRequest, e.cfg.Arch)
	case b.Width < 1 || b.Width > most:
		return fmt.Errorf("%w: beam width %d: this engine runs 1 to %d beams (logit rows of one forward pass)", ErrInvalidRequest, b.Width, most)
	case b.N < 0 || b.N > b.Width:
		return fmt.Errorf("%w: %d beams returned: at most the beam width, %d", ErrInvalidRequest, b.N, b.Width)
	case b.Width%groups != 0:
		return fmt.Errorf("%w: %d beam groups do not divide the beam width %d", ErrInvalidRequest, groups, b.Width)
	case math.IsNaN(b.LengthPenalty) || math.IsInf(b.LengthPenalty, 0):
		return fmt.Errorf("%w: length penalty %g is not a finite number", ErrInvalidRequest, b.LengthPenalty)
	case math.IsNaN(b.DiversityPenalty) || math.IsInf(b.DiversityPenalty, 0) || b.DiversityPenalty < 0:
		return fmt.Errorf("%w: diversity penalty %g must be a finite number ≥ 0", ErrInvalidRequest, b.DiversityPenalty)
	case b.EarlyStopping < StopHeuristic || b.EarlyStopping > StopNever:
		return fmt.Errorf("%w: early stopping rule %d", ErrInvalidRequest, b.EarlyStopping)
	case req.Constraint != nil:
		return fmt.Errorf("%w: a beam search cannot follow a grammar constraint", ErrInvalidRequest)
	}
	// The beams share the prompt's full blocks and need a block each for
	// the rest.
	if need := len(req.Prompt)/BlockSize + b.Width; need > e.kv.Total() {
		return fmt.Errorf("%w: %d beams after a prompt of %d tokens need at least %d KV cache blocks of %d positions, and the cache holds %d; raise the KV cache memory or lower the beam width",
			ErrContextLength, b.Width, len(req.Prompt), need, BlockSize, e.kv.Total())
	}
	return nil
}
