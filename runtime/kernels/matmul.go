package kernels

import "fmt"

// matmulJob is the matmul under way in a Pool.
type matmulJob struct {
	w       *Matrix
	x       []float32
	n       int
	out     []float32
	rows    int // output rows per chunk
	xq      []byte
	xstride int       // bytes per quantized activation row
	xsum    []float32 // MLXAffine: per-group sums of each activation row
	k       *impls
	act     actKind // the form of the activations
	packed  bool    // the packed tile kernels compute it
}

// workerScratch is a worker's private memory, grown as needed.
type workerScratch struct {
	res    [4]float32
	tile   [groupRows * 4]float32 // a tile of a group with padding rows
	row    []float32
	gs     []float32 // MLXAffine per-group sums
	sc, bi []float32 // MLXAffine scales and biases of one row
}

// MatMul computes out[i*w.Rows + r] = Σ_k W[r,k] * x[i*w.Cols + k] for
// i < n. len(x) must be ≥ n*w.Cols and len(out) ≥ n*w.Rows. For the quantized
// GGUF types the activations are first quantized to 8 bits as ggml does (Q8_0
// for Q4_0/Q5_0/Q8_0, Q8_1 for Q4_1/Q5_1, Q8_K for the K-quants) and the dot
// products are integer ones, so results match llama.cpp closely. F32, F16,
// BF16 and MLXAffine use the float32 activations. It does not allocate once
// its scratch space has grown to the largest call.
func (p *Pool) MatMul(w *Matrix, x []float32, n int, out []float32) {
	if n <= 0 {
		return
	}
	if len(x) < n*w.Cols || len(out) < n*w.Rows {
		panic(fmt.Sprintf("kernels: MatMul %v %d×%d with n=%d: len(x)=%d, len(out)=%d too short", w.Type, w.Rows, w.Cols, n, len(x), len(out)))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k := impl()
	j := &p.mm
	*j = matmulJob{w: w, x: x, n: n, out: out, k: k, xq: j.xq, xsum: j.xsum, act: w.Type.act()}
	if w.packedFor(k) {
		j.act, j.packed = actPair, true
	}
	p.prepare(j)
	j.rows = chunkRows(w.Rows, p.threads)
	if j.packed {
		j.rows = (j.rows + groupRows - 1) / groupRows * groupRows
	}
	p.kind = jobMatMul
	p.run(int64((w.Rows + j.rows - 1) / j.rows))
	j.w, j.x, j.out = nil, nil, nil
}

// chunkRows picks the rows per chunk: about eight chunks per thread for load
// balance, between 4 and 64 rows so a chunk of weights stays in cache while
// it meets every activation row.
func chunkRows(rows, threads int) int {
	c := rows / (threads * 8)
	return min(max(c, 4), 64)
}

// prepare quantizes the activations (or sums their groups) once per call,
// one activation row per chunk across the pool.
func (p *Pool) prepare(j *matmulJob) {
	w := j.w
	if a := j.act; a != actF32 {
		j.xstride = a.rowBytes(w.Cols)
		j.xq = grow(j.xq, j.n*j.xstride)
		p.kind = jobQuantize
		p.run(int64(j.n))
		return
	}
	if w.Type == MLXAffine {
		groups := w.Cols / w.GroupSize
		j.xsum = grow(j.xsum, j.n*groups)
		for i := range j.n * groups {
			var s float32
			for _, v := range j.x[i*w.GroupSize : (i+1)*w.GroupSize] {
				s += v
			}
			j.xsum[i] = s
		}
	}
}

// quantizeRow quantizes activation row i of the matmul under way.
func (p *Pool) quantizeRow(i int) {
	j := &p.mm
	cols := j.w.Cols
	j.k.quantize[j.act](j.xq[i*j.xstride:(i+1)*j.xstride], j.x[i*cols:(i+1)*cols])
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// matmulChunk computes output rows [c*rows, (c+1)*rows) for every activation row.
func (p *Pool) matmulChunk(s *workerScratch, c int) {
	j := &p.mm
	w := j.w
	r0 := c * j.rows
	r1 := min(r0+j.rows, w.Rows)
	if j.packed {
		p.packedChunk(s, c)
		return
	}
	if qd := j.k.qdot[w.Type]; qd != nil {
		for i := 0; i < j.n; i += 4 {
			m := min(4, j.n-i)
			res := s.res[:m]
			for r := r0; r < r1; r++ {
				qd(w.rowData(r), j.xq[i*j.xstride:], j.xstride, res)
				for t, v := range res {
					j.out[(i+t)*w.Rows+r] = v
				}
			}
		}
		return
	}
	for r := r0; r < r1; r++ {
		p.floatRow(s, r)
	}
}

// floatRow computes output row r of a float or MLX weight matrix.
func (p *Pool) floatRow(s *workerScratch, r int) {
	j := &p.mm
	w := j.w
	cols := w.Cols
	switch {
	case w.Type == MLXAffine:
		groups := cols / w.GroupSize
		s.gs, s.sc, s.bi = grow(s.gs, groups), grow(s.sc, groups), grow(s.bi, groups)
		w.affineParams(r, s.sc, s.bi)
		row := w.rowData(r)
		for i := range j.n {
			j.k.affineGroups(row, w.Bits, j.x[i*cols:(i+1)*cols], w.GroupSize, s.gs)
			j.out[i*w.Rows+r] = affineCombine(s.gs, s.sc, s.bi, j.xsum[i*groups:(i+1)*groups])
		}
		return
	case w.Type == F16 && j.n == 1:
		j.out[r] = j.k.dotF16(asU16(w.rowData(r)), j.x[:cols])
		return
	case w.Type == BF16 && j.n == 1:
		j.out[r] = j.k.dotBF16(asU16(w.rowData(r)), j.x[:cols])
		return
	}
	var wr []float32
	switch w.Type {
	case F32:
		wr = asF32(w.rowData(r))
	case F16:
		s.row = grow(s.row, cols)
		wr = s.row
		j.k.f16ToF32(wr, asU16(w.rowData(r)))
	case BF16:
		s.row = grow(s.row, cols)
		wr = s.row
		for i, h := range asU16(w.rowData(r)) {
			wr[i] = bf16ToF32(h)
		}
	}
	for i := range j.n {
		j.out[i*w.Rows+r] = j.k.dot(wr, j.x[i*cols:(i+1)*cols])
	}
}
