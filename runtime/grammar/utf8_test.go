package grammar

import (
	"testing"
	"unicode/utf8"
)

// TestUTF8Automata checks the matcher's decoder and the trie summary's
// automaton against unicode/utf8 on every sequence of up to three bytes
// and on four-byte sequences with varied first two bytes.
func TestUTF8Automata(t *testing.T) {
	var seqs [][]byte
	for a := range 256 {
		for b := range 256 {
			seqs = append(seqs, []byte{byte(a), byte(b)}, []byte{byte(a), byte(b), 0x80}, []byte{byte(a), byte(b), 0xBF, 0x9A})
		}
	}
	for _, s := range seqs {
		p, st, valid := partial{}, 0, true
		var got []rune
		for _, c := range s {
			np, r, done, ok := p.step(c)
			if st >= 0 {
				st = utf8Next(st, c)
			}
			if !ok {
				valid = false
				break
			}
			if (st == 0) != done {
				t.Fatalf("% x: decoder done=%v, automaton state %d", s, done, st)
			}
			if done {
				got = append(got, r)
			}
			p = np
		}
		if valid != (st >= 0) {
			t.Fatalf("% x: decoder valid=%v, automaton %d", s, valid, st)
		}
		// Compare with the standard decoder on the valid prefix.
		var want []rune
		rest := s
		for len(rest) > 0 && utf8.FullRune(rest) {
			r, n := utf8.DecodeRune(rest)
			if r == utf8.RuneError && n <= 1 {
				break
			}
			want = append(want, r)
			rest = rest[n:]
		}
		if len(got) > len(want) {
			t.Fatalf("% x: decoded %U, standard %U", s, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("% x: decoded %U, standard %U", s, got, want)
			}
		}
		if valid && len(got) != len(want) {
			t.Fatalf("% x: decoded %U, standard %U", s, got, want)
		}
	}
}

// TestPartialSpan checks the code point range of pending prefixes.
func TestPartialSpan(t *testing.T) {
	for _, r := range []rune{0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF, 0x65E5} {
		buf := utf8.AppendRune(nil, r)
		p := partial{}
		for _, c := range buf[:len(buf)-1] {
			p, _, _, _ = p.step(c)
		}
		lo, hi := p.span()
		if r < lo || r > hi || lo < minRune[len(buf)] || hi > maxRune {
			t.Errorf("%U: span %U-%U", r, lo, hi)
		}
	}
}
