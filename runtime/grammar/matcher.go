package grammar

import (
	"fmt"
	"math"
	"math/bits"
)

// Matcher follows one generation through a grammar: it gives the mask of
// the tokens allowed next and advances by the token chosen. Its methods
// are not safe for concurrent use; clones may be used from different
// goroutines (they share caches under a lock).
type Matcher struct {
	m    *machine
	gen  int   // m.gen when cur was interned
	cur  int32 // current state
	snap snapshot
	done bool
}

// snapshot is a state in a form that survives a reset of the caches.
type snapshot struct {
	p      partial
	stacks []int32 // per stack: its length, then its positions, top first
}

// NewMatcher starts matching the grammar's root rule over the vocabulary.
// The matchers of one grammar and vocabulary share memoized states,
// transitions and masks (the machines of the last few grammars are kept),
// so a request with a schema seen before pays far less per token.
func NewMatcher(g *Grammar, v *Vocab) (*Matcher, error) {
	mc := sharedMachine(g, v)
	mc.mu.Lock()
	defer mc.mu.Unlock()
	id, err := mc.start()
	if err != nil {
		return nil, err
	}
	x := &Matcher{m: mc}
	x.set(id)
	return x, nil
}

// set makes id the current state and records its snapshot.
func (x *Matcher) set(id int32) {
	x.cur, x.gen = id, x.m.gen
	s := &x.m.st[id]
	x.snap.p = s.p
	x.snap.stacks = x.snap.stacks[:0]
	for _, t := range s.stacks {
		ps := x.m.materialize(t)
		x.snap.stacks = append(x.snap.stacks, int32(len(ps)))
		x.snap.stacks = append(x.snap.stacks, ps...)
	}
}

// state returns the current state id, rebuilding it when the shared caches
// were reset since it was set. The machine lock must be held.
func (x *Matcher) state() int32 {
	if x.m.full() {
		x.m.reset()
	}
	if x.gen == x.m.gen {
		return x.cur
	}
	var stacks []int32
	for i := 0; i < len(x.snap.stacks); {
		n := int(x.snap.stacks[i])
		stacks = append(stacks, x.m.rebuild(x.snap.stacks[i+1:i+1+n]))
		i += 1 + n
	}
	sortInt32(stacks)
	x.cur, x.gen = x.m.internState(x.snap.p, stacks), x.m.gen
	return x.cur
}

// Clone returns an independent matcher at the same point, sharing the
// grammar, vocabulary and caches (for n > 1 choices or beams). A matcher
// kept at the start and cloned for each request lets requests with the
// same grammar share memoized states and masks.
func (x *Matcher) Clone() *Matcher {
	c := *x
	c.snap.stacks = append([]int32(nil), x.snap.stacks...)
	return &c
}

// Accepting reports whether the text so far is a complete match.
func (x *Matcher) Accepting() bool {
	x.m.mu.Lock()
	defer x.m.mu.Unlock()
	return x.m.st[x.state()].accepting()
}

// Done reports whether generation must end: an end-of-generation token was
// accepted, or the text is complete and the grammar allows nothing more.
func (x *Matcher) Done() bool {
	if x.done {
		return true
	}
	x.m.mu.Lock()
	defer x.m.mu.Unlock()
	s := x.m.st[x.state()]
	return len(s.stacks) == 1 && s.stacks[0] == 0
}

// Mask writes the allowed tokens into bits (bit id%64 of word id/64), which
// must hold Vocab.Words() words. End-of-generation tokens are allowed only
// when the text is a complete match; nothing is allowed after one.
func (x *Matcher) Mask(bits []uint64) error {
	v := x.m.v
	if len(bits) < v.words {
		return fmt.Errorf("%w: %d words for %d tokens", ErrMaskSize, len(bits), len(v.pieces))
	}
	clear(bits[:v.words])
	if x.done {
		return nil
	}
	x.m.mu.Lock()
	defer x.m.mu.Unlock()
	return x.m.fill(bits, x.state())
}

// Allowed writes into dst[id] whether each token is allowed; dst must hold
// Vocab.Size() entries.
func (x *Matcher) Allowed(dst []bool) error {
	v := x.m.v
	if len(dst) < len(v.pieces) {
		return fmt.Errorf("%w: %d entries for %d tokens", ErrMaskSize, len(dst), len(v.pieces))
	}
	bits := make([]uint64, v.words)
	if err := x.Mask(bits); err != nil {
		return err
	}
	for i := range v.pieces {
		dst[i] = bits[i>>6]&(1<<(i&63)) != 0
	}
	return nil
}

// MaskLogits sets the logits of disallowed tokens to -Inf; scratch, when it
// holds Vocab.Words() words, avoids an allocation.
func (x *Matcher) MaskLogits(logits []float32, scratch []uint64) error {
	v := x.m.v
	if len(scratch) < v.words {
		scratch = make([]uint64, v.words)
	}
	if err := x.Mask(scratch); err != nil {
		return err
	}
	applyMask(logits, scratch[:v.words], len(v.pieces))
	return nil
}

// maskWord sets to -Inf the logits of a word whose bit is clear, visiting
// only the clear bits, or (when fewer are set) keeping the set ones aside.
func maskWord(logits []float32, word uint64) {
	inf := float32(math.Inf(-1))
	if bits.OnesCount64(word) > 32 {
		for z := ^word; z != 0; z &= z - 1 {
			if i := bits.TrailingZeros64(z); i < len(logits) {
				logits[i] = inf
			}
		}
		return
	}
	var keep [64]float32
	for w := word; w != 0; w &= w - 1 {
		i := bits.TrailingZeros64(w)
		keep[i] = logits[i]
	}
	copy(logits, negInf[:])
	for w := word; w != 0; w &= w - 1 {
		i := bits.TrailingZeros64(w)
		logits[i] = keep[i]
	}
}

// negInf is a word of 64 refused logits.
var negInf = func() (b [64]float32) {
	for i := range b {
		b[i] = float32(math.Inf(-1))
	}
	return b
}()

// applyMask sets to -Inf the logits whose bit is clear and those past the
// n tokens of the vocabulary, a word of 64 tokens at a time where it can.
func applyMask(logits []float32, bits []uint64, n int) {
	inf := float32(math.Inf(-1))
	n = min(n, len(logits))
	for w, word := range bits {
		lo := w * 64
		if lo >= n {
			break
		}
		hi := min(lo+64, n)
		switch word {
		case ^uint64(0):
		case 0:
			copy(logits[lo:hi], negInf[:])
		default:
			maskWord(logits[lo:hi], word)
		}
	}
	for i := n; i < len(logits); i++ {
		logits[i] = inf
	}
}
