package runtime

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/runtime/sample"
)

// beamHyp is a beam: the tokens it generated with their log-probabilities,
// and, once finished, how it ended and its score.
type beamHyp struct {
	gen     []int32
	lps     []Logprob   // kept when the request wants logprobs
	logprob float64     // sum of the log-probabilities of gen (and the stop token)
	sum     float64     // logprob less the diversity penalties: what ranks beams
	run     *runningSeq // the sequence computing a live beam
	lse     float64     // log Σ exp of this step's logits of a live beam

	score      float64
	finish     FinishReason
	stopString string
	stopToken  int32
	text       string
}

// length is the length of a hypothesis in its score: its tokens, the stop
// token included.
func (h *beamHyp) length() int {
	n := len(h.gen)
	if h.stopToken >= 0 {
		n++
	}
	return max(n, 1)
}

// beamSub is one group of beams of a (diverse) beam search: its live
// beams and its best finished hypotheses.
type beamSub struct {
	beams []*beamHyp
	hyps  []*beamHyp // at most the group size, any order
	done  bool
}

// beamCand is a continuation of a live beam.
type beamCand struct {
	parent int     // index into the group's beams
	tok    int32   // the token
	lp     float64 // its log-probability
	score  float64 // the parent's sum plus its penalized log-probability
}

// candidates returns the k best continuations of sub's beams, best first:
// each beam's log-softmax with the stop ids masked before min_tokens and
// the tokens that earlier groups chose at this step penalized.
func (g *beamGroup) candidates(sub *beamSub, chosen map[int32]int, k int) []beamCand {
	var out []beamCand
	for bi, b := range sub.beams {
		row := g.rows[b.run]
		b.lse = sample.LogSumExp(row)
		g.scratch = append(g.scratch[:0], row...)
		if len(b.gen) < g.minTokens {
			for _, id := range g.stops {
				g.scratch[id] = float32(math.Inf(-1))
			}
		}
		for id, n := range chosen {
			g.scratch[id] -= float32(g.p.DiversityPenalty * float64(n))
		}
		g.top = sample.TopK(g.top, g.scratch, k)
		for _, t := range g.top {
			out = append(out, beamCand{parent: bi, tok: t.ID, lp: float64(row[t.ID]) - b.lse, score: b.sum + float64(t.Logit) - b.lse})
		}
	}
	slices.SortStableFunc(out, func(a, b beamCand) int { return cmp.Compare(b.score, a.score) })
	return out[:min(k, len(out))]
}

// selectBeams advances sub by one step from its candidates, as Hugging
// Face's beam scorer: in order, a candidate that ends (a stop id, or a
// stop string completed) becomes a finished hypothesis if it ranks among
// the first size, another one a new beam, until size beams are found.
// Beams at the length budget are finished there. It returns the new beams.
func (g *beamGroup) selectBeams(sub *beamSub, cands []beamCand) []*beamHyp {
	var next []*beamHyp
	for rank, c := range cands {
		parent := sub.beams[c.parent]
		child := g.extend(parent, c)
		if child.finish == "" {
			next = append(next, child)
		} else if rank < g.size {
			g.addHyp(sub, child)
		}
		if len(next) == g.size {
			break
		}
	}
	if len(cands) > 0 {
		sub.done = sub.done || g.isDone(sub, cands[0].score, len(sub.beams[0].gen)+1)
	}
	if len(next) == 0 {
		sub.done = true
	}
	return next
}

// extend returns parent continued by candidate c: finished (FinishStop)
// when c is a stop id or completes a stop string.
func (g *beamGroup) extend(parent *beamHyp, c beamCand) *beamHyp {
	h := &beamHyp{gen: parent.gen, lps: parent.lps, logprob: parent.logprob + c.lp, sum: c.score, run: parent.run, stopToken: -1}
	if slices.Contains(g.stops, c.tok) {
		h.finish, h.stopToken = FinishStop, c.tok
		return h
	}
	h.gen = append(slices.Clip(parent.gen), c.tok)
	if g.logprobs {
		lp := Logprob{ID: c.tok, Logprob: float32(c.lp)}
		if n := g.root.j.req.Params.TopLogprobs; n > 0 {
			row := g.rows[parent.run]
			for _, t := range sample.TopK(nil, row, n) {
				lp.Top = append(lp.Top, sample.TokenLogprob{ID: t.ID, Logprob: float32(float64(t.Logit) - parent.lse)})
			}
		}
		h.lps = append(slices.Clip(parent.lps), lp)
	}
	if len(g.stopStrings) > 0 {
		g.cutStop(h)
	}
	return h
}

// cutStop finishes h when its text holds a stop string, cut there.
func (g *beamGroup) cutStop(h *beamHyp) {
	text := g.decode(h.gen)
	at, which := -1, ""
	for _, s := range g.stopStrings {
		if i := strings.Index(text, s); i >= 0 && (at < 0 || i < at) {
			at, which = i, s
		}
	}
	if at < 0 {
		return
	}
	if g.includeStop {
		at += len(which)
	}
	h.finish, h.stopString, h.text = FinishStop, which, text[:at]
}

// addHyp keeps h among sub's best finished hypotheses.
func (g *beamGroup) addHyp(sub *beamSub, h *beamHyp) {
	h.score = h.sum / math.Pow(float64(h.length()), g.p.LengthPenalty)
	if len(sub.hyps) < g.size {
		sub.hyps = append(sub.hyps, h)
		return
	}
	w := worst(sub.hyps)
	if h.score > sub.hyps[w].score {
		sub.hyps[w] = h
	}
}

func worst(hyps []*beamHyp) int {
	w := 0
	for i, h := range hyps {
		if h.score < hyps[w].score {
			w = i
		}
	}
	return w
}

// isDone reports whether sub can stop: it holds size hypotheses and, by
// the stopping rule, no beam can beat the worst of them. best is the best
// candidate's sum this step, length the beams' length after it.
func (g *beamGroup) isDone(sub *beamSub, best float64, length int) bool {
	if len(sub.hyps) < g.size {
		return false
	}
	lp := g.p.LengthPenalty
	switch g.p.EarlyStopping {
	case StopEarly:
		return true
	case StopNever:
		if lp > 0 {
			length = g.root.budget
		}
	}
	return sub.hyps[worst(sub.hyps)].score >= best/math.Pow(float64(length), lp)
}

// results finishes the live beams of the groups not done (FinishLength),
// and returns the best N hypotheses of all groups, best first, with their
// text.
func (g *beamGroup) results() []Beam {
	var all []*beamHyp
	for i := range g.subs {
		sub := &g.subs[i]
		if !sub.done {
			for _, b := range sub.beams {
				b.finish = FinishLength
				g.addHyp(sub, b)
			}
		}
		all = append(all, sub.hyps...)
	}
	slices.SortStableFunc(all, func(a, b *beamHyp) int { return cmp.Compare(b.score, a.score) })
	out := make([]Beam, 0, max(g.p.N, 1))
	for _, h := range all[:min(len(all), max(g.p.N, 1))] {
		text := h.text
		if h.stopString == "" {
			text = g.decode(h.gen)
		}
		out = append(out, Beam{Tokens: h.gen, Text: text, Logprobs: h.lps, Logprob: h.logprob, Score: h.score,
			Finish: h.finish, StopString: h.stopString, StopToken: h.stopToken})
	}
	return out
}
