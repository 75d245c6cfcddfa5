package server

import (
	"sort"
	"strings"

	"github.com/mlxrun/mlx/server/openai"
)

// completionAggregator builds a text_completion from its stream's chunks,
// keeping the best n of best_of sequences per prompt.
type completionAggregator struct {
	gen     *completionGen
	head    openai.Completion
	texts   map[int]*strings.Builder
	choices map[int]*openai.CompletionChoice
	annotations
}

func (a *completionAggregator) send(c *openai.Completion) error {
	if a.choices == nil {
		a.choices, a.texts = map[int]*openai.CompletionChoice{}, map[int]*strings.Builder{}
	}
	a.head.ID, a.head.Created, a.head.Model, a.head.SystemFingerprint = c.ID, c.Created, c.Model, c.SystemFingerprint
	if c.Usage != nil {
		u := *c.Usage
		a.head.Usage = &u
	}
	for _, ch := range c.Choices {
		ac := a.choices[ch.Index]
		if ac == nil {
			ac = &openai.CompletionChoice{Index: ch.Index}
			a.choices[ch.Index], a.texts[ch.Index] = ac, &strings.Builder{}
		}
		a.texts[ch.Index].WriteString(ch.Text)
		if ch.Logprobs != nil {
			if ac.Logprobs == nil {
				ac.Logprobs = &openai.CompletionLogprobs{}
			}
			ac.Logprobs.Append(ch.Logprobs)
		}
		if ch.FinishReason != nil {
			ac.FinishReason, ac.StopReason = ch.FinishReason, ch.StopReason
		}
	}
	return nil
}

// completionResponse is a text_completion with the annotations extension.
type completionResponse struct {
	openai.Completion
	Annotations []annotation `json:"annotations,omitempty"`
}

func (a *completionAggregator) result() any {
	out := a.head
	out.Object = openai.ObjectCompletion
	g := a.gen
	out.Choices = make([]openai.CompletionChoice, 0, len(g.prompts)*g.n)
	for p, cp := range g.prompts {
		var promptLP openai.PromptLogprobs
		if g.req.PromptLogprobs != nil {
			promptLP = g.tokens.promptLogprobs(cp.logprobs, *g.req.PromptLogprobs)
		}
		// The sequences of prompt p, best first by total log-probability.
		seqs := make([]int, g.best)
		for j := range seqs {
			seqs[j] = p*g.best + j
		}
		if g.best > g.n {
			sort.SliceStable(seqs, func(x, y int) bool { return g.seqs[seqs[x]].score > g.seqs[seqs[y]].score })
		}
		for rank, i := range seqs[:g.n] {
			ch := a.choices[i]
			if ch == nil {
				ch = &openai.CompletionChoice{}
			}
			c := *ch
			c.Index = p*g.n + rank
			if b := a.texts[i]; b != nil {
				c.Text = b.String()
			}
			if g.req.Logprobs == nil {
				c.Logprobs = nil // computed only to rank best_of
			}
			c.PromptLogprobs = promptLP
			out.Choices = append(out.Choices, c)
		}
	}
	return completionResponse{Completion: out, Annotations: a.annotations.list}
}
