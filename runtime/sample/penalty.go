package sample

import (
	"math"
	"slices"
)

// history records the tokens the penalties look at. Each part is kept only
// when its penalty is on.
type history struct {
	// seen: distinct prompt and output tokens (repetition_penalty), with a
	// bitset over the vocabulary for membership.
	seenBits []uint64
	seen     []int32

	// out/count: distinct output tokens and how often each was generated
	// (frequency_penalty, presence_penalty); index maps a token to its slot.
	index map[int32]int32
	out   []int32
	count []int32
}

func (h *history) addSeen(id int32) {
	if h.seenBits == nil {
		return
	}
	word, bit := id/64, uint64(1)<<(id%64)
	if h.seenBits[word]&bit == 0 {
		h.seenBits[word] |= bit
		h.seen = append(h.seen, id)
	}
}

func (h *history) addOutput(id int32) {
	h.addSeen(id)
	if h.index == nil {
		return
	}
	if i, ok := h.index[id]; ok {
		h.count[i]++
		return
	}
	h.index[id] = int32(len(h.out))
	h.out = append(h.out, id)
	h.count = append(h.count, 1)
}

// set writes v at logits[id], first saving the old value so that restore can
// put it back.
func (s *Sampler) set(logits []float32, id int32, v float32) {
	s.saved = append(s.saved, TokenLogit{ID: id, Logit: logits[id]})
	logits[id] = v
}

// patch applies, in this order, the repetition penalty (prompt and output
// tokens: a positive logit is divided by it, a negative one multiplied), the
// frequency and presence penalties (output tokens: logit −= count·frequency +
// presence), the logit bias, and the masks (EOS and stop ids to −Inf before
// min_tokens, EOS always under ignore_eos). It touches only those entries
// and records them for restore.
func (s *Sampler) patch(logits []float32) {
	s.saved = s.saved[:0]
	if rep := float32(s.p.RepetitionPenalty); rep != 1 {
		for _, id := range s.hist.seen {
			if x := logits[id]; x < 0 {
				s.set(logits, id, x*rep)
			} else {
				s.set(logits, id, x/rep)
			}
		}
	}
	freq, pres := float32(s.p.FrequencyPenalty), float32(s.p.PresencePenalty)
	for i, id := range s.hist.out {
		s.set(logits, id, logits[id]-float32(s.hist.count[i])*freq-pres)
	}
	for _, b := range s.bias {
		s.set(logits, b.ID, logits[b.ID]+b.Logit)
	}
	inf := float32(math.Inf(-1))
	early := s.generated < s.p.MinTokens
	if early || s.p.IgnoreEOS {
		for _, id := range s.eos {
			s.set(logits, id, inf)
		}
	}
	if early {
		for _, id := range s.stopIDs {
			s.set(logits, id, inf)
		}
	}
}

// restore undoes patch, newest change first, so that an entry changed twice
// gets its original value back.
func (s *Sampler) restore(logits []float32) {
	for _, t := range slices.Backward(s.saved) {
		logits[t.ID] = t.Logit
	}
}
