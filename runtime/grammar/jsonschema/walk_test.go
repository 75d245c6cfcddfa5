package jsonschema

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/grammar/internal/fixturevocab"
)

var vocabs sync.Map // fixture name -> *walkVocab

// walkVocab is a fixture vocabulary with the ids of the tokens a walk
// prefers when it heads for the end.
type walkVocab struct {
	v       *grammar.Vocab
	pieces  []string
	eog     []int
	closers []int // ", }, ] and "," in that order of preference
}

func loadVocab(tb testing.TB, name string) *walkVocab {
	tb.Helper()
	toks := fixturevocab.Load(tb, name)
	if wv, ok := vocabs.Load(name); ok {
		return wv.(*walkVocab)
	}
	wv := &walkVocab{pieces: toks.Pieces, eog: toks.EOG}
	wv.v = grammar.NewVocab(wv.pieces, wv.eog)
	for _, s := range []string{`"`, `}`, `]`, `,`} {
		for id, p := range wv.pieces {
			if p == s {
				wv.closers = append(wv.closers, id)
			}
		}
	}
	vocabs.Store(name, wv)
	return wv
}

// randomWalk generates a text by picking random allowed tokens; after
// warm steps it leans more and more toward the end: an end-of-generation
// token, else a closing quote, brace, bracket or comma.
func randomWalk(m *grammar.Matcher, wv *walkVocab, rng *rand.Rand, warm, maxSteps int) (string, error) {
	var out strings.Builder
	mask := make([]uint64, wv.v.Words())
	for step := 0; step < maxSteps; step++ {
		if m.Done() {
			return out.String(), nil
		}
		if err := m.Mask(mask); err != nil {
			return out.String(), err
		}
		id := -1
		if step > warm && rng.Float64() < float64(step-warm)/20 {
			for _, c := range append(wv.eog, wv.closers...) {
				if mask[c>>6]&(1<<(c&63)) != 0 {
					id = c
					break
				}
			}
		}
		if id < 0 {
			if id = pickBit(mask, rng); id < 0 {
				return out.String(), fmt.Errorf("no token allowed after %q", out.String())
			}
		}
		if err := m.Accept(id); err != nil {
			return out.String(), err
		}
		if !isEOG(wv, id) {
			out.WriteString(wv.pieces[id])
		}
	}
	return out.String(), fmt.Errorf("not done after %d tokens: %q", maxSteps, out.String())
}

func isEOG(wv *walkVocab, id int) bool {
	for _, e := range wv.eog {
		if e == id {
			return true
		}
	}
	return false
}

// pickBit returns a uniformly chosen set bit, or -1.
func pickBit(mask []uint64, rng *rand.Rand) int {
	n := 0
	for _, w := range mask {
		n += bits.OnesCount64(w)
	}
	if n == 0 {
		return -1
	}
	k := rng.IntN(n)
	for i, w := range mask {
		c := bits.OnesCount64(w)
		if k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			w &= w - 1
		}
		return i*64 + bits.TrailingZeros64(w)
	}
	return -1
}
