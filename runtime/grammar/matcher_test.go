package grammar

import (
	"errors"
	"strings"
	"testing"
)

// byteVocab has every single byte, a few longer pieces, a special token
// with no text and an end-of-generation token.
func byteVocab() (*Vocab, []string) {
	var pieces []string
	for b := range 256 {
		pieces = append(pieces, string([]byte{byte(b)}))
	}
	pieces = append(pieces, "ab", "abc", "é", "\xc3", "\xa9x", "日本", "\xe6\x97", "\xa5", "", "")
	eog := len(pieces) - 1
	return NewVocab(pieces, []int{eog}), pieces
}

func allowedSet(t *testing.T, m *Matcher, pieces []string) map[int]bool {
	t.Helper()
	bits := make([]uint64, (len(pieces)+63)/64)
	if err := m.Mask(bits); err != nil {
		t.Fatalf("mask: %v", err)
	}
	out := map[int]bool{}
	for i := range pieces {
		if bits[i>>6]&(1<<(i&63)) != 0 {
			out[i] = true
		}
	}
	return out
}

// TestMaskMatchesAccept checks every token of the mask against Accept on
// a clone, after several prefixes.
func TestMaskMatchesAccept(t *testing.T) {
	v, pieces := byteVocab()
	tests := []struct{ name, src, prefix string }{
		{"start", `root ::= "ab" [c-e]+ | "é" "x"`, ""},
		{"split utf8", `root ::= "é" "x"`, "\xc3"},
		{"cjk", `root ::= [^a-z]* "z"`, "日"},
		{"in loop", `root ::= "\"" [^"]* "\""`, `"abc`},
		{"after loop", `root ::= "\"" [^"]* "\"" "!"?`, `"abc"`},
		{"json", jsonGBNF, `{"a": [1, "x`},
		{"nested", `root ::= "[" ( root ( "," root )* )? "]"`, "[[[["},
		{"bounded", `root ::= "\"" [a-z日本]{0,5} "\""`, `"ab`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mustMatcher(t, mustParse(t, tt.src), v, tt.prefix)
			got := allowedSet(t, m, pieces)
			for id := range pieces {
				err := m.Clone().Accept(id)
				if (err == nil) != got[id] {
					t.Errorf("token %d %q: mask %v, Accept error %v", id, pieces[id], got[id], err)
				}
			}
		})
	}
}

func TestSpecialAndEOG(t *testing.T) {
	v, pieces := byteVocab()
	special, eog := len(pieces)-2, len(pieces)-1
	m := mustMatcher(t, mustParse(t, `root ::= "a" "b"?`), v, "")
	if allowedSet(t, m, pieces)[eog] {
		t.Error("EOG allowed before the text is complete")
	}
	if err := m.Accept(eog); !errors.Is(err, ErrRejected) {
		t.Errorf("Accept(EOG) early = %v, want ErrRejected", err)
	}
	if err := m.Accept('a'); err != nil {
		t.Fatal(err)
	}
	set := allowedSet(t, m, pieces)
	if !set[eog] || set[special] || !set['b'] {
		t.Errorf("after a: EOG %v, special %v, b %v; want true, false, true", set[eog], set[special], set['b'])
	}
	if m.Done() {
		t.Error("Done before the end")
	}
	if err := m.Accept(special); !errors.Is(err, ErrRejected) {
		t.Errorf("Accept(special) = %v, want ErrRejected", err)
	}
	if err := m.Accept('b'); err != nil {
		t.Fatal(err)
	}
	if !m.Done() {
		t.Error("not Done when nothing more is allowed")
	}
	if err := m.Accept(eog); err != nil {
		t.Fatal(err)
	}
	if len(allowedSet(t, m, pieces)) != 0 {
		t.Error("tokens allowed after EOG")
	}
	if err := m.Accept('a'); !errors.Is(err, ErrRejected) {
		t.Errorf("Accept after EOG = %v, want ErrRejected", err)
	}
}

func TestCloneIndependent(t *testing.T) {
	v, _ := byteVocab()
	m := mustMatcher(t, mustParse(t, `root ::= "a" ("b" | "c")`), v, "a")
	c := m.Clone()
	if err := m.Accept('b'); err != nil {
		t.Fatal(err)
	}
	if err := c.Accept('c'); err != nil {
		t.Fatalf("clone should still take c: %v", err)
	}
	if !m.Accepting() || !c.Accepting() {
		t.Error("both should accept")
	}
}

func TestRejectLeavesState(t *testing.T) {
	v, _ := byteVocab()
	m := mustMatcher(t, mustParse(t, `root ::= "abc"`), v, "a")
	if err := m.Accept('x'); !errors.Is(err, ErrRejected) {
		t.Fatalf("got %v", err)
	}
	if err := m.AcceptString("bc"); err != nil {
		t.Fatalf("state changed by a rejected token: %v", err)
	}
	for _, id := range []int{-1, 1 << 20} {
		if err := m.Accept(id); !errors.Is(err, ErrRejected) {
			t.Errorf("Accept(%d) = %v", id, err)
		}
	}
}

func TestMaskSize(t *testing.T) {
	v, pieces := byteVocab()
	m := mustMatcher(t, mustParse(t, `root ::= "a"`), v, "")
	if err := m.Mask(make([]uint64, 1)); !errors.Is(err, ErrMaskSize) {
		t.Errorf("Mask = %v", err)
	}
	if err := m.Allowed(make([]bool, 3)); !errors.Is(err, ErrMaskSize) {
		t.Errorf("Allowed = %v", err)
	}
	dst := make([]bool, len(pieces))
	if err := m.Allowed(dst); err != nil || !dst['a'] || dst['b'] {
		t.Errorf("Allowed: err %v, a %v, b %v", err, dst['a'], dst['b'])
	}
	logits := make([]float32, len(pieces))
	if err := m.MaskLogits(logits, nil); err != nil {
		t.Fatal(err)
	}
	if logits['a'] != 0 || logits['b'] > -1e30 {
		t.Errorf("MaskLogits: a %v, b %v", logits['a'], logits['b'])
	}
}

// TestHostileGrammars checks that ambiguous or deep grammars end with
// ErrTooComplex (or a plain rejection) within the bounds.
func TestHostileGrammars(t *testing.T) {
	v, _ := byteVocab()
	tests := []struct{ name, src, input string }{
		{"nullable nest", `root ::= ("a" | "b"{0,4000}){0,4000}`, "bbbb"},
		{"ambiguous", `root ::= x{0,4000}
x ::= "a" | "a" "a" | "a" "a" "a" | "a" "a" "a" "a"`, strings.Repeat("a", 200)},
		{"deep", `root ::= "(" root ")" | "x"`, strings.Repeat("(", maxDepth+10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustParse(t, tt.src)
			m, err := NewMatcher(g, v)
			if err == nil {
				err = m.AcceptString(tt.input)
			}
			if err != nil && !errors.Is(err, ErrTooComplex) && !errors.Is(err, ErrRejected) {
				t.Fatalf("unexpected error %v", err)
			}
			t.Logf("%s: %v", tt.name, err)
		})
	}
}
