package model

import (
	"fmt"
	"math"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// linSeq is one sequence of a batch, for the linear-attention layers.
type linSeq struct {
	cache *kvcache.Cache
	state []float32 // its recurrent state
	pos0  int       // the position of its first row
	first int       // its rows are linJob.order[first : first+count]
	count int
}

// linJob runs the Gated DeltaNet layers of a forward pass: the rows of a
// batch grouped by sequence (each sequence's state is updated in position
// order), and the layer under way, split over the pool.
type linJob struct {
	s     *State
	seqOf []int // per row, its sequence
	order []int // rows grouped by sequence, in position order
	seqs  []linSeq

	qkv, conv, z, beta, alpha, out []float32 // per row: projections, convolved q/k/v, the read of the state
	ones                           []float32 // ConvDim ones: SiLUMul's other factor for a plain SiLU

	// The layer under way.
	l      *DeltaNet
	b      *Batch
	n      int
	chunk  int
	convFn func(int)          // j.convTask, bound once
	ruleFn func(int)          // j.ruleTask, bound once
	free   chan *chunkScratch // the chunked form's buffers, one per worker
}

// init allocates the buffers for batches of n rows.
func (j *linJob) init(s *State, n int) {
	d := s.m.Config.DeltaNet
	conv, vd, h := d.ConvDim(), d.ValueHeads*d.ValueDim, d.ValueHeads
	j.s = s
	j.seqOf, j.order, j.seqs = make([]int, n), make([]int, n), make([]linSeq, 0, n)
	j.qkv, j.conv = make([]float32, n*conv), make([]float32, n*conv)
	j.z, j.out = make([]float32, n*vd), make([]float32, n*vd)
	j.beta, j.alpha = make([]float32, n*h), make([]float32, n*h)
	j.ones = make([]float32, conv)
	for i := range j.ones {
		j.ones[i] = 1
	}
	j.convFn, j.ruleFn = j.convTask, j.ruleTask
	j.free = make(chan *chunkScratch, s.pool.Threads())
	for range s.pool.Threads() {
		j.free <- newChunkScratch(d.KeyDim, d.ValueDim)
	}
}

// floats returns the scratch floats the job holds.
func (j *linJob) floats() int {
	if j.s == nil {
		return 0
	}
	n := len(j.qkv) + len(j.conv) + len(j.z) + len(j.out) + len(j.beta) + len(j.alpha) + len(j.ones)
	d := j.s.m.Config.DeltaNet
	return n + cap(j.free)*chunkFloats(d.KeyDim, d.ValueDim)
}

// group sorts the rows of b by sequence and checks that each sequence
// goes on where its recurrent state stopped (or starts over at position
// 0) with consecutive positions: a state cannot go back.
func (j *linJob) group(b *Batch) error {
	j.seqs = j.seqs[:0]
	for i, c := range b.Cache {
		k := -1
		for x := range j.seqs {
			if j.seqs[x].cache == c {
				k = x
				break
			}
		}
		p := b.Pos[i]
		if k < 0 {
			st, done := c.State()
			if st == nil || len(st) < j.s.m.stateElems {
				return fmt.Errorf("%w: row %d has no recurrent state of %d values", ErrBatch, i, j.s.m.stateElems)
			}
			if p != 0 && p != done {
				return fmt.Errorf("%w: row %d at position %d of a sequence whose recurrent state is at %d", ErrBatch, i, p, done)
			}
			k = len(j.seqs)
			j.seqs = append(j.seqs, linSeq{cache: c, state: st, pos0: p})
		} else if q := &j.seqs[k]; p != q.pos0+q.count {
			return fmt.Errorf("%w: row %d at position %d where its sequence's next is %d", ErrBatch, i, p, q.pos0+q.count)
		}
		j.seqs[k].count++
		j.seqOf[i] = k
	}
	off := 0
	for k := range j.seqs {
		j.seqs[k].first, off = off, off+j.seqs[k].count
		j.seqs[k].count = 0
	}
	for i := range b.Cache {
		q := &j.seqs[j.seqOf[i]]
		j.order[q.first+q.count] = i
		q.count++
	}
	return nil
}

// advance records the positions the batch added to every state.
func (j *linJob) advance() {
	for _, q := range j.seqs {
		q.cache.SetStateLen(q.pos0 + q.count)
	}
}

// linear runs the Gated DeltaNet of layer li on the n rows of s.xn and
// leaves its output in s.xn. It returns the rows left: on the last layer,
// only the output rows, moved to the front.
func (s *State) linear(li int, b *Batch, n int) int {
	j, l := &s.lin, s.m.Layers[li].Linear
	d := s.m.Config.DeltaNet
	conv, vd, h := d.ConvDim(), d.ValueHeads*d.ValueDim, d.ValueHeads
	mats := [...]*kernels.Matrix{l.QKV, l.Z, l.Beta, l.Alpha}
	s.pool.MatMuls(mats[:], s.xn, n, [][]float32{j.qkv[:n*conv], j.z[:n*vd], j.beta[:n*h], j.alpha[:n*h]})
	j.l, j.b, j.n = l, b, n
	j.chunk = max(1, n/(4*s.pool.Threads()))
	s.pool.Parallel((n+j.chunk-1)/j.chunk, j.convFn)
	for k := range j.seqs {
		j.keepConv(&j.seqs[k])
	}
	s.pool.Parallel(len(j.seqs)*h, j.ruleFn)
	j.l, j.b = nil, nil
	s.pool.MatMul(l.Out, j.out[:n*vd], n, s.xn)
	if li == len(s.m.Layers)-1 && len(b.Out) < n && !b.AllHidden {
		hid := s.m.Config.HiddenSize
		for k, r := range b.Out {
			copy(s.xn[k*hid:(k+1)*hid], s.xn[r*hid:(r+1)*hid])
		}
		s.keepRows(&s.m.Layers[li], b.Out)
		return len(b.Out)
	}
	return n
}

// input returns the q/k/v projections at position p of sequence q: a row
// of the batch, a conv input kept in its state, or nil before position 0.
func (j *linJob) input(q *linSeq, p int) []float32 {
	d := j.s.m.Config.DeltaNet
	c, k := d.ConvDim(), d.ConvKernel
	switch {
	case p >= q.pos0:
		r := j.order[q.first+p-q.pos0]
		return j.qkv[r*c : (r+1)*c]
	case p >= 0:
		t := p - (q.pos0 - (k - 1))
		st := q.state[j.l.StateOff:]
		return st[t*c : (t+1)*c]
	}
	return nil
}

// convTask convolves one chunk of rows: the causal depthwise convolution
// over each row's position and the k-1 before it, SiLU, then L2-normalised
// queries (scaled by 1/√KeyDim) and keys.
func (j *linJob) convTask(t int) {
	d := j.s.m.Config.DeltaNet
	c, k := d.ConvDim(), d.ConvKernel
	kd := d.KeyHeads * d.KeyDim
	qscale := float32(1 / math.Sqrt(float64(d.KeyDim)))
	for i := t * j.chunk; i < min((t+1)*j.chunk, j.n); i++ {
		q := &j.seqs[j.seqOf[i]]
		out := j.conv[i*c : (i+1)*c]
		clear(out)
		p := j.b.Pos[i]
		for tap := range k {
			in := j.input(q, p-(k-1)+tap)
			if in == nil {
				continue
			}
			w := j.l.Conv[tap*c : (tap+1)*c]
			for ch, x := range in {
				out[ch] += w[ch] * x
			}
		}
		kernels.SiLUMul(out, j.ones[:c])
		for o := 0; o < 2*kd; o += d.KeyDim {
			l2norm(out[o : o+d.KeyDim])
			if o < kd {
				kernels.Scale(out[o:o+d.KeyDim], qscale)
			}
		}
	}
}

// l2norm scales x to unit length, as transformers' l2norm (ε 1e-6) does.
func l2norm(x []float32) {
	kernels.Scale(x, float32(1/math.Sqrt(float64(kernels.Dot(x, x))+1e-6)))
}

// keepConv stores in q's state the conv inputs of its last k-1 positions,
// once every row of the batch is convolved.
func (j *linJob) keepConv(q *linSeq) {
	d := j.s.m.Config.DeltaNet
	c, k := d.ConvDim(), d.ConvKernel
	st := q.state[j.l.StateOff:]
	end := q.pos0 + q.count
	for t := range k - 1 {
		dst := st[t*c : (t+1)*c]
		// Slots are refilled in order from the same or later slots.
		if in := j.input(q, end-(k-1)+t); in != nil {
			copy(dst, in)
		} else {
			clear(dst)
		}
	}
}

// ruleTask runs the gated delta rule of one value head of one sequence
// over its rows in order, then the gated norm of each row's read: the
// chunked form for a long run of rows (a prompt), else the recurrent one.
func (j *linJob) ruleTask(t int) {
	s, d := j.s, j.s.m.Config.DeltaNet
	hv := d.ValueHeads
	q, h := &j.seqs[t/hv], t%hv
	kh := h / (hv / d.KeyHeads) // consecutive value heads share a key head
	if s.m.tiledHeads {
		kh = h % d.KeyHeads
	}
	c, kd, dk, dv := d.ConvDim(), d.KeyHeads*d.KeyDim, d.KeyDim, d.ValueDim
	off := j.l.StateOff + (d.ConvKernel-1)*c + h*dv*dk
	r := headRows{j: j, q: q, h: h, kh: kh, S: q.state[off : off+dv*dk], qo: kh * dk, ko: kd + kh*dk, vo: 2*kd + h*dv}
	if q.pos0 == 0 {
		clear(r.S)
	}
	if q.count >= minChunkRows {
		sc := j.takeScratch()
		r.chunked(sc)
		select {
		case j.free <- sc:
		default:
		}
	} else {
		r.recurrent()
	}
	vd := hv * dv
	for x := range q.count {
		i := j.order[q.first+x]
		o := j.out[i*vd+h*dv : i*vd+(h+1)*dv]
		kernels.RMSNorm(o, o, j.l.Norm, s.m.Config.RMSNormEps)
		z := j.z[i*vd+h*dv : i*vd+(h+1)*dv]
		kernels.SiLUMul(z, o) // the gate's last use: z becomes the gated output
		copy(o, z)
	}
}

// takeScratch returns a worker's buffers of the chunked form: at most one
// per worker is ever in use.
func (j *linJob) takeScratch() *chunkScratch {
	select {
	case sc := <-j.free:
		return sc
	default:
		d := j.s.m.Config.DeltaNet
		return newChunkScratch(d.KeyDim, d.ValueDim)
	}
}

// softplus is log(1+eˣ), linear above 20 as torch computes it.
func softplus(x float32) float32 {
	if x > 20 {
		return x
	}
	return float32(math.Log1p(math.Exp(float64(x))))
}
