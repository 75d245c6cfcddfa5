package sample

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// ErrLogits is wrapped by Sample's errors about the logits it is given.
var ErrLogits = errors.New("bad logits")

// MaxVocab bounds the vocabulary size New accepts.
const MaxVocab = 1 << 24

// pcgStream is the second PCG seed word; the first is the request's seed.
const pcgStream = 0x9e3779b97f4a7c15

// TokenSet is a small set of token ids (EOS ids, stop token ids).
type TokenSet []int32

// NewTokenSet returns the set of ids, without duplicates.
func NewTokenSet(ids ...int32) TokenSet {
	s := slices.Clone(ids)
	slices.Sort(s)
	return slices.Compact(s)
}

// Has reports whether id is in the set.
func (s TokenSet) Has(id int32) bool { return slices.Contains(s, id) }

// Result is one sampled token.
type Result struct {
	Token int32
	// Logprob is the log-probability of Token and Top the TopLogprobs most
	// probable tokens, most probable first, both from the log-softmax of the
	// logits as the model produced them, before penalties, bias, masks,
	// filters and temperature (the OpenAI convention). They are set only when
	// Params.Logprobs is; Top is reused by the next Sample call.
	Logprob float32
	Top     []TokenLogprob
}

// Sampler picks the tokens of one sequence. It is not safe for concurrent
// use; it keeps its buffers between calls, so Sample does not allocate once
// they have grown.
type Sampler struct {
	p         Params
	vocab     int
	seed      int64
	rng       *rand.Rand
	eos       TokenSet
	stopIDs   TokenSet
	bias      []TokenLogit // clamped, by id
	hist      history
	generated int

	saved  []TokenLogit // entries changed by patch
	cand   []TokenLogit
	w      []float64
	typ    []scored
	probs  []float32 // vocabulary-sized, allocated on first use
	sums   []float64 // sums of probs per block
	top    []TokenLogprob
	topSel []TokenLogit
	keys   []uint64 // scratch of the key sort of long candidate lists
}

// New returns a sampler for a model with vocab tokens whose end-of-sequence
// ids are eos. It validates p, and the token ids of logit_bias and
// stop_token_ids against the vocabulary.
func New(p Params, vocab int, eos []int32) (*Sampler, error) {
	if vocab <= 0 || vocab > MaxVocab {
		return nil, fmt.Errorf("%w: vocabulary size %d is not in [1, %d]", ErrInvalid, vocab, MaxVocab)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	inVocab := func(id int32) bool { return id >= 0 && int(id) < vocab }
	for _, id := range eos {
		if !inVocab(id) {
			return nil, fmt.Errorf("%w: EOS token id %d is outside the vocabulary of %d", ErrInvalid, id, vocab)
		}
	}
	for _, id := range p.StopTokenIDs {
		if !inVocab(id) {
			return nil, invalid("stop_token_ids", "token id %d is outside the vocabulary of %d", id, vocab)
		}
	}
	s := &Sampler{p: p, vocab: vocab, eos: NewTokenSet(eos...), stopIDs: NewTokenSet(p.StopTokenIDs...)}
	for id, b := range p.LogitBias {
		if !inVocab(id) {
			return nil, invalid("logit_bias", "token id %d is outside the vocabulary of %d", id, vocab)
		}
		s.bias = append(s.bias, TokenLogit{ID: id, Logit: float32(min(max(b, -MaxLogitBias), MaxLogitBias))})
	}
	slices.SortFunc(s.bias, func(a, b TokenLogit) int { return int(a.ID - b.ID) })
	if p.RepetitionPenalty != 1 {
		s.hist.seenBits = make([]uint64, (vocab+63)/64)
	}
	if p.FrequencyPenalty != 0 || p.PresencePenalty != 0 {
		s.hist.index = make(map[int32]int32)
	}
	if p.Seed != nil {
		s.seed = *p.Seed
	} else {
		s.seed = rand.Int64()
	}
	s.rng = rand.New(rand.NewPCG(uint64(s.seed), pcgStream))
	return s, nil
}

// Seed returns the seed of the sampler's random numbers: Params.Seed, or the
// one drawn at random when it was nil. A request repeated with it samples
// the same tokens from the same logits.
func (s *Sampler) Seed() int64 { return s.seed }

// Generated returns how many tokens Sample has picked.
func (s *Sampler) Generated() int { return s.generated }

// IsStop reports whether token id ends the sequence: an EOS id (unless
// ignore_eos) or one of stop_token_ids.
func (s *Sampler) IsStop(id int32) bool {
	return (!s.p.IgnoreEOS && s.eos.Has(id)) || s.stopIDs.Has(id)
}

// AddPrompt records prompt tokens for the repetition penalty. Ids outside
// the vocabulary are an error.
func (s *Sampler) AddPrompt(ids []int32) error {
	for i, id := range ids {
		if id < 0 || int(id) >= s.vocab {
			return invalid("prompt", "token %d: id %d is outside the vocabulary of %d", i, id, s.vocab)
		}
		s.hist.addSeen(id)
	}
	return nil
}

// Sample picks the next token from logits (one per vocabulary entry) and
// records it for the penalties and min_tokens. logits is changed during the
// call and restored before it returns.
func (s *Sampler) Sample(logits []float32) (Result, error) {
	if len(logits) != s.vocab {
		return Result{}, fmt.Errorf("%w: %d logits for a vocabulary of %d", ErrLogits, len(logits), s.vocab)
	}
	s.patch(logits)
	id, err := s.choose(logits)
	s.restore(logits)
	if err != nil {
		return Result{}, err
	}
	res := Result{Token: id}
	if s.p.Logprobs {
		res.Logprob, s.top, s.topSel = logprobs(logits, id, s.p.TopLogprobs, s.top, s.topSel)
		res.Top = s.top
	}
	s.hist.addOutput(id)
	s.generated++
	return res, nil
}
