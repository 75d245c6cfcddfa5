package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/mlxrun/mlx/runtime/model"
)

// speculator holds the speculation state of the running sequences. Only
// the scheduler goroutine uses it, but for the atomic counters.
type speculator struct {
	draft *drafter    // nil without a draft model
	mtp   *mtpDrafter // nil unless drafting with the model's MTP layer
	runs  map[*runningSeq]*specRun
	// proposed and accepted count tokens over all requests, for SpecStats.
	proposed, accepted atomic.Int64
}

// specRun is one sequence's speculation: its settings, its state in the
// draft model, and the tokens proposed for the step under way.
type specRun struct {
	p     specParams
	dseq  *draftSeq
	mseq  *mtpSeq
	draft []int32
	k     int // tokens to propose next: fewer after a rejection, more after a full acceptance
	// pause is how many steps to go without proposing, after a single
	// proposed token was rejected; backoff the next such pause.
	pause, backoff int
	// kept is the sequence's recurrent state before the step under way,
	// of keptLen positions, when the model has one (see rollBack).
	kept    []float32
	keptLen int
}

// newSpeculator prepares speculation for e, loading the draft model of
// opt, if any, or the MTP layer from src, the model's weights. The draft
// model's files close with the engine's.
func newSpeculator(ctx context.Context, e *Engine, src model.Source, opt SpecOptions) (*speculator, error) {
	s := &speculator{runs: map[*runningSeq]*specRun{}}
	if err := opt.check(); err != nil || opt.Draft == "" {
		return s, err
	}
	if opt.Draft == MTPDraft {
		var err error
		s.mtp, err = loadMTP(e, src)
		return s, err
	}
	d, err := loadDrafter(ctx, e, opt.Draft)
	if err != nil {
		return nil, err
	}
	s.draft = d
	closeMain := e.closeFile
	e.closeFile = func() error { return errors.Join(closeMain(), d.close()) }
	return s, nil
}

// prune forgets the sequences that no longer run.
func (s *speculator) prune(running []*runningSeq) {
	for r, sr := range s.runs {
		if !slices.Contains(running, r) {
			if sr.dseq != nil {
				s.draft.drop(sr.dseq)
			}
			if sr.mseq != nil {
				s.mtp.kv.Drop(sr.mseq.cache)
			}
			delete(s.runs, r)
		}
	}
}

// runOf returns r's speculation state, made on first use.
func (e *Engine) runOf(r *runningSeq) *specRun {
	sr := e.spec.runs[r]
	if sr == nil {
		sr = &specRun{p: e.specParamsOf(r.j.req)}
		sr.k = max(sr.p.lookup, sr.p.draft)
		e.spec.runs[r] = sr
	}
	return sr
}

// propose drafts tokens for the decoding sequences, within the rows and
// logit rows a forward pass has, and gives them cache room. It returns
// the number of draft rows.
func (e *Engine) propose(dec []*runningSeq) int {
	e.spec.prune(e.running)
	rows := (e.state.MaxRows() - pendingRows(dec)) / 2 // at least half is left to a prompt
	outs := e.state.MaxOut() - len(dec) - 1
	total := 0
	for _, r := range dec {
		sr := e.runOf(r)
		sr.draft = sr.draft[:0]
		if sr.pause > 0 {
			sr.pause--
			continue
		}
		k := min(sr.k, rows-total, outs-total,
			r.budget-r.res.Usage.Completion-1, e.opt.Ctx-len(r.tokens))
		if k <= 0 {
			continue
		}
		if sr.p.lookup > 0 {
			sr.draft = lookup(r.tokens, min(k, sr.p.lookup), sr.draft)
		}
		switch {
		case len(sr.draft) > 0 || sr.p.draft == 0:
		case e.spec.draft != nil:
			sr.draft = e.draftFor(r, sr, min(k, sr.p.draft))
		case e.spec.mtp != nil && sr.mseq != nil:
			sr.draft = e.mtpFor(r, sr, min(k, sr.p.draft))
		}
		if !e.kv.Grow(r.kv, len(r.tokens)+len(sr.draft)) {
			sr.draft = sr.draft[:max(0, min(len(sr.draft), r.kv.Context()-len(r.tokens)))]
		}
		total += len(sr.draft)
	}
	return total
}

// draftFor asks the draft model for k tokens to follow r; none when it
// fails (the sequence then decodes without speculation).
func (e *Engine) draftFor(r *runningSeq, sr *specRun, k int) []int32 {
	d := e.spec.draft
	if sr.dseq == nil {
		sr.dseq = d.newSeq()
	}
	out, err := d.propose(sr.dseq, r.tokens, k, sr.p.confidence, sr.draft)
	if err != nil {
		d.kv.Drop(sr.dseq.cache)
		sr.dseq, sr.p.draft = nil, 0
		return out[:0]
	}
	return out
}

// addDraftRows adds r's proposed tokens after its last token, each with a
// logits row (the draft rows have no sequence in outSeqs: verify reads
// them with the last token's row), keeping r's recurrent state first.
func (e *Engine) addDraftRows(r *runningSeq) {
	sr := e.spec.runs[r]
	if sr == nil || len(sr.draft) == 0 {
		return
	}
	sr.keepState(r)
	b := &e.batch
	for i, id := range sr.draft {
		b.Tokens = append(b.Tokens, id)
		b.Pos = append(b.Pos, len(r.tokens)+i)
		b.Cache = append(b.Cache, r.kv)
		b.Out = append(b.Out, len(b.Tokens)-1)
		e.outSeqs = append(e.outSeqs, nil)
	}
}

// drafted returns the tokens proposed for r this step.
func (e *Engine) drafted(r *runningSeq) []int32 {
	if sr := e.spec.runs[r]; sr != nil {
		return sr.draft
	}
	return nil
}

// verify samples r's tokens from the logits of its last token and of its
// draft tokens (a row each), in order, as many as the model agrees with:
// the token sampled from a row is kept, and the next row is used only
// while that token is the draft's. Every token is thus sampled from the
// model's own distribution, by the same sampler calls as without
// speculation, which gives the same output (with a seed, even when
// sampling). The cache keeps the positions of the accepted tokens; those
// after them are computed again.
func (e *Engine) verify(r *runningSeq, logits []float32, draft []int32) {
	vocab := e.cfg.VocabSize
	sr := e.spec.runs[r]
	defer func() { sr.draft = sr.draft[:0] }()
	r.res.Spec.Proposed += len(draft)
	accepted := r.res.Spec.Accepted
	defer func() {
		n := r.res.Spec.Accepted - accepted
		sr.adapt(len(draft), n)
		e.spec.proposed.Add(int64(len(draft)))
		e.spec.accepted.Add(int64(n))
	}()
	var out Event
	for i := 0; i <= len(draft); i++ {
		ev, done, err := r.seq.step(logits[i*vocab:(i+1)*vocab], &r.res)
		if err != nil {
			e.pushEvent(r, out)
			e.end(r, fmt.Errorf("speculative decoding: %w", err))
			return
		}
		out.Tokens = append(out.Tokens, ev.Tokens...)
		out.Text += ev.Text
		out.Logprobs = append(out.Logprobs, ev.Logprobs...)
		if !done && r.res.Usage.Completion >= r.budget {
			r.res.Finish, done = FinishLength, true
		}
		if done {
			r.seq.flush(&out, &r.res)
			e.pushEvent(r, out)
			e.end(r, nil)
			return
		}
		id := ev.Tokens[0]
		r.tokens = append(r.tokens, id)
		if i == len(draft) || id != draft[i] {
			break
		}
		r.done++ // the draft token's keys and values are the right ones
		r.res.Timings.DecodeTokens++
		r.res.Spec.Accepted++
	}
	e.kv.Index(r.kv, r.tokens, r.done)
	e.pushEvent(r, out)
}

// pushEvent hands ev to r's caller unless it is empty.
func (e *Engine) pushEvent(r *runningSeq, ev Event) {
	if len(ev.Tokens) > 0 || ev.Text != "" {
		r.j.push(ev)
	}
}

// adapt sets how many tokens to propose next after accepted of proposed
// were: two more after all, one fewer (at least one) after a rejection,
// as the "heuristic" schedule of Hugging Face transformers. When even a
// single token is rejected, proposing pauses for 1, 2, 4… up to
// maxPause steps, until a token is accepted again: a draft that keeps
// missing then costs little.
func (sr *specRun) adapt(proposed, accepted int) {
	limit := max(sr.p.lookup, sr.p.draft)
	switch {
	case accepted == proposed:
		sr.k = min(sr.k+2, limit)
	case proposed == 1:
		sr.pause = max(sr.backoff, 1)
		sr.backoff = min(2*sr.pause, maxPause)
	default:
		sr.k = max(sr.k-1, 1)
	}
	if accepted > 0 {
		sr.backoff = 0
	}
}

// maxPause is the longest pause of proposals after rejections.
const maxPause = 32

// SpecStats returns the tokens speculative decoding proposed and accepted
// over all requests so far.
func (e *Engine) SpecStats() SpecStats {
	return SpecStats{Proposed: int(e.spec.proposed.Load()), Accepted: int(e.spec.accepted.Load())}
}
