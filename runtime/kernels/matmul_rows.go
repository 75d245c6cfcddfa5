package kernels

import "fmt"

// RowProduct is one product of Pool.MatMulRows: W times the activation
// rows [R0, R1), into Out, which holds (R1-R0)×W.Rows values.
type RowProduct struct {
	W      *Matrix
	R0, R1 int
	Out    []float32
}

// MatMulRows computes every product of ps, each W times its own rows of
// the n rows of x, as MatMul would, in one operation of the pool: the
// rows are quantized once and the chunks of all the products are shared
// among the workers together. One MatMul per product would make the
// workers wait for the slowest of them after each, and quantize each
// product's rows apart: the products of a mixture's experts, each with
// the few rows routed to it, are that many short operations. Products
// that cannot share the operation (weights the tile kernels do not hold
// packed, an offload, other columns) are computed one MatMul at a time.
func (p *Pool) MatMulRows(x []float32, n int, ps []RowProduct) {
	if len(ps) == 0 || n <= 0 {
		return
	}
	cols := ps[0].W.Cols
	if len(x) < n*cols {
		panic(fmt.Sprintf("kernels: MatMulRows of %d rows of %d: len(x)=%d too short", n, cols, len(x)))
	}
	k := impl()
	shared, rows := p.offload == nil, 0
	for _, pr := range ps {
		w := pr.W
		rows += pr.R1 - pr.R0
		if pr.R0 < 0 || pr.R1 > n || pr.R0 > pr.R1 || len(pr.Out) < (pr.R1-pr.R0)*w.Rows || w.Cols != cols {
			panic(fmt.Sprintf("kernels: MatMulRows product %v %d×%d of rows [%d, %d) of %d×%d, len(out)=%d", w.Type, w.Rows, w.Cols, pr.R0, pr.R1, n, cols, len(pr.Out)))
		}
		shared = shared && w.packedFor(k) && w.actFor(k) == ps[0].W.actFor(k) && !w.affinePacked() && !w.halfActs()
	}
	if rows == 0 {
		return
	}
	if !shared {
		for _, pr := range ps {
			if pr.R1 > pr.R0 {
				p.MatMul(pr.W, x[pr.R0*cols:pr.R1*cols], pr.R1-pr.R0, pr.Out)
			}
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.startJob(ps[0].W, x[:n*cols], n, k)
	chunks := 0
	for _, pr := range ps {
		if pr.R1 > pr.R0 {
			chunks = p.addPart(pr.W, pr.Out, pr.R0, pr.R1-pr.R0, chunks)
		}
	}
	p.runJob(chunks)
}
