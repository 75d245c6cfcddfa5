package runtime

import (
	"slices"

	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/sample"
)

// textDecoder turns generated ids into complete UTF-8 text deltas.
type textDecoder interface {
	Next(id int32) string
	Flush() string
}

// samplingState is the sampling and text state of one running request.
type samplingState struct {
	sampler  *sample.Sampler
	stop     *sample.StopMatcher
	dec      textDecoder
	logprobs bool
	match    *grammar.Matcher // nil without a constraint
	mask     []uint64
}

// newSamplingState builds the sampler, stop matcher, text decoder and
// grammar matcher of req.
func (e *Engine) newSamplingState(req *Request) (*samplingState, error) {
	p := req.Params
	s, err := sample.New(p, e.cfg.VocabSize, e.eos)
	if err != nil {
		return nil, err
	}
	if err := s.AddPrompt(req.Prompt); err != nil {
		return nil, err
	}
	stop, err := sample.NewStopMatcher(p.Stop, p.IncludeStopStrInOutput)
	if err != nil {
		return nil, err
	}
	seq := &samplingState{sampler: s, stop: stop, dec: newDecoder(e.tok, req.KeepSpecial), logprobs: p.Logprobs}
	if req.Constraint != nil {
		if seq.match, err = grammar.NewMatcher(req.Constraint, e.grammarVocab()); err != nil {
			return nil, err
		}
	}
	return seq, nil
}

func newDecoder(t *tokenizer.Tokenizer, keepSpecial bool) textDecoder {
	d := t.NewStreamDecoder()
	d.SkipSpecial = !keepSpecial
	return d
}

// step samples the next token from logits and returns its event; done
// reports that the sequence ended (res.Finish and the stop fields are set).
func (s *samplingState) step(logits []float32, res *Result) (ev Event, done bool, err error) {
	if s.match != nil {
		if done, err := s.constrain(logits, res); done || err != nil {
			return Event{}, true, err
		}
	}
	r, err := s.sampler.Sample(logits)
	if err != nil {
		return Event{}, true, err
	}
	res.Usage.Completion++
	id := r.Token
	if s.sampler.IsStop(id) {
		res.Finish, res.StopToken = FinishStop, id
		return Event{}, true, nil
	}
	if s.match != nil {
		if err := s.match.Accept(int(id)); err != nil {
			return Event{}, true, err
		}
	}
	ev.Tokens = []int32{id}
	if s.logprobs {
		ev.Logprobs = []Logprob{{ID: id, Logprob: r.Logprob, Top: slices.Clone(r.Top)}}
	}
	text, stopped := s.stop.Feed(s.dec.Next(id))
	ev.Text = text
	if stopped {
		res.Finish = FinishStop
		res.StopString, _ = s.stop.Matched()
		return ev, true, nil
	}
	return ev, false, nil
}

// flush adds to the last event the text held back by the decoder and the
// stop matcher, unless a stop string ended the sequence (then what follows
// it is dropped). The decoder's held bytes may still complete a stop string.
func (s *samplingState) flush(ev *Event, res *Result) {
	if res.StopString != "" {
		return
	}
	text, stopped := s.stop.Feed(s.dec.Flush())
	ev.Text += text
	if stopped {
		res.Finish = FinishStop
		res.StopString, _ = s.stop.Matched()
		return
	}
	ev.Text += s.stop.Flush()
}
