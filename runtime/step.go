package runtime

import (
	"fmt"
	"slices"
)

// step runs one forward pass over the running set: the next token of
// every decoding sequence and a chunk of the prompt being computed, within
// the Batch token budget; then it samples every sequence that got logits.
func (e *Engine) step() {
	dec := e.decoders()
	p, chunk := e.prefillChunk(pendingRows(dec) + e.propose(dec))
	b := &e.batch
	b.Tokens, b.Pos, b.Cache, b.Out = b.Tokens[:0], b.Pos[:0], b.Cache[:0], b.Out[:0]
	e.outSeqs = e.outSeqs[:0]
	for _, r := range dec {
		e.addRows(r, len(r.tokens)-r.done)
		e.addDraftRows(r)
	}
	if chunk > 0 {
		e.addRows(p, chunk)
	}
	if len(b.Tokens) == 0 {
		return
	}
	if len(b.Out) == 0 { // a prompt chunk alone, not its last: logits unused
		b.Out = append(b.Out, len(b.Tokens)-1)
		e.outSeqs = append(e.outSeqs, nil)
	}
	b.AllHidden = e.spec.mtp != nil
	logits, err := e.state.Forward(b)
	if err == nil && b.AllHidden {
		e.keepHidden(dec, p, chunk)
	}
	if err != nil {
		for _, r := range append(dec, p) {
			if r != nil && r.started {
				e.end(r, fmt.Errorf("forward pass: %w", err))
			}
		}
		return
	}
	for _, r := range dec {
		r.done = len(r.tokens)
		r.res.Timings.DecodeTokens++
		e.kv.Index(r.kv, r.tokens, r.done)
	}
	if chunk > 0 {
		p.done += chunk
		e.kv.Index(p.kv, p.tokens, p.done)
		if p.done >= len(p.tokens)-1 {
			// The state before the prompt's last token, and after it: for
			// requests that repeat the prompt, or go on after it.
			e.kv.Snapshot(p.kv, p.tokens[:p.done])
		}
		if p.done == len(p.tokens) {
			e.prefill = nil
		}
	}
	vocab := e.cfg.VocabSize
	var beams []*beamGroup
	for k, r := range e.outSeqs {
		if d := e.drafted(r); len(d) > 0 {
			e.verify(r, logits[k*vocab:(k+1+len(d))*vocab], d)
			if sr := e.spec.runs[r]; sr != nil && sr.mseq != nil {
				sr.mseq.settle(r.done, e.cfg.HiddenSize)
			}
			e.rollBack(r)
		} else if r != nil && r.beam != nil {
			beams = r.beam.collect(beams, r, logits[k*vocab:(k+1)*vocab])
		} else if r != nil {
			e.sample(r, logits[k*vocab:(k+1)*vocab])
		}
	}
	e.beamStep(beams)
}

// addRows adds n rows of r's uncomputed tokens to the batch, with a logits
// row when they are the last.
func (e *Engine) addRows(r *runningSeq, n int) {
	b := &e.batch
	for i := range n {
		b.Tokens = append(b.Tokens, r.tokens[r.done+i])
		b.Pos = append(b.Pos, r.done+i)
		b.Cache = append(b.Cache, r.kv)
	}
	if r.done+n == len(r.tokens) {
		b.Out = append(b.Out, len(b.Tokens)-1)
		e.outSeqs = append(e.outSeqs, r)
	}
}

// pendingRows returns the rows the decoding sequences compute this step
// before any drafted token: their last sampled token, and the tokens a
// rolled-back recurrent state must take again (see rollBack).
func pendingRows(dec []*runningSeq) int {
	n := 0
	for _, r := range dec {
		n += len(r.tokens) - r.done
	}
	return n
}

// decoders returns the sequences that compute their last sampled token
// this step, each with a cache block for it. Short of blocks, the latest
// admitted sequences go back to the queue; a sequence alone with a full
// cache ends (FinishLength).
func (e *Engine) decoders() []*runningSeq {
	var dec []*runningSeq
	for _, r := range slices.Clone(e.running) {
		if !r.started || r == e.prefill || !e.isRunning(r) {
			continue
		}
		if !e.grow(r, len(r.tokens)) {
			if r.started && e.isRunning(r) {
				e.stopFull(r)
			}
			continue
		}
		dec = append(dec, r)
	}
	return slices.DeleteFunc(dec, func(r *runningSeq) bool { return !e.isRunning(r) }) // a beam search may have ended
}

// prefillChunk returns the sequence whose prompt is being computed, with
// how many of its tokens this step computes (0 while the cache has no
// block for them: it waits for others to free some).
func (e *Engine) prefillChunk(decoding int) (*runningSeq, int) {
	if e.prefill == nil {
		for _, r := range e.running {
			if !r.started {
				e.start(r)
				e.prefill = r
				break
			}
		}
	}
	p := e.prefill
	if p == nil {
		return nil, 0
	}
	chunk := min(len(p.tokens)-p.done, e.opt.Batch-decoding)
	if last := len(p.tokens) - 1; p.kv.Arena().StateBytes() > 0 && p.done < last && p.done+chunk > last {
		// The last token of a prompt goes alone, so that the recurrent
		// state before it is snapshotted for a request that repeats the
		// prompt (which computes that token again, for its logits).
		chunk--
	}
	if !e.kv.Grow(p.kv, p.done+chunk) {
		chunk = min(chunk, p.kv.Context()-p.done)
		if chunk <= 0 && decoding == 0 && !e.othersHold(p) {
			e.end(p, fmt.Errorf("%w: %d tokens do not fit in a KV cache of %d blocks of %d positions",
				ErrContextLength, len(p.tokens), e.kv.Total(), BlockSize))
			return nil, 0
		}
	}
	return p, max(chunk, 0)
}

// grow gives r cache blocks for n positions, taking the latest admitted
// sequences holding blocks back to the queue while none is left. It
// returns false when r itself went back, or holds the only blocks.
func (e *Engine) grow(r *runningSeq, n int) bool {
	for !e.kv.Grow(r.kv, n) {
		v := e.victim()
		if v == nil || (v == r && !e.othersHold(r)) {
			return false
		}
		e.preempt(v)
		if v == r {
			return false
		}
	}
	return true
}

// victim returns the latest admitted running sequence holding blocks, not
// a beam.
func (e *Engine) victim() *runningSeq {
	for i := len(e.running) - 1; i >= 0; i-- {
		if r := e.running[i]; len(r.kv.Table()) > 0 && r.beam == nil { // beams step together
			return e.running[i]
		}
	}
	return nil
}

// othersHold reports whether a running sequence other than r holds blocks.
func (e *Engine) othersHold(r *runningSeq) bool {
	for _, x := range e.running {
		if x != r && len(x.kv.Table()) > 0 {
			return true
		}
	}
	return false
}

func (e *Engine) isRunning(r *runningSeq) bool { return slices.Contains(e.running, r) }

// stopFull ends r, alone with a full cache, as if it reached its length.
func (e *Engine) stopFull(r *runningSeq) {
	if r.beam != nil {
		e.finishBeams(r.beam)
		return
	}
	r.res.Finish = FinishLength
	var ev Event
	r.seq.flush(&ev, &r.res)
	if ev.Text != "" {
		r.j.push(ev)
	}
	e.end(r, nil)
}
