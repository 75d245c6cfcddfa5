package grammar

import (
	"sync"
	"testing"

	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/grammar/internal/fixturevocab"
)

// jsonGBNF is a generic JSON grammar with bounded whitespace.
const jsonGBNF = `root   ::= object
value  ::= object | array | string | number | ("true" | "false" | "null")
object ::= "{" ws ( string ":" ws value ("," ws string ":" ws value)* )? "}" ws
array  ::= "[" ws ( value ("," ws value)* )? "]" ws
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4}) )* "\"" ws
number ::= ("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})? ws
ws ::= | " " | "\n" [ \t]{0,20}
`

var vocabs sync.Map // fixture name -> *testVocab

type testVocab struct {
	tok *tokenizer.Tokenizer
	v   *Vocab
}

// loadVocab builds the Vocab of a fixture tokenizer once per test binary.
func loadVocab(tb testing.TB, name string) *testVocab {
	tb.Helper()
	toks := fixturevocab.Load(tb, name)
	if tv, ok := vocabs.Load(name); ok {
		return tv.(*testVocab)
	}
	tv := &testVocab{tok: toks.Tok, v: NewVocab(toks.Pieces, toks.EOG)}
	vocabs.Store(name, tv)
	return tv
}

// mustParse parses a grammar or fails the test.
func mustParse(tb testing.TB, src string) *Grammar {
	tb.Helper()
	g, err := Parse(src)
	if err != nil {
		tb.Fatalf("parse: %v", err)
	}
	return g
}

// mustMatcher starts a matcher and feeds it a prefix.
func mustMatcher(tb testing.TB, g *Grammar, v *Vocab, prefix string) *Matcher {
	tb.Helper()
	m, err := NewMatcher(g, v)
	if err != nil {
		tb.Fatalf("matcher: %v", err)
	}
	if err := m.AcceptString(prefix); err != nil {
		tb.Fatalf("prefix %q: %v", prefix, err)
	}
	return m
}

// countBits counts the allowed tokens of a mask.
func countBits(bits []uint64) int {
	n := 0
	for _, w := range bits {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}
