package tokenizer

import "fmt"

// pairPart is one part of a post-processor's pair template: special token
// ids, or the first (seq 0) or second (seq 1) text.
type pairPart struct {
	ids []int32
	seq int // -1 for ids
}

// bertPair is the pair template of BertProcessing, cls A sep B sep, or
// with double set that of RobertaProcessing, cls A sep sep B sep.
func bertPair(cls, sep int, double bool) []pairPart {
	mid := []int32{int32(sep)}
	if double {
		mid = append(mid, int32(sep))
	}
	return []pairPart{{ids: []int32{int32(cls)}, seq: -1}, {seq: 0}, {ids: mid, seq: -1}, {seq: 1}, {ids: []int32{int32(sep)}, seq: -1}}
}

// parsePairTemplate reads TemplateProcessing's pair template; nil when it
// is empty.
func parsePairTemplate(pair []map[string]struct{ ID string }, specials map[string]struct{ IDs []int }) ([]pairPart, error) {
	var out []pairPart
	for _, item := range pair {
		if s, ok := item["Sequence"]; ok {
			switch s.ID {
			case "A":
				out = append(out, pairPart{seq: 0})
			case "B":
				out = append(out, pairPart{seq: 1})
			default:
				return nil, fmt.Errorf("%w: pair template sequence %.80q (want A or B)", ErrFormat, s.ID)
			}
			continue
		}
		st, ok := item["SpecialToken"]
		if !ok {
			return nil, fmt.Errorf("%w: pair template item %v", ErrFormat, item)
		}
		sp, ok := specials[st.ID]
		if !ok {
			return nil, fmt.Errorf("%w: pair template special token %.80q is not in special_tokens", ErrFormat, st.ID)
		}
		ids := make([]int32, len(sp.IDs))
		for i, id := range sp.IDs {
			if id < 0 || id >= maxVocab {
				return nil, fmt.Errorf("%w: pair template special token %.80q has id %d", ErrFormat, st.ID, id)
			}
			ids[i] = int32(id)
		}
		out = append(out, pairPart{ids: ids, seq: -1})
	}
	return out, nil
}

// encodeTemplatePair returns the tokens of a pair of texts as the pair
// template frames them.
func (t *Tokenizer) encodeTemplatePair(first, second string) []int32 {
	var ids []int32
	for _, p := range t.pairTpl {
		switch p.seq {
		case 0:
			ids = append(ids, t.EncodePlain(first)...)
		case 1:
			ids = append(ids, t.EncodePlain(second)...)
		default:
			ids = append(ids, p.ids...)
		}
	}
	return ids
}
