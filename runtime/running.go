package runtime

import (
	"fmt"
	"slices"
	"time"

	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/sample"
)

// runningSeq is a generation the scheduler runs: its tokens, how many of
// them are in its cache, and its sampling state.
type runningSeq struct {
	j       *submission
	seq     *samplingState
	kv      *kvcache.Cache
	tokens  []int32 // the prompt, then the tokens sampled
	done    int     // tokens whose keys and values are in kv
	started bool    // its computation started (the prefix cache was consulted)
	budget  int     // most tokens to generate
	order   uint64  // admission order: the latest admitted are preempted first
	res     Result
	beam    *beamGroup // the beam search this sequence is a beam of, if any

	admitted, prefillStart, decodeStart time.Time
}

// newRunningSeq prepares the sequence of a generation submission.
func (e *Engine) newRunningSeq(j *submission) (*runningSeq, error) {
	req := j.req
	r := &runningSeq{j: j, res: Result{StopToken: -1, Usage: Usage{Prompt: len(req.Prompt)}}, admitted: time.Now()}
	var err error
	if r.seq, err = e.newSamplingState(req); err != nil {
		return r, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	if r.budget, err = req.Params.Budget(len(req.Prompt), e.opt.Ctx); err != nil {
		return r, fmt.Errorf("%w: %w", ErrContextLength, err)
	}
	e.order++
	r.order = e.order
	r.kv = e.kv.Arena().NewCache()
	r.tokens = slices.Clone(req.Prompt)
	if req.Beam != nil {
		if err := e.checkBeam(req); err != nil {
			return r, err
		}
		r.beam = e.newBeamGroup(r)
	}
	return r, nil
}

// start begins computing r's tokens after the longest prefix the cache
// holds; the last token is always computed, for its logits.
func (e *Engine) start(r *runningSeq) {
	limit := len(r.tokens) - 1
	r.done = e.kv.Match(r.kv, r.tokens, limit)
	if r.done < limit {
		e.fork(r, limit)
	}
	r.started = true
	if r.prefillStart.IsZero() {
		now := time.Now()
		r.prefillStart = now
		r.res.Usage.Cached = r.done
		r.res.Timings.Queue = now.Sub(r.j.enqueued)
		r.res.Timings.PrefillTokens = len(r.tokens) - r.done
		e.stats.prompt.Add(int64(len(r.tokens)))
		e.stats.cachedTokens.Add(int64(r.done))
	}
}

// fork extends r's cache with the last, partial block of a running
// sequence that begins with more of r's tokens (the choices of one
// request run at once): the prefix cache holds the full blocks, not that
// one. It copies the block and moves r.done past what it holds.
func (e *Engine) fork(r *runningSeq, limit int) {
	var src *runningSeq
	n, i := r.done, r.done/BlockSize
	for _, x := range e.running {
		if x == r || !x.started || len(x.kv.Table()) <= i {
			continue
		}
		if m := min(commonPrefix(x.tokens, r.tokens[:limit]), x.done, (i+1)*BlockSize); m > n {
			src, n = x, m
		}
	}
	if src != nil && e.kv.Fork(r.kv, src.kv, i) {
		r.done = n
	}
}

func commonPrefix(a, b []int32) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// sample draws r's next token from logits and emits it; it ends r when the
// sequence is over.
func (e *Engine) sample(r *runningSeq, logits []float32) {
	ev, done, err := r.seq.step(logits, &r.res)
	if err != nil {
		e.end(r, err)
		return
	}
	if done && r.res.StopToken >= 0 && r.seq.logprobs {
		r.res.StopLogprob = float32(float64(logits[r.res.StopToken]) - sample.LogSumExp(logits))
	}
	if r.res.Usage.Completion == 1 {
		now := time.Now()
		r.res.Timings.TTFT = now.Sub(r.j.called)
		r.res.Timings.Prefill = now.Sub(r.prefillStart)
		r.decodeStart = now
	}
	if !done && r.res.Usage.Completion >= r.budget {
		r.res.Finish, done = FinishLength, true
	}
	if done {
		r.seq.flush(&ev, &r.res)
	}
	if len(ev.Tokens) > 0 || ev.Text != "" {
		r.j.push(ev)
	}
	if done {
		e.end(r, nil)
		return
	}
	r.tokens = append(r.tokens, ev.Tokens[0])
}

// end finishes r: its cache blocks go to the prefix cache (or are freed)
// and its caller gets the result.
func (e *Engine) end(r *runningSeq, err error) {
	if r.beam != nil {
		e.endBeams(r.beam, r, err)
		return
	}
	e.kv.Release(r.kv, r.tokens, r.done)
	e.remove(r)
	if !r.decodeStart.IsZero() {
		r.res.Timings.Decode = time.Since(r.decodeStart)
	}
	e.publishStats() // before the caller returns, so that it sees its blocks freed
	e.finish(r.j, r.res, err)
}
