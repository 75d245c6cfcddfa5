package runtime

import (
	"slices"
	"time"

	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/sample"
)

// beamGroup is a beam search on the scheduler: its root sequence computes
// the prompt; then every live beam is a running sequence of the group, and
// all of them step together. After each forward pass the group's logits
// rows choose the next beams; a sequence whose beam continues in k beams
// gives its cache to one and a fork of it (shared full blocks, a copy of
// the last one) to the others, and one whose beam ends frees its blocks.
type beamGroup struct {
	p    BeamSearch
	size int // beams per group
	root *runningSeq
	all  []*runningSeq // every sequence the search made, live or idle
	subs []beamSub
	rows map[*runningSeq][]float32 // this step's logits of each live beam
	tok  *tokenizer.Tokenizer

	stops       []int32 // ids that end a hypothesis
	stopStrings []string
	includeStop bool
	minTokens   int
	logprobs    bool
	keepSpecial bool
	decodeRows  int
	ended       bool

	scratch []float32
	top     []sample.TokenLogit
}

// newBeamGroup attaches a beam search to root, the sequence of its request.
func (e *Engine) newBeamGroup(root *runningSeq) *beamGroup {
	req := root.j.req
	p := req.Params
	g := &beamGroup{p: *req.Beam, root: root, all: []*runningSeq{root}, rows: map[*runningSeq][]float32{}, tok: e.tok,
		stopStrings: p.Stop, includeStop: p.IncludeStopStrInOutput, minTokens: p.MinTokens, logprobs: p.Logprobs, keepSpecial: req.KeepSpecial}
	g.size = g.p.Width / max(g.p.Groups, 1)
	if !p.IgnoreEOS {
		g.stops = append(g.stops, e.eos...)
	}
	g.stops = append(g.stops, p.StopTokenIDs...)
	g.reset()
	return g
}

// reset puts the search back at its start: every group's one beam is the
// root sequence, which computes the prompt.
func (g *beamGroup) reset() {
	g.subs = make([]beamSub, max(g.p.Groups, 1))
	for i := range g.subs {
		g.subs[i].beams = []*beamHyp{{run: g.root, stopToken: -1}}
	}
}

// collect records the logits row of beam r; it returns groups with r's
// group added when this is its first row of the step.
func (g *beamGroup) collect(groups []*beamGroup, r *runningSeq, logits []float32) []*beamGroup {
	if len(g.rows) == 0 {
		groups = append(groups, g)
	}
	g.rows[r] = logits
	return groups
}

// decode returns the text of ids.
func (g *beamGroup) decode(ids []int32) string {
	return g.tok.Decode(ids, !g.keepSpecial)
}

// beamStep advances every beam search that got its logits this step.
func (e *Engine) beamStep(groups []*beamGroup) {
	for _, g := range groups {
		if !g.ended {
			e.advance(g)
		}
		clear(g.rows)
	}
}

// advance chooses the next beams of g, and either runs them or, when
// every group is done or the length budget is reached, ends the search.
func (e *Engine) advance(g *beamGroup) {
	root := g.root
	k := min(max(2, 1+len(g.stops))*g.size, e.cfg.VocabSize)
	chosen := map[int32]int{}
	next := make([][]*beamHyp, len(g.subs))
	length := 0
	for i := range g.subs {
		sub := &g.subs[i]
		if sub.done {
			continue
		}
		length = len(sub.beams[0].gen) + 1
		next[i] = g.selectBeams(sub, g.candidates(sub, chosen, k))
		for _, b := range next[i] {
			chosen[b.gen[len(b.gen)-1]]++
		}
	}
	over := length >= root.budget || allDone(g.subs)
	if first := root.decodeStart.IsZero(); first && !over && !e.roomForBeams(g, countBeams(next)) {
		g.reset()
		e.preempt(root) // the search starts again later
		return
	}
	if root.decodeStart.IsZero() {
		now := time.Now()
		root.res.Timings.TTFT = now.Sub(root.j.called)
		root.res.Timings.Prefill = now.Sub(root.prefillStart)
		root.decodeStart = now
	} else {
		g.decodeRows += len(g.rows)
	}
	if !over && !e.reassign(g, next) {
		over = true // no cache blocks for the beams: they end at their length
	}
	for i := range g.subs {
		g.subs[i].beams = next[i]
	}
	if over || allDone(g.subs) {
		e.finishBeams(g)
	}
}

func allDone(subs []beamSub) bool {
	for _, s := range subs {
		if !s.done {
			return false
		}
	}
	return true
}

// reassign gives the new beams their sequences: the sequences of beams
// that did not continue free their blocks; a beam continuing once keeps
// its sequence; further continuations fork its cache into idle sequences.
// It returns false when the cache has no room for the forks.
func (e *Engine) reassign(g *beamGroup, next [][]*beamHyp) bool {
	kids := map[*runningSeq][]*beamHyp{}
	var parents []*runningSeq
	for _, list := range next {
		for _, b := range list {
			if len(kids[b.run]) == 0 {
				parents = append(parents, b.run)
			}
			kids[b.run] = append(kids[b.run], b)
		}
	}
	var idle []*runningSeq
	for _, r := range g.all {
		if len(kids[r]) == 0 {
			e.kv.Drop(r.kv)
			e.remove(r)
			idle = append(idle, r)
		}
	}
	for _, p := range parents {
		for _, b := range kids[p][1:] {
			var r *runningSeq
			if len(idle) > 0 {
				r, idle = idle[0], idle[1:]
			} else {
				r = &runningSeq{j: p.j, kv: e.kv.Arena().NewCache(), started: true, budget: p.budget, order: p.order, beam: g}
				g.all = append(g.all, r)
			}
			if !e.forkCache(r, p) {
				e.kv.Drop(r.kv)
				return false
			}
			r.tokens = append(append(r.tokens[:0], p.tokens...), b.gen[len(b.gen)-1])
			r.done = p.done
			b.run = r
			e.running = append(e.running, r)
		}
		b := kids[p][0]
		p.tokens = append(p.tokens, b.gen[len(b.gen)-1])
	}
	slices.SortStableFunc(e.running, func(a, b *runningSeq) int { return int(a.order - b.order) })
	return true
}

func countBeams(next [][]*beamHyp) int {
	n := 0
	for _, l := range next {
		n += len(l)
	}
	return n
}

// roomForBeams makes room in one forward pass for the beams of g beside
// the other running sequences, taking the latest admitted of those that
// are no beams back to the queue while needed. It returns false when
// other beam searches leave too little room: g must start again later.
func (e *Engine) roomForBeams(g *beamGroup, beams int) bool {
	limit := min(e.state.MaxOut(), e.state.MaxRows()) - 1
	for {
		others := 0
		var victim *runningSeq
		for _, r := range e.running {
			if r.beam != g && r.started && r != e.prefill {
				others++
				if r.beam == nil {
					victim = r
				}
			}
		}
		if others+beams <= limit {
			return true
		}
		if victim == nil {
			return false
		}
		e.preempt(victim)
	}
}

// forkCache gives r's empty cache the first src.done positions of src's:
// the full blocks shared through the prefix index, the rest copied. Short
// of blocks, it takes the latest admitted sequences that are no beams back
// to the queue.
func (e *Engine) forkCache(r, src *runningSeq) bool {
	for {
		n := e.kv.Match(r.kv, src.tokens, src.done)
		ok := true
		for i := n / BlockSize; ok && i*BlockSize < src.done; i++ {
			ok = e.kv.Fork(r.kv, src.kv, i)
		}
		if ok {
			return true
		}
		e.kv.Drop(r.kv)
		v := e.victim()
		if v == nil {
			return false
		}
		e.preempt(v)
	}
}

// finishBeams ends the search: the best hypotheses become the result.
func (e *Engine) finishBeams(g *beamGroup) {
	res := &g.root.res
	res.Beams = g.results()
	res.Usage.Completion = 0
	for _, b := range res.Beams {
		res.Usage.Completion += len(b.Tokens)
		if b.StopToken >= 0 {
			res.Usage.Completion++
		}
	}
	if len(res.Beams) > 0 {
		best := res.Beams[0]
		res.Finish, res.StopString, res.StopToken = best.Finish, best.StopString, best.StopToken
	}
	res.Timings.DecodeTokens = g.decodeRows
	e.endBeams(g, g.root, nil)
}

// endBeams frees every sequence of g and gives the caller the result; r
// is the sequence that ended it (its Finish, when set, is the result's).
// Later calls for the same search do nothing.
func (e *Engine) endBeams(g *beamGroup, r *runningSeq, err error) {
	if g.ended {
		return
	}
	g.ended = true
	res := g.root.res
	if r.res.Finish != "" {
		res.Finish = r.res.Finish
	}
	for _, x := range g.all {
		e.kv.Release(x.kv, x.tokens, x.done)
		e.remove(x)
	}
	if !g.root.decodeStart.IsZero() {
		res.Timings.Decode = time.Since(g.root.decodeStart)
	}
	e.publishStats()
	e.finish(g.root.j, res, err)
}
