package tokenizer

import (
	"strings"
	"sync"
)

// Piece returns the bytes that token id adds to decoded text when it
// follows other tokens: for byte-level models the token's bytes, for
// SentencePiece models the text with ▁ as a space and <0xXX> as one byte.
// The result may be an incomplete UTF-8 sequence; it is "" for special
// tokens and unknown ids. Constrained decoding (grammars, JSON schemas)
// matches these against the allowed text.
func (t *Tokenizer) Piece(id int) string {
	if !t.keep(id, true) {
		return ""
	}
	if t.byteLevelDec {
		return t.raw[id]
	}
	t.piecesOnce.Do(t.buildPieces)
	return t.pieces[id]
}

// buildPieces decodes every token after a context token and keeps what it
// adds, so that first-token rules (a stripped leading space) do not apply.
func (t *Tokenizer) buildPieces() {
	ctx := t.contextToken()
	t.pieces = make([]string, len(t.tokens))
	if ctx < 0 {
		for id := range t.tokens {
			t.pieces[id] = t.decodeRaw([]int32{int32(id)}, true, rawBytes)
		}
		return
	}
	base := t.decodeRaw([]int32{int32(ctx)}, true, rawBytes)
	for id := range t.tokens {
		if !t.keep(id, true) {
			continue
		}
		t.pieces[id] = strings.TrimPrefix(t.decodeRaw([]int32{int32(ctx), int32(id)}, true, rawBytes), base)
	}
}

// contextToken returns a plain token to decode others after: "a", or any
// normal token, or -1.
func (t *Tokenizer) contextToken() int {
	for _, s := range []string{"a", "▁a", "Ġa"} {
		if id, ok := t.model.vocab[s]; ok && !t.special[id] {
			return int(id)
		}
	}
	return -1
}

// pieceTable is the lazily built table behind Piece.
type pieceTable struct {
	piecesOnce sync.Once
	pieces     []string
}
