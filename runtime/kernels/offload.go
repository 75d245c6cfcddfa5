package kernels

// Offload computes matrix–vector products on another device, such as a GPU.
// MatVec computes out[r] = Σ_k W[r,k]·x[k] for the rows of w and reports
// whether it did; when it did not (a weight format it has no kernel for, or
// a failure), the pool computes the product itself.
type Offload interface {
	MatVec(w *Matrix, x, out []float32) bool
}

// SetOffload routes the single-vector products of MatMul and MatMuls (n = 1,
// the matrix–vector products of decoding one sequence) to o; nil routes
// none. Call it before the pool is used.
func (p *Pool) SetOffload(o Offload) { p.offload = o }

// offloaded gives each product to the offload and appends the matrices and
// outputs it did not take, in order, to left and leftOuts.
func (p *Pool) offloaded(ws []*Matrix, x []float32, outs [][]float32, left []*Matrix, leftOuts [][]float32) ([]*Matrix, [][]float32) {
	for i, w := range ws {
		if !p.offload.MatVec(w, x[:w.Cols], outs[i][:w.Rows]) {
			left, leftOuts = append(left, w), append(leftOuts, outs[i])
		}
	}
	return left, leftOuts
}
