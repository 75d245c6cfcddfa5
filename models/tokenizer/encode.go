package tokenizer

import (
	"sync"
	"unicode/utf8"
)

// scratch holds the buffers of the merge loop, reused across words.
type scratch struct {
	syms  []int32
	ranks []uint64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// Encode returns the token ids of text. Added and special tokens written in
// the text (such as "<|im_start|>") are matched, as Hugging Face does;
// addSpecial also adds what the post-processor adds (BOS, EOS). Invalid
// UTF-8 is first replaced by U+FFFD, one per maximal invalid sequence.
func (t *Tokenizer) Encode(text string, addSpecial bool) []int32 {
	return t.encode(text, addSpecial, t.added)
}

// EncodePlain is Encode(text, false) with special tokens in the text taken
// as plain text (Hugging Face's split_special_tokens): text from a user
// that contains "<|im_end|>" cannot end a chat turn this way.
func (t *Tokenizer) EncodePlain(text string) []int32 {
	return t.encode(text, false, t.plain)
}

func (t *Tokenizer) encode(text string, addSpecial bool, added addedSet) []int32 {
	if !utf8.ValidString(text) {
		text = lossy(text)
	}
	ids := make([]int32, 0, len(text)/3+len(t.prefix)+len(t.suffix)+1)
	if addSpecial {
		ids = append(ids, t.prefix...)
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	for _, s := range added.raw.split(nil, segment{text: text, id: -1, first: true}) {
		if s.id >= 0 {
			ids = append(ids, int32(s.id))
			continue
		}
		ids = t.encodeSegment(ids, s, added.norm, sc)
	}
	if addSpecial {
		ids = append(ids, t.suffix...)
	}
	return ids
}

// encodeSegment normalizes a text segment, matches the added tokens that
// apply to normalized text, and encodes the rest.
func (t *Tokenizer) encodeSegment(ids []int32, s segment, norm *addedMatcher, sc *scratch) []int32 {
	if t.norm != nil {
		s.text = t.norm.normalize(s.text)
	}
	if norm == nil {
		return t.encodePiece(ids, piece{text: s.text, first: s.first}, sc)
	}
	for _, n := range norm.split(nil, s) {
		if n.id >= 0 {
			ids = append(ids, int32(n.id))
		} else {
			ids = t.encodePiece(ids, piece{text: n.text, first: n.first}, sc)
		}
	}
	return ids
}

// encodePiece runs the pre-tokenizers and the model on one piece.
func (t *Tokenizer) encodePiece(ids []int32, p piece, sc *scratch) []int32 {
	if p.text == "" {
		return ids
	}
	out := &modelSink{m: t.model, ids: ids, sc: sc}
	var head sink = out
	for i := len(t.pre) - 1; i >= 0; i-- {
		head = t.pre[i].stage(head)
	}
	head.push(p)
	return out.ids
}

// modelSink is the end of the pipeline: the BPE model.
type modelSink struct {
	m   *bpe
	ids []int32
	sc  *scratch
}

func (s *modelSink) push(p piece) { s.ids = s.m.encode(s.ids, p.text, s.sc) }
