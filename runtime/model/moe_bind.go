package model

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// moe binds the mixture of sparse layer i.
func (b *binder) moe(m *Model, n *Names, i int) *MoE {
	cfg := m.Config
	hid, ne, ff := cfg.HiddenSize, cfg.MoE.Experts, cfg.MoE.FFNSize
	l := &MoE{Router: b.matrix(layer(n.Router, i), ne, hid), Experts: make([]Expert, ne), packOnce: make([]sync.Once, ne)}
	gn, un, dn := n.ExpGate, n.ExpUp, n.ExpDown
	if n.StackedGate != "" && b.src.Has(layer(n.StackedGate, i)) {
		gn, un, dn = n.StackedGate, n.StackedUp, n.StackedDown
	}
	var gate, up, down []*kernels.Matrix
	switch {
	case n.ExpGateUpT != "":
		gate, up, down, l.fill = b.transposedExperts(n, i, ne, ff, hid)
	case n.ExpGateUp != "" && b.src.Has(layer(n.ExpGateUp, i)):
		gate, up = b.fusedExperts(layer(n.ExpGateUp, i), ne, ff, hid)
	default:
		gate, up = b.experts(gn, i, ne, ff, hid), b.experts(un, i, ne, ff, hid)
	}
	if down == nil {
		down = b.experts(dn, i, ne, hid, ff)
	}
	if n.RouterScale != "" {
		l.RouterScale, l.ExpertScale = b.vector(layer(n.RouterScale, i), hid), b.vector(layer(n.ExpertScale, i), ne)
		kernels.Scale(l.RouterScale, float32(1/math.Sqrt(float64(hid))))
	}
	if b.err != nil {
		return nil
	}
	for x := range l.Experts {
		l.Experts[x] = Expert{Gate: gate[x], Up: up[x], Down: down[x]}
	}
	if m.Blocks.ExpertBias {
		b.expertBiases(l, n, i, ff, hid)
	}
	if m.Blocks.SharedExpert {
		sf := cfg.MoE.SharedFFNSize
		if sf <= 0 && b.err == nil {
			b.err = fmt.Errorf("%w: %s: a shared expert without shared_expert_intermediate_size", ErrWeights, b.src.Where())
			return nil
		}
		l.Shared = &Expert{Gate: b.matrix(layer(n.SharedGate, i), sf, hid), Up: b.matrix(layer(n.SharedUp, i), sf, hid),
			Down: b.matrix(layer(n.SharedDown, i), hid, sf)}
		l.SharedGate = b.gateVector(layer(n.SharedRouter, i), hid)
	}
	return l
}

// experts binds the ne experts' matrices of rows × cols of layer i: one
// stacked tensor when format has one %d, else one tensor per expert.
func (b *binder) experts(format string, i, ne, rows, cols int) []*kernels.Matrix {
	if b.err != nil {
		return nil
	}
	if strings.Count(format, "%d") == 1 {
		ws, err := b.src.Experts(layer(format, i), ne, rows, cols)
		b.err = err
		b.countBytes(ws)
		return ws
	}
	ws := make([]*kernels.Matrix, ne)
	for x := range ws {
		one, err := b.src.Experts(fmt.Sprintf(format, i, x), 1, rows, cols)
		if err != nil {
			b.err = err
			return nil
		}
		ws[x] = one[0]
	}
	b.countBytes(ws)
	return ws
}

// countBytes adds the stored size of the matrices to the bound weights.
func (b *binder) countBytes(ws []*kernels.Matrix) {
	for _, w := range ws {
		b.bytes += int64(len(w.Data) + len(w.Scales) + len(w.Biases))
	}
}

// gateVector binds the shared expert's gate: a vector of n values in GGUF
// files, a 1 × n matrix in Hugging Face checkpoints.
func (b *binder) gateVector(name string, n int) []float32 {
	if b.err != nil {
		return nil
	}
	if v, err := b.src.Vector(name, n); err == nil {
		b.bytes += int64(4 * n)
		return v
	}
	w := b.matrix(name, 1, n)
	if w == nil {
		return nil
	}
	v := make([]float32, n)
	w.Row(0, v)
	return v
}

// splitExperts cuts m, the rows of n experts one after the other, into n
// matrices that the kernels read in place (NewMatrixUnpacked), packed only
// once in use (MoE.ready).
func splitExperts(m kernels.Matrix, n int, where, name string) ([]*kernels.Matrix, error) {
	if n <= 0 || m.Rows%n != 0 || len(m.Data)%n != 0 || len(m.Scales)%n != 0 || len(m.Biases)%n != 0 {
		return nil, fmt.Errorf("%w: %s: tensor %s does not split into %d experts", ErrWeights, where, name, n)
	}
	rows, db, sb := m.Rows/n, len(m.Data)/n, len(m.Scales)/n
	out := make([]*kernels.Matrix, n)
	for x := range out {
		part := m
		part.Rows, part.Data = rows, m.Data[x*db:(x+1)*db]
		if m.Scales != nil {
			part.Scales, part.Biases = m.Scales[x*sb:(x+1)*sb], m.Biases[x*sb:(x+1)*sb]
		}
		w, err := kernels.NewMatrixUnpacked(part)
		if err != nil {
			return nil, fmt.Errorf("%s: tensor %s: expert %d: %w", where, name, x, err)
		}
		out[x] = w
	}
	return out, nil
}

// params counts the mixture's parameters: every expert, or the k experts a
// token uses if active.
func (l *MoE) params(active bool, k int) int64 {
	var n int64
	for _, w := range l.Matrices(nil) {
		n += int64(w.Rows) * int64(w.Cols)
	}
	for _, e := range l.Experts {
		n += int64(len(e.GateBias) + len(e.UpBias) + len(e.DownBias))
	}
	if active {
		n = n / int64(len(l.Experts)) * int64(k)
	}
	n += int64(len(l.SharedGate) + len(l.RouterBias))
	return n
}

// Matrices appends the experts' matrices to ws.
func (l *MoE) Matrices(ws []*kernels.Matrix) []*kernels.Matrix {
	for _, e := range l.Experts {
		ws = append(ws, e.Gate, e.Up, e.Down)
	}
	return ws
}

// fusedExperts binds ne experts whose gate and up rows (ff each, gate
// first) are stacked in one tensor, as Gemma 4 stores them.
func (b *binder) fusedExperts(name string, ne, ff, hid int) (gate, up []*kernels.Matrix) {
	if b.err != nil {
		return nil, nil
	}
	gu, err := b.src.Experts(name, ne, 2*ff, hid)
	if err != nil {
		b.err = err
		return nil, nil
	}
	b.countBytes(gu)
	gate, up = make([]*kernels.Matrix, ne), make([]*kernels.Matrix, ne)
	for x, w := range gu {
		parts, err := splitExperts(*w, 2, b.src.Where(), name)
		if err != nil {
			b.err = err
			return nil, nil
		}
		gate[x], up[x] = parts[0], parts[1]
	}
	return gate, up
}
