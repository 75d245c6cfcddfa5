package tokenizer

import "strings"

// Decode returns the text of ids. Ids outside the vocabulary are skipped
// (as Hugging Face does); skipSpecial also skips special tokens. Bytes that
// do not form valid UTF-8 become U+FFFD.
func (t *Tokenizer) Decode(ids []int32, skipSpecial bool) string {
	return lossy(t.decodeRaw(ids, skipSpecial, exact))
}

// decodeRaw runs the decoder chain without the final UTF-8 repair.
func (t *Tokenizer) decodeRaw(ids []int32, skipSpecial bool, mode decodeMode) string {
	if t.byteLevelDec {
		var b strings.Builder
		for _, id := range ids {
			if t.keep(int(id), skipSpecial) {
				b.WriteString(t.raw[id])
			}
		}
		return b.String()
	}
	toks := make([]string, 0, len(ids))
	for _, id := range ids {
		if t.keep(int(id), skipSpecial) {
			toks = append(toks, t.decForm[id])
		}
	}
	if t.dec == nil {
		return strings.Join(toks, " ")
	}
	return strings.Join(t.dec.decodeChain(toks, mode), "")
}

// keep reports whether id takes part in decoding.
func (t *Tokenizer) keep(id int, skipSpecial bool) bool {
	return id >= 0 && id < len(t.tokens) && t.tokens[id] != "" && !(skipSpecial && t.special[id])
}
