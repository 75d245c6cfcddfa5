// Package tokenizer turns text into token ids and back exactly as the
// Hugging Face tokenizers library does, for the byte-pair-encoding models
// that LLMs use (GPT-2, Llama 2 and 3, Mistral, Qwen, SmolLM, Gemma, ...).
//
// A Tokenizer loads from a tokenizer.json (with its tokenizer_config.json),
// a model directory, or the tokenizer.ggml.* metadata of a GGUF file; the
// GGUF path maps llama.cpp's pre-tokenizer names to the same pipeline, so
// both give the same ids. Encoding follows the Hugging Face pipeline: added
// tokens, normalizer, pre-tokenizers, BPE model, post-processor. Hand-written
// scanners replace the regex engine for the common split patterns.
//
// A Tokenizer is safe for concurrent use.
package tokenizer

// Tokenizer encodes text to token ids and decodes ids to text.
type Tokenizer struct {
	model *bpe
	norm  normalizer // nil: none
	pre   []preTokenizer
	added addedSet // the added tokens matched in the text
	plain addedSet // the same without the special ones
	dec   decoder  // nil: tokens joined with spaces
	// byteLevelDec marks a decoder that is exactly ByteLevel, decoded
	// through raw instead of the general chain.
	byteLevelDec bool

	tokens  []string       // id -> token text
	decForm []string       // id -> string given to the decoder
	raw     []string       // id -> raw bytes, when byteLevelDec
	special []bool         // id -> special token
	ids     map[string]int // added tokens; the rest are in model.vocab

	prefix, suffix []int32 // what the post-processor adds around a sequence
	bos, eos       int
	unk, pad       int
	eog            []int // ids that end generation, EOS first
	fim            FIM
	pair           *pairRule
	pairTpl        []pairPart // the tokenizer.json pair template, or nil

	source string // file it came from, for messages

	pieceTable
}

// VocabSize returns the number of token ids, added tokens included.
func (t *Tokenizer) VocabSize() int { return len(t.tokens) }

// Token returns the text of a token as stored in the vocabulary (for byte-
// level models in the byte-level alphabet, e.g. "Ġthe"), or "" for an
// unknown id.
func (t *Tokenizer) Token(id int) string {
	if id < 0 || id >= len(t.tokens) {
		return ""
	}
	return t.tokens[id]
}

// TokenID returns the id of a token given by its vocabulary text.
func (t *Tokenizer) TokenID(s string) (int, bool) {
	if id, ok := t.ids[s]; ok {
		return id, true
	}
	id, ok := t.model.vocab[s]
	return int(id), ok
}

// IsSpecial reports whether id is a special (control) token.
func (t *Tokenizer) IsSpecial(id int) bool {
	return id >= 0 && id < len(t.special) && t.special[id]
}

// BOS returns the beginning-of-sequence token id, or -1.
func (t *Tokenizer) BOS() int { return t.bos }

// EOS returns the end-of-sequence token id, or -1.
func (t *Tokenizer) EOS() int { return t.eos }

// UNK returns the unknown token id, or -1.
func (t *Tokenizer) UNK() int { return t.unk }

// PAD returns the padding token id, or -1.
func (t *Tokenizer) PAD() int { return t.pad }

// EOG returns the ids that end generation: EOS and the vocabulary's
// end-of-turn tokens (such as <|im_end|>, <|eot_id|>, <end_of_turn>).
func (t *Tokenizer) EOG() []int { return append([]int(nil), t.eog...) }

// IsEOG reports whether id ends generation.
func (t *Tokenizer) IsEOG(id int) bool {
	for _, e := range t.eog {
		if e == id {
			return true
		}
	}
	return false
}

// AddBOS reports whether Encode with addSpecial puts BOS first.
func (t *Tokenizer) AddBOS() bool {
	return t.bos >= 0 && len(t.prefix) > 0 && int(t.prefix[0]) == t.bos
}

// AddEOS reports whether Encode with addSpecial puts EOS last.
func (t *Tokenizer) AddEOS() bool {
	return t.eos >= 0 && len(t.suffix) > 0 && int(t.suffix[len(t.suffix)-1]) == t.eos
}

// Source returns the file the tokenizer was loaded from.
func (t *Tokenizer) Source() string { return t.source }
