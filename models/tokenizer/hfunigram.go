package tokenizer

import (
	"encoding/json"
	"fmt"
)

// unigram builds Hugging Face's Unigram model (XLM-RoBERTa's
// tokenizer.json): the vocabulary is a list of [piece, score] pairs, a
// piece's id its place in the list, and unk_id the unknown token.
func (hm *hfModel) unigram() (*bpe, error) {
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal(hm.Vocab, &pairs); err != nil {
		return nil, fmt.Errorf("%w: Unigram model.vocab: %v", ErrFormat, err)
	}
	if len(pairs) == 0 || len(pairs) > maxVocab {
		return nil, fmt.Errorf("%w: Unigram vocabulary of %d pieces", ErrFormat, len(pairs))
	}
	tokens, scores := make([]string, len(pairs)), make([]float32, len(pairs))
	vocab := make(map[string]int32, len(pairs))
	for i, p := range pairs {
		if json.Unmarshal(p[0], &tokens[i]) != nil || json.Unmarshal(p[1], &scores[i]) != nil {
			return nil, fmt.Errorf("%w: Unigram piece %d is not [text, score]", ErrFormat, i)
		}
		if _, dup := vocab[tokens[i]]; !dup {
			vocab[tokens[i]] = int32(i)
		}
	}
	unk := -1
	if hm.UnkID != nil {
		if unk = *hm.UnkID; unk < 0 || unk >= len(pairs) {
			return nil, fmt.Errorf("%w: unk_id %d outside a vocabulary of %d", ErrFormat, unk, len(pairs))
		}
	}
	m := newBPE(vocab)
	m.byID, m.unk = tokens, int32(unk)
	m.uni = newUnigram(tokens, scores, func(id int) int64 {
		if id == unk {
			return ggufUnknown
		}
		return ggufNormal
	})
	return m, nil
}
