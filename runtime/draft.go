package runtime

import (
	"context"
	"fmt"

	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"
)

// draftRows is the most rows of one draft forward pass: a sequence's
// first drafting computes its whole prompt in chunks of it.
const draftRows = 256

// drafter is a small model that proposes tokens greedily for the main
// model to check. It is used on the scheduler goroutine only, with the
// engine's compute workers.
type drafter struct {
	path  string
	m     *model.Model
	state *model.State
	kv    *kvcache.Pool
	vocab int // proposals lie below it: both models have those ids
	ctx   int // the most positions of a draft sequence
	batch model.Batch
	probs []float32 // scratch of the softmax of a row of logits
	close func() error
}

// draftSeq is a sequence's state in the draft model: the tokens whose
// keys and values its cache holds, from position 0.
type draftSeq struct {
	cache  *kvcache.Cache
	tokens []int32
}

// loadDrafter opens the draft model at path for engine e (its
// configuration, tokenizer, options and workers set), refusing one whose
// vocabulary differs from the model's.
func loadDrafter(ctx context.Context, e *Engine, path string) (d *drafter, err error) {
	o, err := openRef(path)
	if err != nil {
		return nil, fmt.Errorf("draft model: %w", err)
	}
	defer func() {
		if err != nil {
			o.close()
		}
	}()
	tok, err := tokenizer.Load(path)
	if err != nil {
		return nil, fmt.Errorf("%w: draft model %s: %w", ErrOptions, path, err)
	}
	if err := sameVocab(tok, e.tok); err != nil {
		return nil, fmt.Errorf("%w: draft model %s cannot propose tokens for %s: %w", ErrOptions, path, e.info.Path, err)
	}
	m, err := model.Build(o.cfg, o.src)
	if err != nil {
		return nil, fmt.Errorf("draft model %s: %w", path, err)
	}
	if m.StateElems() > 0 {
		// propose goes back over the tokens the model rejected, which a
		// recurrent state cannot.
		return nil, fmt.Errorf("%w: draft model %s (%s) has linear-attention layers, whose recurrent state cannot go back over rejected tokens: use a model without them", ErrOptions, path, o.cfg.Arch)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opt := e.opt
	d = &drafter{path: path, m: m, close: o.close, vocab: min(o.cfg.VocabSize, e.cfg.VocabSize, tok.VocabSize()),
		ctx: min(opt.Ctx+MaxSpecTokens, o.cfg.ContextLength)}
	if err := opt.KVType.Fits(m.KVShapes()); err != nil {
		return nil, fmt.Errorf("draft model %s: %w", path, err)
	}
	per := (d.ctx + BlockSize - 1) / BlockSize
	blockBytes := kvcache.BlockBytesShapes(opt.KVType, m.KVShapes(), BlockSize)
	blocks := int(min(int64(per*opt.Parallel), kvcache.MaxBytes/blockBytes))
	arena, err := kvcache.NewArenaShapes(opt.KVType, m.KVShapes(), BlockSize, blocks)
	if err != nil {
		return nil, fmt.Errorf("draft model %s: %w", path, err)
	}
	d.kv = kvcache.NewPool(arena)
	if d.state, err = m.NewState(e.pool, min(draftRows, opt.Batch), 1, d.ctx); err != nil {
		return nil, fmt.Errorf("draft model %s: %w", path, err)
	}
	return d, nil
}

// sameVocab reports how two tokenizers differ, nil when they map every id
// to the same token.
func sameVocab(draft, main *tokenizer.Tokenizer) error {
	if a, b := draft.VocabSize(), main.VocabSize(); a != b {
		return fmt.Errorf("its vocabulary has %d tokens, the model's %d", a, b)
	}
	for id := range main.VocabSize() {
		if a, b := draft.Token(id), main.Token(id); a != b {
			return fmt.Errorf("token %d is %q in its vocabulary and %q in the model's", id, a, b)
		}
	}
	return nil
}

// newSeq returns an empty draft sequence.
func (d *drafter) newSeq() *draftSeq { return &draftSeq{cache: d.kv.Arena().NewCache()} }

// drop frees a draft sequence's cache, keeping what it computed in the
// draft model's prefix cache: a later request that begins the same way
// (the next turn of a chat) skips that part.
func (d *drafter) drop(s *draftSeq) { d.kv.Release(s.cache, s.tokens, len(s.tokens)) }

// propose drafts up to k tokens to follow tokens, into buf: greedily,
// stopping after a token of probability below confidence. The draft
// cache keeps what it computed that tokens still begins with. It returns
// buf empty when the draft model cannot follow (a token outside its
// vocabulary, no room left).
func (d *drafter) propose(s *draftSeq, tokens []int32, k int, confidence float64, buf []int32) ([]int32, error) {
	buf = buf[:0]
	k = min(k, d.ctx-len(tokens))
	if len(s.cache.Table()) == 0 {
		s.tokens = append(s.tokens[:0], tokens[:d.kv.Match(s.cache, tokens, len(tokens)-1)]...)
	}
	c := min(commonPrefix(s.tokens, tokens), len(tokens)-1) // the last token is computed again, for its logits
	s.tokens = s.tokens[:c]
	if k <= 0 || !d.kv.Grow(s.cache, len(tokens)+k-1) {
		return buf, nil
	}
	for _, id := range tokens[c:] {
		if int(id) >= d.m.Config.VocabSize {
			return buf, nil
		}
	}
	var logits []float32
	var err error
	for c < len(tokens) {
		n := min(len(tokens)-c, d.state.MaxRows())
		if logits, err = d.forward(s.cache, tokens[c:c+n], c); err != nil {
			return buf, err
		}
		s.tokens = append(s.tokens, tokens[c:c+n]...)
		c += n
	}
	for {
		id, sure := pick(logits, d.vocab, confidence, &d.probs)
		buf = append(buf, id)
		if len(buf) == k || !sure {
			return buf, nil
		}
		if logits, err = d.forward(s.cache, buf[len(buf)-1:], len(s.tokens)); err != nil {
			return buf, err
		}
		s.tokens = append(s.tokens, id)
	}
}

// forward computes tokens at positions pos… of cache c and returns the
// logits of the last.
func (d *drafter) forward(c *kvcache.Cache, tokens []int32, pos int) ([]float32, error) {
	fillBatch(&d.batch, c, tokens, pos)
	logits, err := d.state.Forward(&d.batch)
	if err != nil {
		return nil, fmt.Errorf("draft model %s: forward pass: %w", d.path, err)
	}
	return logits, nil
}

// fillBatch sets b to tokens at positions pos… of cache c, with the
// logits of the last.
func fillBatch(b *model.Batch, c *kvcache.Cache, tokens []int32, pos int) {
	b.Tokens, b.Pos, b.Cache = append(b.Tokens[:0], tokens...), b.Pos[:0], b.Cache[:0]
	for i := range tokens {
		b.Pos = append(b.Pos, pos+i)
		b.Cache = append(b.Cache, c)
	}
	b.Out = append(b.Out[:0], len(tokens)-1)
}

// pick returns the most probable of the first n ids of logits and whether
// its probability reaches confidence (always, without computing it, when
// confidence is 0), computed in scratch.
func pick(logits []float32, n int, confidence float64, scratch *[]float32) (int32, bool) {
	if confidence <= 0 {
		id, _ := best(logits, n, nil)
		return id, true
	}
	id, p := best(logits, n, scratch)
	return id, p >= confidence
}

// best returns the most probable of the first n ids of logits and, when
// scratch is not nil, its softmax probability over all of them (else 1),
// computed in scratch, which grows to the size of logits.
func best(logits []float32, n int, scratch *[]float32) (int32, float64) {
	id := 0
	for i, v := range logits[:n] {
		if v > logits[id] {
			id = i
		}
	}
	if scratch == nil {
		return int32(id), 1
	}
	x := append((*scratch)[:0], logits...)
	*scratch = x
	top := logits[id]
	for i := range x {
		x[i] -= top
	}
	kernels.Exp(x)
	var sum float64
	for _, v := range x {
		sum += float64(v)
	}
	return int32(id), 1 / sum
}
