package tokenizer

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// streamAll feeds ids one by one and returns the deltas.
func streamAll(t *testing.T, d *StreamDecoder, ids []int32) []string {
	t.Helper()
	var out []string
	for _, id := range ids {
		s := d.Next(id)
		if !utf8.ValidString(s) {
			t.Fatalf("delta %q after id %d is not valid UTF-8", s, id)
		}
		out = append(out, s)
	}
	return append(out, d.Flush())
}

func TestStreamMatchesDecode(t *testing.T) {
	text := norm.NFC.String(mixedText(16<<10, 3))
	for name, tok := range roundTripSubjects(t) {
		t.Run(name, func(t *testing.T) {
			for _, in := range append(strings.Split(text, "\n\n"), text) {
				ids := tok.Encode(in, true)
				d := tok.NewStreamDecoder()
				got := strings.Join(streamAll(t, d, ids), "")
				if want := tok.Decode(ids, true); got != want {
					t.Fatalf("stream of %q gave %q, Decode gives %q", short(in), short(got), short(want))
				}
			}
		})
	}
}

// TestStreamHoldsIncompleteUTF8 streams the byte tokens of multi-byte
// characters one at a time: nothing may come out until a character is whole.
func TestStreamHoldsIncompleteUTF8(t *testing.T) {
	for name, tok := range roundTripSubjects(t) {
		t.Run(name, func(t *testing.T) {
			for _, r := range "é中😀👩‍👧" {
				ids := byteIDs(tok, string(r))
				if ids == nil {
					t.Skipf("%s has no single-byte tokens", name)
				}
				d := tok.NewStreamDecoder()
				deltas := streamAll(t, d, ids)
				for i, s := range deltas[:len(deltas)-2] {
					if s != "" {
						t.Fatalf("%q: byte %d already gave %q", string(r), i, s)
					}
				}
				if got := strings.Join(deltas, ""); got != string(r) {
					t.Fatalf("%q streamed as %q", string(r), got)
				}
			}
		})
	}
}

// byteIDs returns one token id per byte of s, using the byte-level rune
// tokens or the <0xXX> tokens, or nil when the vocabulary has neither.
func byteIDs(tok *Tokenizer, s string) []int32 {
	var ids []int32
	for i := 0; i < len(s); i++ {
		id := tok.model.byteToken[s[i]]
		if tok.model.rawBytes {
			id = tok.model.rawByte[s[i]]
		}
		if id < 0 {
			return nil
		}
		ids = append(ids, id)
	}
	return ids
}

// TestPieces checks that the pieces of a sequence's tokens, joined, give
// its decoded text (after the first token, whose leading space a
// SentencePiece decoder drops).
func TestPieces(t *testing.T) {
	text := norm.NFC.String(mixedText(8<<10, 6))
	for name, tok := range roundTripSubjects(t) {
		t.Run(name, func(t *testing.T) {
			for _, in := range strings.Split(text, "\n") {
				ids := tok.Encode(" x"+in, false)
				var b strings.Builder
				for _, id := range ids[1:] {
					b.WriteString(tok.Piece(int(id)))
				}
				whole := tok.Decode(ids, true)
				first := tok.Decode(ids[:1], true)
				if got := lossy(b.String()); first+got != whole {
					t.Fatalf("pieces of %q give %q + %q, Decode gives %q", in, first, got, whole)
				}
			}
			if tok.Piece(-1) != "" || tok.Piece(tok.VocabSize()) != "" {
				t.Error("pieces of unknown ids are not empty")
			}
		})
	}
}

// TestStreamBoundedOnEndlessIncompleteBytes streams byte tokens that never
// end on a character boundary (every 0xE0 starts a character the next one
// breaks): the decoder must keep a bounded number of ids, or each step
// would decode the whole stream again, and still give Decode's text.
func TestStreamBoundedOnEndlessIncompleteBytes(t *testing.T) {
	t.Run("synthetic", func(t *testing.T) {
		tok, err := ParseJSON([]byte(byteVocabJSON("")), nil, "bytes.json")
		if err != nil {
			t.Fatal(err)
		}
		checkStreamBounded(t, tok)
	})
	t.Run("fixtures", func(t *testing.T) {
		for name, tok := range roundTripSubjects(t) {
			t.Run(name, func(t *testing.T) { checkStreamBounded(t, tok) })
		}
	})
}

func checkStreamBounded(t *testing.T, tok *Tokenizer) {
	t.Helper()
	e0 := byteIDs(tok, "\xe0")
	if e0 == nil {
		t.Skip("no single-byte tokens")
	}
	ids := slices.Repeat(e0, 5000)
	ids = append(ids, byteIDs(tok, "é ok \xe0\xa0")...)
	ids = append(ids, slices.Repeat(e0, 100)...)
	d := tok.NewStreamDecoder()
	var b strings.Builder
	for i, id := range ids {
		b.WriteString(d.Next(id))
		if len(d.ids) > 2*maxPending {
			t.Fatalf("after %d ids the decoder holds %d", i+1, len(d.ids))
		}
	}
	b.WriteString(d.Flush())
	got, want := b.String(), tok.Decode(ids, true)
	if !tok.byteLevelDec {
		// Byte fallback turns a whole run of byte tokens that is not valid
		// UTF-8 into U+FFFDs, which a stream cannot match (see
		// StreamDecoder): only the bound and valid UTF-8 are checked.
		if !utf8.ValidString(got) {
			t.Fatalf("stream gave invalid UTF-8 %q", short(got))
		}
		return
	}
	if got != want {
		t.Fatalf("stream gave %d bytes %q, Decode %d bytes %q", len(got), short(got), len(want), short(want))
	}
}
