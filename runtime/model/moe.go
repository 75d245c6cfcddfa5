package model

import (
	"math"
	"sync"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// Router is how a sparse layer weighs the experts it picks for a token.
type Router uint8

// The routers.
const (
	// SoftmaxTopK takes the softmax over every expert's logit, then the
	// k largest probabilities, renormalised to sum to 1 when
	// Blocks.NormTopK is set (Qwen3-MoE, Qwen2-MoE).
	SoftmaxTopK Router = iota
	// TopKSoftmax takes the k largest logits, then the softmax over
	// them (gpt-oss).
	TopKSoftmax
)

// Expert is one gated MLP of a mixture.
type Expert struct {
	Gate, Up, Down             *kernels.Matrix // [ff, hidden], [ff, hidden], [hidden, ff]
	GateBias, UpBias, DownBias []float32       // nil without biases
}

// MoE is the mixture-of-experts MLP of a sparse layer. The experts are
// bound unpacked, views of the model file, and packed for the CPU's tile
// kernels the first time a token is routed to them: memory follows the
// experts in use, where packing all of them at load would make the whole
// mixture resident.
type MoE struct {
	Router     *kernels.Matrix // [experts, hidden]
	RouterBias []float32       // [experts], nil without
	Experts    []Expert
	// Shared is an expert every token uses, nil without; its output is
	// scaled by sigmoid(SharedGate·x).
	Shared     *Expert
	SharedGate []float32 // [hidden]

	// RouterScale, when set, makes the router read the residual rather
	// than the experts' input: normalised without weight, times
	// RouterScale (which holds Gemma 4's 1/√hidden); ExpertScale then
	// multiplies each chosen expert's weight (Blocks.MoEBeside).
	RouterScale, ExpertScale []float32

	packOnce []sync.Once // one per expert; nil: the experts stay unpacked
	// fill, when set, writes expert x's weights into its matrices, which
	// were bound with their memory allocated but not yet written: done
	// once, before the expert's first use (a checkpoint's layout the
	// kernels do not read, converted only for the experts in use).
	fill func(x int)
}

// ready packs expert x, the first time it is used, and gives back the
// file's pages of the matrices packed (their rows are read from the copy).
func (l *MoE) ready(x int) {
	if l.packOnce == nil {
		return
	}
	l.packOnce[x].Do(func() {
		if l.fill != nil {
			l.fill(x)
		}
		e := &l.Experts[x]
		for _, w := range [...]*kernels.Matrix{e.Gate, e.Up, e.Down} {
			if w.Pack() {
				// Pages left mapped are only memory counted twice.
				_ = releaseFile(w)
			}
		}
	})
}

// moeScratch is the memory of the sparse layers' forward pass, for up to
// rows token rows of k experts each.
type moeScratch struct {
	logits []float32 // rows × experts router logits
	choice []int32   // rows × k chosen experts
	weight []float32 // rows × k their weights
	slot   []int32   // rows × k: where each choice's row is in xg and yg
	start  []int32   // experts+1: the first gathered row of each expert
	xg, yg []float32 // rows × k gathered input rows and expert outputs, grouped by expert
	gate   []float32 // rows × k × expert ff
	up     []float32
	// The experts a layer's rows use, and their products.
	used         []int
	gateUp, down []kernels.RowProduct
	// A mixture beside the dense MLP: the router's input rows and the
	// dense MLP's normalised output.
	rin, dense []float32
	// The shared expert: its gate per row, and its MLP's memory.
	sgate        []float32
	sg, su, sout []float32
}

// init allocates the scratch for maxRows rows of model m, which has at least
// one sparse layer.
func (ms *moeScratch) init(m *Model, maxRows int) {
	c := m.Config
	e, hid, nk := c.MoE.Experts, c.HiddenSize, maxRows*c.MoE.TopK
	ms.logits = make([]float32, maxRows*e)
	ms.choice, ms.weight, ms.slot = make([]int32, nk), make([]float32, nk), make([]int32, nk)
	ms.start = make([]int32, e+1)
	ms.xg, ms.yg = make([]float32, nk*hid), make([]float32, nk*hid)
	ms.gate, ms.up = make([]float32, nk*c.MoE.FFNSize), make([]float32, nk*c.MoE.FFNSize)
	ms.used = make([]int, 0, e)
	ms.gateUp, ms.down = make([]kernels.RowProduct, 0, 2*e), make([]kernels.RowProduct, 0, e)
	if m.Blocks.MoEBeside {
		ms.rin, ms.dense = make([]float32, maxRows*hid), make([]float32, maxRows*hid)
	}
	if m.Blocks.SharedExpert {
		sf := c.MoE.SharedFFNSize
		ms.sgate = make([]float32, maxRows)
		ms.sg, ms.su, ms.sout = make([]float32, maxRows*sf), make([]float32, maxRows*sf), make([]float32, maxRows*hid)
	}
}

// floats returns the number of float32 values of the scratch.
func (ms *moeScratch) floats() int {
	return len(ms.logits) + len(ms.choice) + len(ms.weight) + len(ms.slot) + len(ms.start) + len(ms.xg) + len(ms.yg) +
		len(ms.gate) + len(ms.up) + len(ms.sgate) + len(ms.sg) + len(ms.su) + len(ms.sout) + len(ms.rin) + len(ms.dense)
}

// moe runs the mixture of layer l on the n normalised rows of s.xn and
// leaves its output there. The rows routed to each expert are gathered, so
// each expert's matrices are read once for the whole batch: one matmul per
// expert and batch, whether the rows are a prefill chunk or the decode
// tokens of several sequences.
func (s *State) moe(l *MoE, n int) {
	ms, c := &s.moeS, s.m.Config
	hid, k, e := c.HiddenSize, c.MoE.TopK, c.MoE.Experts
	xn, in := s.xn[:n*hid], s.xn[:n*hid]
	if l.RouterScale != nil {
		in = ms.rin[:n*hid]
	}
	// The router's logits pick the experts: its product stays in the CPU
	// path's arithmetic, off any GPU, so that the choice depends only on
	// the router's input.
	s.pool.MatMulCPU(l.Router, in, n, ms.logits[:n*e])
	addRows(ms.logits, l.RouterBias, n)
	for i := range n {
		logits, choice := ms.logits[i*e:(i+1)*e], ms.choice[i*k:(i+1)*k]
		if routeGap(logits, choice) < RouteTieGap {
			s.routeTies++
		}
		route(s.m.Blocks.Router, s.m.Blocks.NormTopK, logits, choice, ms.weight[i*k:(i+1)*k])
	}
	if l.ExpertScale != nil {
		for j, x := range ms.choice[:n*k] {
			ms.weight[j] *= l.ExpertScale[x]
		}
	}
	s.gather(n, k, e, hid)
	s.experts(l, n*k)
	if l.Shared != nil {
		sf := c.MoE.SharedFFNSize
		for i := range n {
			ms.sgate[i] = sigmoid(kernels.Dot(l.SharedGate, xn[i*hid:(i+1)*hid]))
		}
		s.gatedMLP(l.Shared, xn, n, ms.sg[:n*sf], ms.su[:n*sf], ms.sout[:n*hid])
	}
	for i := range n {
		y := xn[i*hid : (i+1)*hid]
		clear(y)
		for j := i * k; j < (i+1)*k; j++ {
			kernels.Axpy(ms.weight[j], ms.yg[int(ms.slot[j])*hid:][:hid], y)
		}
		if l.Shared != nil {
			kernels.Axpy(ms.sgate[i], ms.sout[i*hid:(i+1)*hid], y)
		}
	}
}

// gather groups the n rows' choices by expert: ms.start gets each expert's
// first gathered row, ms.slot each choice's gathered row, and ms.xg a copy
// of the input row of every choice.
func (s *State) gather(n, k, e, hid int) {
	ms := &s.moeS
	clear(ms.start)
	for _, x := range ms.choice[:n*k] {
		ms.start[x+1]++
	}
	for x := range e {
		ms.start[x+1] += ms.start[x]
	}
	for j, x := range ms.choice[:n*k] {
		// start[x] moves on as rows are placed and is moved back below.
		r := ms.start[x]
		ms.start[x]++
		ms.slot[j] = r
		copy(ms.xg[int(r)*hid:(int(r)+1)*hid], s.xn[(j/k)*hid:(j/k+1)*hid])
	}
	for x := e; x > 0; x-- {
		ms.start[x] = ms.start[x-1]
	}
	ms.start[0] = 0
}

// experts computes the gathered rows' expert MLPs, ms.yg from ms.xg:
// every expert's gate and up products in one operation of the pool, then
// every expert's down products in another (kernels.Pool.MatMulRows),
// rather than three products of a few rows each, one after the other.
func (s *State) experts(l *MoE, rows int) {
	ms, c := &s.moeS, s.m.Config
	hid, ff := c.HiddenSize, c.MoE.FFNSize
	used, gu := ms.used[:0], ms.gateUp[:0]
	for x := range c.MoE.Experts {
		r0, r1 := int(ms.start[x]), int(ms.start[x+1])
		if r0 == r1 {
			continue
		}
		l.ready(x)
		ex := &l.Experts[x]
		used = append(used, x)
		gu = append(gu, kernels.RowProduct{W: ex.Gate, R0: r0, R1: r1, Out: ms.gate[r0*ff : r1*ff]},
			kernels.RowProduct{W: ex.Up, R0: r0, R1: r1, Out: ms.up[r0*ff : r1*ff]})
	}
	s.pool.MatMulRows(ms.xg, rows, gu)
	down := ms.down[:0]
	for _, x := range used {
		r0, r1 := int(ms.start[x]), int(ms.start[x+1])
		ex := &l.Experts[x]
		s.activate(ex, ms.gate[r0*ff:r1*ff], ms.up[r0*ff:r1*ff], r1-r0)
		down = append(down, kernels.RowProduct{W: ex.Down, R0: r0, R1: r1, Out: ms.yg[r0*hid : r1*hid]})
	}
	s.pool.MatMulRows(ms.gate, rows, down)
	for i, x := range used {
		addRows(down[i].Out, l.Experts[x].DownBias, down[i].R1-down[i].R0)
	}
	ms.used, ms.gateUp, ms.down = used, gu, down
}

// gatedMLP computes out = Down·act(Gate·x, Up·x) for n rows of x, with gate
// and up as scratch.
func (s *State) gatedMLP(ex *Expert, x []float32, n int, gate, up, out []float32) {
	gu := [...]*kernels.Matrix{ex.Gate, ex.Up}
	s.pool.MatMuls(gu[:], x, n, [][]float32{gate, up})
	s.activate(ex, gate, up, n)
	s.pool.MatMul(ex.Down, gate, n, out)
	addRows(out, ex.DownBias, n)
}

// activate adds the gate and up biases of ex to n rows of gate and up and
// sets gate to the activation of the pair.
func (s *State) activate(ex *Expert, gate, up []float32, n int) {
	addRows(gate, ex.GateBias, n)
	addRows(up, ex.UpBias, n)
	switch {
	case s.m.Blocks.SwiGLULimit > 0:
		clampedSwiGLU(gate, up, s.m.Blocks.SwiGLULimit)
	case s.m.MLP == GeGLUTanh:
		kernels.GELUTanhMul(gate, up)
	default:
		kernels.SiLUMul(gate, up)
	}
}

// clampedSwiGLU sets gate = g·σ(α·g)·(u+1) with g the gate clamped to at
// most limit and u the up value clamped to ±limit (Blocks.SwiGLULimit),
// computed as g·(u+1) / (1 + e^(-α·g)) through the vectorised exponential;
// up is overwritten.
func clampedSwiGLU(gate, up []float32, limit float32) {
	for i, g := range gate {
		g = min(g, limit)
		up[i] = g * (max(-limit, min(up[i], limit)) + 1)
		gate[i] = -SwiGLUAlpha * g
	}
	kernels.Exp(gate)
	for i, e := range gate {
		gate[i] = up[i] / (1 + e)
	}
}

// route picks the k = len(choice) experts of one token from its router
// logits and sets their weights.
func route(r Router, norm bool, logits []float32, choice []int32, weight []float32) {
	if r == SoftmaxTopK {
		kernels.Softmax(logits)
	}
	topK(logits, choice)
	for j, x := range choice {
		weight[j] = logits[x]
	}
	switch {
	case r == TopKSoftmax:
		kernels.Softmax(weight)
	case norm:
		var sum float32
		for _, w := range weight {
			sum += w
		}
		for j := range weight {
			weight[j] /= sum
		}
	}
}

// topK sets choice to the len(choice) largest of logits, largest first,
// the lower index first among equals.
func topK(logits []float32, choice []int32) {
	for j := range choice {
		best := -1
		for x, v := range logits {
			if (best < 0 || v > logits[best]) && !chosen(choice[:j], x) {
				best = x
			}
		}
		choice[j] = int32(best)
	}
}

// RouteTieGap is the least lead, in router logits, of the last expert a
// token picks over the best one it leaves that State.RouteTies does not
// count: float32 sums of the same product in another order move router
// logits by far less than this.
const RouteTieGap = 1e-4

// routeGap returns by how much the k = len(choice) largest of logits lead
// the largest of the others; it uses choice as scratch. Without others it
// returns +Inf.
func routeGap(logits []float32, choice []int32) float32 {
	topK(logits, choice)
	last, next := logits[choice[len(choice)-1]], float32(math.Inf(-1))
	for x, v := range logits {
		if v > next && !chosen(choice, x) {
			next = v
		}
	}
	return last - next
}

// chosen reports whether expert x is among those picked.
func chosen(picked []int32, x int) bool {
	for _, p := range picked {
		if int(p) == x {
			return true
		}
	}
	return false
}

func sigmoid(x float32) float32 { return float32(1 / (1 + math.Exp(-float64(x)))) }
