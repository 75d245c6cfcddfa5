package runtime

import (
	"context"
	"fmt"
	"math"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"
)

// MaxEmbedInputs bounds the inputs of one Embed call.
const MaxEmbedInputs = 2048

// poolings are the poolings Embed computes.
var poolings = map[string]bool{config.PoolMean: true, config.PoolCLS: true, config.PoolLast: true, config.PoolNone: true,
	config.PoolRank: true}

// Pooling returns how the engine pools embeddings by default:
// Options.Pooling, else what the model's files say (config.PoolMean, ...),
// else the last token's vector, the one a decoder has read the whole
// input for.
func (e *Engine) Pooling() string {
	switch {
	case e.opt.Pooling != "":
		return e.opt.Pooling
	case e.cfg.Pooling != "":
		return e.cfg.Pooling
	}
	return config.PoolLast
}

// Embed runs each input through the model and returns its embedding: the
// final hidden states, after the output norm, pooled as pooling says
// (config.PoolMean, PoolCLS, PoolLast, or PoolNone for every token's
// vector one after the other), then through the model's projections
// after pooling if it has them (EmbeddingGemma's Dense modules), not
// normalised; or with config.PoolRank,
// the scores of a reranker's classification head, one per label, as
// llama.cpp's rank pooling gives them (see rankHead). Inputs are computed
// together, as many at once as the KV cache holds, and each gives the
// vector it gives alone. Embed waits until no sequence runs, and runs
// alone.
func (e *Engine) Embed(ctx context.Context, inputs [][]int32, pooling string) ([][]float32, error) {
	if err := e.checkEmbed(inputs, pooling); err != nil {
		return nil, err
	}
	rows := pooling
	var head *model.Head
	if pooling == config.PoolRank {
		var err error
		if head, rows, err = e.rankHead(); err != nil {
			return nil, err
		}
	}
	out := make([][]float32, len(inputs))
	err := e.runExclusive(ctx, func(j *submission) error { return e.embed(j, inputs, rows, out) })
	if err != nil {
		return nil, err
	}
	for i, h := range out {
		switch {
		case head != nil:
			out[i] = e.rankScores(head, h)
		case pooling == config.PoolNone:
			out[i] = e.projectRows(h)
		default:
			out[i] = e.model.Project(h)
		}
	}
	return out, nil
}

// projectRows applies the model's projections after pooling
// (model.Model.Project) to each token's vector of an unpooled embedding,
// as llama.cpp applies them to every token without pooling.
func (e *Engine) projectRows(h []float32) []float32 {
	hid := e.cfg.HiddenSize
	var out []float32
	for r := 0; r+hid <= len(h); r += hid {
		out = append(out, e.model.Project(h[r:r+hid])...)
	}
	return out
}

// checkEmbed validates an Embed call before it is queued.
func (e *Engine) checkEmbed(inputs [][]int32, pooling string) error {
	if !poolings[pooling] {
		return fmt.Errorf("%w: pooling %q (want mean, cls, last, none or rank)", ErrInvalidRequest, pooling)
	}
	if len(inputs) == 0 || len(inputs) > MaxEmbedInputs {
		return fmt.Errorf("%w: %d inputs to embed (1 to %d)", ErrInvalidRequest, len(inputs), MaxEmbedInputs)
	}
	for i, in := range inputs {
		if len(in) == 0 {
			return fmt.Errorf("%w: input %d is empty", ErrInvalidRequest, i)
		}
		if len(in) > e.opt.Ctx {
			return fmt.Errorf("%w: input %d has %d tokens and the context holds %d", ErrContextLength, i, len(in), e.opt.Ctx)
		}
		if err := e.fits(len(in)); err != nil {
			return fmt.Errorf("input %d: %w", i, err)
		}
		for k, id := range in {
			if id < 0 || int(id) >= e.cfg.VocabSize {
				return fmt.Errorf("%w: input %d token %d is id %d, outside the vocabulary of %d", ErrInvalidRequest, i, k, id, e.cfg.VocabSize)
			}
		}
	}
	return nil
}

// embed is the scheduler's side of Embed: groups of inputs whose caches
// the pool holds at once.
func (e *Engine) embed(j *submission, inputs [][]int32, pooling string, out [][]float32) error {
	limit := len(inputs)
	if e.model.StateElems() > 0 {
		limit = e.opt.Parallel // each cache holds a recurrent state too
	}
	for start := 0; start < len(inputs); {
		var caches []*kvcache.Cache
		for end := start; end < len(inputs) && len(caches) < limit; end++ {
			c := e.kv.Arena().NewCache()
			if !e.kv.Grow(c, len(inputs[end])) {
				e.kv.Drop(c)
				break
			}
			caches = append(caches, c)
		}
		if len(caches) == 0 {
			return e.noRoom(len(inputs[start]))
		}
		n := len(caches)
		err := e.embedGroup(j, inputs[start:start+n], caches, pooling, out[start:start+n])
		for _, c := range caches {
			e.kv.Drop(c)
		}
		if err != nil {
			return err
		}
		start += n
	}
	return nil
}

// embedGroup computes the inputs, each in its own cache, in forward passes
// of up to a batch of rows taken from the inputs in order, and pools
// every row's hidden state into out.
func (e *Engine) embedGroup(j *submission, inputs [][]int32, caches []*kvcache.Cache, pooling string, out [][]float32) error {
	hid := e.cfg.HiddenSize
	for i, in := range inputs {
		size := hid
		if pooling == config.PoolNone {
			size *= len(in)
		}
		out[i] = make([]float32, size)
	}
	type row struct{ in, pos int }
	rows := make([]row, 0, e.state.MaxRows())
	i, pos := 0, 0
	whole := e.model.Bidirectional()
	b := &e.batch
	for i < len(inputs) {
		if err := e.stopCause(j); err != nil {
			return err
		}
		b.Tokens, b.Pos, b.Cache, rows = b.Tokens[:0], b.Pos[:0], b.Cache[:0], rows[:0]
		for i < len(inputs) && len(rows) < e.state.MaxRows() {
			if whole && pos == 0 && len(rows) > 0 && len(rows)+len(inputs[i]) > e.state.MaxRows() {
				break // an encoder's input goes whole into the next pass
			}
			b.Tokens = append(b.Tokens, inputs[i][pos])
			b.Pos = append(b.Pos, pos)
			b.Cache = append(b.Cache, caches[i])
			rows = append(rows, row{i, pos})
			if pos++; pos == len(inputs[i]) {
				i, pos = i+1, 0
			}
		}
		h, err := e.state.Hidden(b)
		if err != nil {
			return fmt.Errorf("forward pass: %w", err)
		}
		for k, r := range rows {
			pool(out[r.in], h[k*hid:(k+1)*hid], r.pos, len(inputs[r.in]), pooling)
		}
	}
	return nil
}

// pool adds the hidden state h of position pos of an input of n tokens to
// its embedding v.
func pool(v, h []float32, pos, n int, pooling string) {
	switch pooling {
	case config.PoolMean:
		inv := 1 / float32(n)
		for d, x := range h {
			v[d] += x * inv
		}
	case config.PoolCLS:
		if pos == 0 {
			copy(v, h)
		}
	case config.PoolLast:
		if pos == n-1 {
			copy(v, h)
		}
	case config.PoolNone:
		copy(v[pos*len(h):], h)
	}
}

// Normalize scales v to unit Euclidean length, as embeddings are served;
// a zero vector stays zero.
func Normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}
