package tokenizer

import (
	"fmt"
	"slices"
)

// spec is everything a Tokenizer is built from, whatever the file format.
type spec struct {
	source string
	model  *bpe
	added  []addedToken
	norm   normalizer
	pre    []preTokenizer
	dec    decoder

	prefix, suffix []int
	bos, eos       int
	unk, pad       int

	// splitSpecial stops special tokens from being matched in the text.
	splitSpecial bool
	// decForm overrides the string given to the decoder for some ids.
	decForm map[int]string
	// eog lists end-of-generation ids besides EOS (GGUF eot/eom ids).
	eog []int
	// size is the least vocabulary size (the GGUF token count).
	size int
	// fim holds the fill-in-the-middle token ids a GGUF file names.
	fim map[fimRole]int
	// pair is how a GGUF file's flags frame a pair of texts (EncodePair);
	// nil for other tokenizers.
	pair *pairRule
	// pairTpl is how a tokenizer.json post-processor frames a pair of
	// texts; nil without one.
	pairTpl []pairPart
}

// endOfTurn are the texts of the control tokens that end a turn in the
// chat formats of the common model families.
var endOfTurn = []string{
	"<|im_end|>", "<|eot_id|>", "<|eom_id|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
	"<|end_of_text|>", "<EOT>", "<|eot|>", "<｜end▁of▁sentence｜>", "<|return|>", "<|call|>",
	"<end_of_utterance>", "<|END_OF_TURN_TOKEN|>",
}

// maxDenseSize is the largest id table made for n tokens. Ids are dense in
// practice; a few far-off ones would make the tables huge.
func maxDenseSize(n int) int { return 2*n + 4096 }

// build assembles a Tokenizer and checks that the ids it refers to exist.
func build(s *spec) (*Tokenizer, error) {
	size := s.size
	for _, id := range s.model.vocab {
		size = max(size, int(id)+1)
	}
	for _, a := range s.added {
		size = max(size, a.id+1)
	}
	if err := checkGrowth(s); err != nil {
		return nil, err
	}
	if n := len(s.model.vocab) + len(s.added); size > maxDenseSize(n) {
		return nil, fmt.Errorf("%s: %w: token ids go up to %d for %d tokens", s.source, ErrFormat, size-1, n)
	}
	t := &Tokenizer{
		model: s.model, norm: s.norm, pre: s.pre, dec: s.dec,
		tokens: make([]string, size), special: make([]bool, size),
		ids:    make(map[string]int, len(s.added)),
		prefix: ids32(s.prefix), suffix: ids32(s.suffix),
		bos: s.bos, eos: s.eos, unk: s.unk, pad: s.pad, source: s.source, pair: s.pair, pairTpl: s.pairTpl,
	}
	if s.model.byID != nil && len(s.model.byID) <= size {
		copy(t.tokens, s.model.byID)
	} else {
		for tok, id := range s.model.vocab {
			t.tokens[id] = tok
		}
	}
	s.model.byID, s.model.buf = nil, nil
	for _, a := range s.added {
		t.tokens[a.id] = a.content
		t.ids[a.content] = a.id
		t.special[a.id] = a.special
	}
	t.plain = newAddedSet(s.added, s.norm, false)
	t.added = t.plain
	if !s.splitSpecial {
		t.added = newAddedSet(s.added, s.norm, true)
	}
	for _, id := range append(append([]int{t.bos, t.eos, t.unk, t.pad}, s.prefix...), s.suffix...) {
		if id >= size {
			return nil, fmt.Errorf("%s: %w: special token id %d is beyond the vocabulary (%d tokens)", s.source, ErrFormat, id, size)
		}
	}
	for _, p := range s.pairTpl {
		for _, id := range p.ids {
			if int(id) >= size {
				return nil, fmt.Errorf("%s: %w: pair template token id %d is beyond the vocabulary (%d tokens)", s.source, ErrFormat, id, size)
			}
		}
	}
	t.setupFastPaths(s)
	t.setEOG(s)
	t.setFIM(s)
	return t, nil
}

// setEOG collects EOS, the eot/eom ids of the file and the special tokens
// named in endOfTurn.
func (t *Tokenizer) setEOG(s *spec) {
	add := func(id int) {
		if id >= 0 && id < len(t.tokens) && !t.IsEOG(id) {
			t.eog = append(t.eog, id)
		}
	}
	add(t.eos)
	for _, id := range s.eog {
		add(id)
	}
	for _, text := range endOfTurn {
		if id, ok := t.ids[text]; ok && t.special[id] {
			add(id)
		}
	}
	// Harmony (gpt-oss) ends a turn with <|return|> or <|call|>; its
	// <|end|> only closes one message of the answer (the reasoning) before
	// the next, so it must not stop the generation.
	if t.isSpecialText("<|return|>") && t.isSpecialText("<|call|>") {
		if id, ok := t.ids["<|end|>"]; ok {
			t.eog = slices.DeleteFunc(t.eog, func(e int) bool { return e == id })
		}
	}
}

// isSpecialText reports whether text is a special added token.
func (t *Tokenizer) isSpecialText(text string) bool {
	id, ok := t.ids[text]
	return ok && t.special[id]
}

// setupFastPaths lets the model take raw bytes when the last pre-tokenizer
// is ByteLevel, and decodes a plain ByteLevel decoder through a table.
func (t *Tokenizer) setupFastPaths(s *spec) {
	if n := len(t.pre); n > 0 {
		if bl, ok := t.pre[n-1].(*byteLevelPre); ok && t.model.contPrefix == "" && t.model.wordSuffix == "" {
			bl.mapChars = false
			t.model.enableRawBytes()
		}
	}
	t.model.setMetaSplit()
	t.decForm = t.tokens
	if len(s.decForm) > 0 {
		t.decForm = append([]string(nil), t.tokens...)
		for id, f := range s.decForm {
			if id >= 0 && id < len(t.decForm) {
				t.decForm[id] = f
			}
		}
	}
	if _, ok := t.dec.(byteLevelDecoder); ok {
		t.byteLevelDec = true
		t.raw = make([]string, len(t.decForm))
		for id, f := range t.decForm {
			if r, ok := byteLevelDecode(f); ok {
				t.raw[id] = r
			} else {
				t.raw[id] = f
			}
		}
	}
}

// ids32 converts the few ids a post-processor adds, once at load.
func ids32(ids []int) []int32 {
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}
