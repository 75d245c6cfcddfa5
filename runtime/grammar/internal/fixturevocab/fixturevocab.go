// Package fixturevocab loads the real tokenizers of the test fixtures for
// the grammar tests and benchmarks, once per test binary.
package fixturevocab

import (
	"sync"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/tokenizer"
)

// Tokens is a fixture tokenizer with the text of each token.
type Tokens struct {
	Tok    *tokenizer.Tokenizer
	Pieces []string // Tok.Piece of every id
	EOG    []int    // end-of-generation ids
}

var loaded sync.Map // name -> *Tokens

// Load returns the tokenizer of testdata/tokenizers/name (skipping the
// test when the fixtures are absent).
func Load(tb testing.TB, name string) *Tokens {
	tb.Helper()
	path := fixture.Path(tb, "tokenizers", name, "tokenizer.json")
	if t, ok := loaded.Load(name); ok {
		return t.(*Tokens)
	}
	tok, err := tokenizer.Load(path)
	if err != nil {
		tb.Fatalf("load %s: %v", path, err)
	}
	t := &Tokens{Tok: tok, Pieces: make([]string, tok.VocabSize()), EOG: tok.EOG()}
	for i := range t.Pieces {
		t.Pieces[i] = tok.Piece(i)
	}
	loaded.Store(name, t)
	return t
}
