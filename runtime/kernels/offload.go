package kernels

// Offload computes matrix products on another device, such as a GPU.
// MatMul computes out[i*w.Rows + r] = Σ_k W[r,k]·x[i*w.Cols + k] for i < n
// and reports whether it did; when it did not (a weight format it has no
// kernel for, or a failure), the pool computes the product itself.
type Offload interface {
	MatMul(w *Matrix, x []float32, n int, out []float32) bool
}

// SetOffload routes the products of MatMul and MatMuls to o, which takes
// those it can: the matrix–vector products of decoding (n = 1) and the
// matrix–matrix ones of prompt chunks and batches. nil routes none. Call it
// before the pool is used.
func (p *Pool) SetOffload(o Offload) { p.offload = o }

// MatMulCPU is MatMul computed on the pool's workers even when an offload
// is set, in the arithmetic of the CPU path. It is for products whose
// results pick discrete branches, such as a mixture's router, whose top-k
// must choose the experts the CPU path chooses: another device sums in
// another order, and two logits a rounding error apart would swap.
func (p *Pool) MatMulCPU(w *Matrix, x []float32, n int, out []float32) {
	ws, outs := []*Matrix{w}, [][]float32{out}
	if checkMatMuls(ws, x, n, outs) {
		p.matMuls(ws, x, n, outs)
	}
}

// offloaded gives each product to the offload and appends the matrices and
// outputs it did not take, in order, to left and leftOuts.
func (p *Pool) offloaded(ws []*Matrix, x []float32, n int, outs [][]float32, left []*Matrix, leftOuts [][]float32) ([]*Matrix, [][]float32) {
	for i, w := range ws {
		if !p.offload.MatMul(w, x[:n*w.Cols], n, outs[i][:n*w.Rows]) {
			left, leftOuts = append(left, w), append(leftOuts, outs[i])
		}
	}
	return left, leftOuts
}
