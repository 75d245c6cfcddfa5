package runtime

import "github.com/mlxrun/mlx/runtime/grammar"

// grammarVocab returns the model's vocabulary as the trie that grammar
// constraints walk, built on first use (on the scheduler goroutine).
func (e *Engine) grammarVocab() *grammar.Vocab {
	if e.gvocab == nil {
		pieces := make([]string, e.cfg.VocabSize)
		for i := range min(len(pieces), e.tok.VocabSize()) {
			pieces[i] = e.tok.Piece(i)
		}
		eog := make([]int, len(e.eos))
		for i, id := range e.eos {
			eog[i] = int(id)
		}
		e.gvocab = grammar.NewVocab(pieces, eog)
	}
	return e.gvocab
}

// constrain masks the logits to the tokens the grammar allows; done
// reports a text the grammar completes with nothing more allowed.
func (s *samplingState) constrain(logits []float32, res *Result) (done bool, err error) {
	if s.match.Done() {
		res.Finish = FinishStop
		return true, nil
	}
	if len(s.mask) == 0 {
		s.mask = make([]uint64, (len(logits)+63)/64)
	}
	return false, s.match.MaskLogits(logits, s.mask)
}
