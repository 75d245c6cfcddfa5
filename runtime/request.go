package runtime

import (
	"errors"
	"time"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/sample"
)

// Errors returned (wrapped) by the engine.
var (
	// ErrContextLength reports a prompt that does not fit in the context.
	ErrContextLength = errors.New("prompt exceeds the context length")
	// ErrInvalidRequest reports a request with a bad value (it also wraps
	// sample.ErrInvalid for a sampling parameter).
	ErrInvalidRequest = errors.New("invalid request")
	// ErrOptions reports engine options the model cannot take.
	ErrOptions = errors.New("invalid engine options")
	// ErrBusy reports a full request queue.
	ErrBusy = errors.New("engine busy")
	// ErrClosed reports a call on a closed engine.
	ErrClosed = errors.New("engine closed")
	// ErrModelNotFound reports a model reference that names nothing usable.
	ErrModelNotFound = errors.New("model not found")
	// ErrInvalidModel reports a model file the engine cannot read.
	ErrInvalidModel = errors.New("invalid model")
)

// Request is one generation: a prompt of token ids (the chat template is
// applied before) and how to sample and stop. Params carries the sampling
// parameters, max_tokens, min_tokens, stop strings and stop token ids,
// ignore_eos, include_stop_str_in_output and the logprobs wishes.
type Request struct {
	Prompt []int32
	Params sample.Params
	// KeepSpecial keeps the text of special tokens in the output
	// (skip_special_tokens=false); by default it is dropped.
	KeepSpecial bool
	// Constraint, when set, limits the output to a grammar (GBNF, or a
	// JSON schema through runtime/grammar/jsonschema): tokens it does not
	// allow are masked before sampling, end-of-generation only once the
	// text is complete, and the sequence stops (FinishStop) when the
	// grammar allows nothing more.
	Constraint *grammar.Grammar
	// Spec asks for speculative decoding (see Speculation).
	Spec Speculation
	// Beam, when set, replaces sampling by a beam search whose best
	// hypotheses come in Result.Beams (see BeamSearch).
	Beam *BeamSearch
}

// Event is one step of the stream: the token generated (none in a final
// text-only event) and the text it completes. Text is always whole UTF-8
// characters and never holds part of a stop string.
type Event struct {
	Tokens   []int32
	Text     string
	Logprobs []Logprob // one per token, when Params.Logprobs is set
}

// Logprob is the log-probability of a generated token and the most probable
// alternatives (Params.TopLogprobs of them), from the model's raw logits.
type Logprob struct {
	ID      int32
	Logprob float32
	Top     []sample.TokenLogprob
}

// FinishReason says why a sequence ended.
type FinishReason string

// The finish reasons.
const (
	FinishStop      FinishReason = "stop"      // an EOS or stop token, or a stop string
	FinishLength    FinishReason = "length"    // max_tokens or the end of the context
	FinishCancelled FinishReason = "cancelled" // the context ended or emit failed
)

// Usage counts the tokens of a request.
type Usage struct {
	Prompt     int // prompt tokens
	Completion int // tokens generated, the stop token included
	Cached     int // prompt tokens whose keys and values were reused
}

// Timings measures a request.
type Timings struct {
	Queue   time.Duration // waiting for the scheduler
	TTFT    time.Duration // from the call to the first token
	Prefill time.Duration // computing the prompt's uncached tokens
	Decode  time.Duration // generating the tokens after the first
	// PrefillTokens and DecodeTokens are the tokens those phases computed.
	PrefillTokens, DecodeTokens int
}

// PrefillRate returns prompt tokens computed per second (0 when none).
func (t Timings) PrefillRate() float64 { return rate(t.PrefillTokens, t.Prefill) }

// DecodeRate returns generated tokens per second after the first (0 when none).
func (t Timings) DecodeRate() float64 { return rate(t.DecodeTokens, t.Decode) }

func rate(n int, d time.Duration) float64 {
	if n == 0 || d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Result is how a request ended.
type Result struct {
	Finish  FinishReason
	Usage   Usage
	Timings Timings
	// StopString is the stop string that ended the sequence, if one did;
	// StopToken the EOS or stop token id, else -1.
	StopString string
	StopToken  int32
	// StopLogprob is the log-probability of StopToken, when it is set and
	// Params.Logprobs is (the stop token has no event: this completes the
	// cumulative log-probability of the sequence).
	StopLogprob float32
	// Spec counts the tokens speculative decoding proposed and accepted.
	Spec SpecStats
	// Beams are the best hypotheses of a beam search, best first; Finish
	// and the stop fields are those of the first.
	Beams []Beam
}
