package runtime

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"
)

// MTPDraft is the SpecOptions.Draft value that drafts with the model's own
// multi-token prediction layer (Qwen3.5's mtp.* tensors) instead of a
// draft model.
const MTPDraft = "mtp"

// mtpDrafter proposes tokens with the model's multi-token prediction
// layer: at position t it reads the token at t+1 and the main model's
// final hidden state at t, and guesses the token at t+2; fed its own
// guess and output hidden state, it guesses on. It keeps a KV cache of its
// own per sequence. It is used on the scheduler goroutine only.
type mtpDrafter struct {
	m     *model.Model
	state *model.State
	kv    *kvcache.Pool
	vocab int
	hid   int
	batch model.Batch
	h     []float32 // the hidden state a guess is fed with
	probs []float32 // scratch of best's softmax
}

// mtpSeq is a sequence's state in the MTP layer: its cache holds the rows
// of positions before done; hidden holds the main model's final hidden
// states of positions done, done+1, … as far as they are known.
type mtpSeq struct {
	cache  *kvcache.Cache
	done   int
	hidden []float32
}

// loadMTP binds the MTP layer of the engine's model from src.
func loadMTP(e *Engine, src model.Source) (*mtpDrafter, error) {
	m, err := model.BuildMTP(e.cfg, src)
	if err != nil {
		return nil, fmt.Errorf("%w: --draft %s: %w", ErrOptions, MTPDraft, err)
	}
	opt := e.opt
	ctx := opt.Ctx + MaxSpecTokens
	per := (ctx + BlockSize - 1) / BlockSize
	blockBytes := kvcache.BlockBytesShapes(opt.KVType, m.KVShapes(), BlockSize)
	blocks := int(min(int64(per*opt.Parallel), kvcache.MaxBytes/blockBytes))
	arena, err := kvcache.NewArenaShapes(opt.KVType, m.KVShapes(), BlockSize, blocks)
	if err != nil {
		return nil, fmt.Errorf("MTP layer: %w", err)
	}
	d := &mtpDrafter{m: m, kv: kvcache.NewPool(arena), vocab: min(e.cfg.VocabSize, e.tok.VocabSize()), hid: e.cfg.HiddenSize}
	if d.state, err = m.NewState(e.pool, min(draftRows, opt.Batch), 1, ctx); err != nil {
		return nil, fmt.Errorf("MTP layer: %w", err)
	}
	return d, nil
}

// keep stores the main model's hidden states of n rows at positions pos…
// (rows holds n·hidden values). Positions before done are not needed; a
// first position past what is known starts the sequence over there (its
// earlier positions came from the prefix cache, with no hidden state).
func (s *mtpSeq) keep(rows []float32, pos, hid int) {
	known := s.done + len(s.hidden)/hid
	if pos > known {
		s.done, s.hidden, known = pos, s.hidden[:0], pos
	}
	for k := range len(rows) / hid {
		p := pos + k
		if p < s.done {
			continue
		}
		row := rows[k*hid : (k+1)*hid]
		if i := (p - s.done) * hid; i < len(s.hidden) {
			copy(s.hidden[i:], row)
		} else {
			s.hidden = append(s.hidden, row...)
		}
	}
}

// settle forgets the hidden states of positions from n on: rows of
// drafted tokens that verification rejected.
func (s *mtpSeq) settle(n, hid int) {
	s.hidden = s.hidden[:max(0, min(len(s.hidden), (n-s.done)*hid))]
}

// propose runs the MTP rows of s's positions up to the last of tokens and
// guesses up to k tokens to follow tokens, into buf, stopping after a
// guess of probability below confidence. It returns buf empty when the
// hidden states of the earlier positions are not known.
func (d *mtpDrafter) propose(s *mtpSeq, tokens []int32, k int, confidence float64, buf []int32) ([]int32, error) {
	buf = buf[:0]
	last := len(tokens) - 1
	if s.done+len(s.hidden)/d.hid < last || s.done >= last || k <= 0 || !d.kv.Grow(s.cache, last+k-1) {
		return buf, nil
	}
	logits, err := d.catchUp(s, tokens, last)
	if err != nil {
		return buf, err
	}
	for {
		id, sure := pick(logits, d.vocab, confidence, &d.probs)
		buf = append(buf, id)
		if len(buf) == k || !sure {
			return buf, nil
		}
		d.h = append(d.h[:0], d.state.Hiddens()...)
		if logits, err = d.forward(s.cache, buf[len(buf)-1:], last+len(buf)-1, d.h); err != nil {
			return buf, err
		}
	}
}

// catchUp runs s's MTP rows up to position end (whose hidden states are
// kept, and whose next tokens are in tokens) in chunks of the state's
// rows, and returns the logits of the last row. The cache has room.
func (d *mtpDrafter) catchUp(s *mtpSeq, tokens []int32, end int) ([]float32, error) {
	var logits []float32
	var err error
	for s.done < end {
		n := min(end-s.done, d.state.MaxRows())
		if logits, err = d.forward(s.cache, tokens[s.done+1:s.done+1+n], s.done, s.hidden[:n*d.hid]); err != nil {
			return nil, err
		}
		s.hidden = append(s.hidden[:0], s.hidden[n*d.hid:]...)
		s.done += n
	}
	return logits, nil
}

// drain runs the full chunks of s's kept rows whose next tokens are known,
// so that a long prompt's hidden states are not all kept until its first
// proposal. It reports false when the MTP layer cannot go on.
func (d *mtpDrafter) drain(s *mtpSeq, tokens []int32) bool {
	rows := d.state.MaxRows()
	end := min(s.done+len(s.hidden)/d.hid, len(tokens)-1)
	end = s.done + (end-s.done)/rows*rows
	if end <= s.done {
		return true
	}
	if !d.kv.Grow(s.cache, end) {
		return false
	}
	_, err := d.catchUp(s, tokens, end)
	return err == nil
}

// forward runs rows of tokens at positions pos… with the main model's
// hidden states and returns the logits of the last.
func (d *mtpDrafter) forward(c *kvcache.Cache, tokens []int32, pos int, hidden []float32) ([]float32, error) {
	fillBatch(&d.batch, c, tokens, pos)
	d.batch.Hidden = hidden
	logits, err := d.state.Forward(&d.batch)
	if err != nil {
		return nil, fmt.Errorf("MTP layer: forward pass: %w", err)
	}
	return logits, nil
}

// mtpSeqOf returns r's MTP state, made on first use; nil when r does not
// draft with the MTP layer.
func (e *Engine) mtpSeqOf(r *runningSeq) *mtpSeq {
	sr := e.runOf(r)
	if e.spec.mtp == nil || sr.p.draft == 0 {
		return nil
	}
	if sr.mseq == nil {
		sr.mseq = &mtpSeq{cache: e.spec.mtp.kv.Arena().NewCache()}
	}
	return sr.mseq
}

// keepHidden hands the MTP layer the main model's hidden states of the
// batch just computed: the rows of each decoding sequence (its uncomputed
// tokens, then its drafted ones), then those of the prompt chunk. It runs
// before the sequences' done counts move.
func (e *Engine) keepHidden(dec []*runningSeq, p *runningSeq, chunk int) {
	hs, hid := e.state.Hiddens(), e.cfg.HiddenSize
	i := 0
	for _, r := range dec {
		n := len(r.tokens) - r.done + len(e.drafted(r))
		if s := e.mtpSeqOf(r); s != nil {
			s.keep(hs[i*hid:(i+n)*hid], r.done, hid)
		}
		i += n
	}
	if chunk > 0 {
		if s := e.mtpSeqOf(p); s != nil {
			s.keep(hs[i*hid:(i+chunk)*hid], p.done, hid)
			if !e.spec.mtp.drain(s, p.tokens) {
				e.dropMTP(p)
			}
		}
	}
}

// dropMTP ends r's drafting with the MTP layer (it decodes without
// speculation from then on).
func (e *Engine) dropMTP(r *runningSeq) {
	sr := e.spec.runs[r]
	e.spec.mtp.kv.Drop(sr.mseq.cache)
	sr.mseq, sr.p.draft = nil, 0
}

// mtpFor asks the MTP layer for k tokens to follow r; none when it fails
// (the sequence then decodes without speculation).
func (e *Engine) mtpFor(r *runningSeq, sr *specRun, k int) []int32 {
	out, err := e.spec.mtp.propose(sr.mseq, r.tokens, k, sr.p.confidence, sr.draft)
	if err != nil {
		e.dropMTP(r)
		return out[:0]
	}
	return out
}
