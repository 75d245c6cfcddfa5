package kernels

import (
	"fmt"
	"sort"
)

// maxParts is the most weight matrices one MatMuls call computes together.
const maxParts = 4

// mmPart is one weight matrix of the matmul under way: its output, its
// rows per chunk and the index of its first chunk.
type mmPart struct {
	w      *Matrix
	out    []float32
	rows   int
	first  int
	packed bool // the packed tile kernels compute it
	// The activation rows it multiplies: [x0, x0+n) of the job's.
	x0, n int
}

// matmulJob is the matmul under way in a Pool: one or more weight matrices
// of the same input.
type matmulJob struct {
	parts   []mmPart // in Pool.parts' memory
	x       []float32
	n       int
	cols    int
	xq      []byte
	xstride int       // bytes per quantized activation row
	xsum    []float32 // MLXAffine: per-group sums of each activation row
	gsize   int       // MLXAffine group size
	k       *kernelSet
	act     actKind   // the form of the activations
	round   bool      // the activations are rounded to halves (halfact.go)
	xr      []float32 // the rounded activations
	xh      []uint16  // scratch of the rounding
}

// workerScratch is a worker's private memory, grown as needed.
type workerScratch struct {
	res    [4]float32
	tile   [group8Rows * 8]float32 // a tile of a group with padding rows
	row    []float32
	gs     []float32 // MLXAffine per-group sums
	sc, bi []float32 // MLXAffine scales and biases of one row
	wide   []float32 // F16 weight rows converted for halfSet.wide
	// Where the last half decode chunk of the worker ended in its weights
	// (halfDecode): a chunk that starts there needs no first requests.
	lastEnd uintptr // an address only: it keeps nothing alive
}

// MatMul computes out[i*w.Rows + r] = Σ_k W[r,k] * x[i*w.Cols + k] for
// i < n. len(x) must be ≥ n*w.Cols and len(out) ≥ n*w.Rows. For the quantized
// GGUF types the activations are first quantized to 8 bits as ggml does (Q8_0
// for Q4_0/Q5_0/Q8_0/MXFP4, Q8_1 for Q4_1/Q5_1, Q8_K for the K-quants) and
// the dot products are integer ones, so results match llama.cpp closely. F32, F16,
// BF16 and MLXAffine use the float32 activations. It does not allocate once
// its scratch space has grown to the largest call.
func (p *Pool) MatMul(w *Matrix, x []float32, n int, out []float32) {
	p.MatMuls([]*Matrix{w}, x, n, [][]float32{out})
}

// MatMuls computes outs[j] = MatMul(ws[j], x) for weight matrices that share
// their input, such as the query, key and value projections, or the gate
// and up ones: the activations are quantized once and all the products are
// split across the pool together. Matrices whose activations take
// different forms are computed one after the other. At most four.
func (p *Pool) MatMuls(ws []*Matrix, x []float32, n int, outs [][]float32) {
	if !checkMatMuls(ws, x, n, outs) {
		return
	}
	if p.offload != nil {
		var left [maxParts]*Matrix
		var leftOuts [maxParts][]float32
		if ws, outs = p.offloaded(ws, x, n, outs, left[:0], leftOuts[:0]); len(ws) == 0 {
			return
		}
	}
	p.matMuls(ws, x, n, outs)
}

// checkMatMuls panics when the slices of a MatMuls call are too short or
// do not pair up, and reports whether there is a product to compute.
func checkMatMuls(ws []*Matrix, x []float32, n int, outs [][]float32) bool {
	if len(ws) != len(outs) || len(ws) > maxParts {
		panic(fmt.Sprintf("kernels: MatMuls of %d matrices with %d outputs (at most %d)", len(ws), len(outs), maxParts))
	}
	if n <= 0 || len(ws) == 0 {
		return false
	}
	for i, w := range ws {
		if len(x) < n*w.Cols || len(outs[i]) < n*w.Rows {
			panic(fmt.Sprintf("kernels: MatMul %v %d×%d with n=%d: len(x)=%d, len(out)=%d too short", w.Type, w.Rows, w.Cols, n, len(x), len(outs[i])))
		}
	}
	return true
}

// matMuls computes the products of MatMuls on the pool's workers.
func (p *Pool) matMuls(ws []*Matrix, x []float32, n int, outs [][]float32) {
	k := impl()
	if !shareInput(ws, k) {
		for i := range ws {
			p.matMuls(ws[i:i+1], x, n, outs[i:i+1])
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.startJob(ws[0], x, n, k)
	chunks := 0
	for i, w := range ws {
		chunks = p.addPart(w, outs[i], 0, n, chunks)
	}
	p.runJob(chunks)
}

// startJob sets up the matmul job of activations x (n rows) for matrices
// whose activations take the form w's take with kernels k.
func (p *Pool) startJob(w *Matrix, x []float32, n int, k *kernelSet) {
	j := &p.mm
	*j = matmulJob{x: x, n: n, cols: w.Cols, k: k, xq: j.xq, xsum: j.xsum, xr: j.xr, xh: j.xh, round: w.halfActs(), act: w.actFor(k), gsize: w.GroupSize, parts: p.parts[:0]}
}

// addPart adds the product of w with activation rows [x0, x0+n) of the
// job, into out, whose chunks follow the first chunks of the parts before
// it; it returns the chunks of the job so far.
func (p *Pool) addPart(w *Matrix, out []float32, x0, n, first int) int {
	j := &p.mm
	pt := mmPart{w: w, out: out, rows: chunkRows(w.Rows, p.threads), first: first, packed: w.packedFor(j.k), x0: x0, n: n}
	if pt.packed && n <= groupOuterRows && j.k.gemm[w.layout].stream {
		pt.rows = streamChunkRows(w.Rows, p.threads)
	}
	if !pt.packed && n == 1 && w.halfType() {
		pt.rows = max(halfOwnChunk/w.rowBytes(), 4)
	}
	if pt.packed {
		unit := w.groupRows() // whole packed groups
		if w.affinePacked() {
			unit = biasRows // whole bias blocks, which hold whole groups
		}
		pt.rows = (pt.rows + unit - 1) / unit * unit
	}
	j.parts = append(j.parts, pt)
	return first + (w.Rows+pt.rows-1)/pt.rows
}

// runJob quantizes the job's activations and computes its chunks.
func (p *Pool) runJob(chunks int) {
	j := &p.mm
	p.prepare(j)
	p.kind = jobMatMul
	owned := j.ownable()
	if owned {
		for _, s := range p.scratch {
			s.lastEnd = 0 // what a worker's last chunk asked for ahead may be gone
		}
	}
	p.run(int64(chunks), owned)
	p.parts = j.parts[:0] // keeps memory the job grew
	clear(j.parts)
	j.parts, j.x = nil, nil
}

// ownable reports whether the job's chunks are best split into one
// contiguous range per worker (Pool.claim): one activation row over float
// weights read in place (F16, BF16, and F32, which can share a job with
// them), where every chunk is a stretch of weights streamed from memory
// once and the kernels ask for the weights ahead as they go, so a worker
// whose chunks follow each other keeps one stream running, where chunks
// taken in turn restart it every time. (Measured with the amd64 decode
// kernels; the dot-product path of other CPUs reads the same way.)
func (j *matmulJob) ownable() bool {
	for i := range j.parts {
		pt := &j.parts[i]
		if pt.packed || pt.n != 1 || !pt.w.halfType() && pt.w.Type != F32 {
			return false
		}
	}
	return j.n == 1
}

// shareInput reports whether the matrices can be computed in one job: the
// same columns and the same form of activations (MLX group size and
// rounding to halves included).
func shareInput(ws []*Matrix, k *kernelSet) bool {
	for _, w := range ws[1:] {
		if w.Cols != ws[0].Cols || w.actFor(k) != ws[0].actFor(k) ||
			w.halfActs() != ws[0].halfActs() ||
			(w.Type == MLXAffine) != (ws[0].Type == MLXAffine) || w.GroupSize != ws[0].GroupSize {
			return false
		}
	}
	return true
}

// actFor returns the form the activations of w take with kernels k.
func (w *Matrix) actFor(k *kernelSet) actKind {
	if w.packedFor(k) {
		return packedAct(w.layout)
	}
	return w.Type.act()
}

// chunkRows picks the rows per chunk: about eight chunks per thread for load
// balance, between 4 and 64 rows so a chunk of weights stays in cache while
// it meets every activation row.
func chunkRows(rows, threads int) int {
	c := rows / (threads * 8)
	return min(max(c, 4), 64)
}

// halfOwnChunk is the weight bytes of a chunk of one activation row over
// F16 or BF16 weights. Such a job is owned (matmulJob.ownable): a worker's
// chunks follow each other, so their size only sets how much a worker
// done with its range takes from another's at a time. A variable only so
// that a test can make ranges cross parts; nothing else sets it.
var halfOwnChunk = 128 << 10

// streamChunkRows picks the rows per chunk of a packed matrix whose kernels
// stream (gemmSet.stream) with few activation rows: about four chunks per
// thread, at most 512 rows. Each chunk restarts the stream of weights from
// memory and its prefetches, and chunks taken in turn by the threads
// interleave their streams, so fewer, longer chunks read faster.
func streamChunkRows(rows, threads int) int {
	return min(max(rows/(threads*4), 4), 512)
}

// prepare quantizes the activations (or sums their groups, or rounds them
// to halves) once per call, one activation row per chunk across
// the pool.
func (p *Pool) prepare(j *matmulJob) {
	if j.round {
		j.xr, j.xh = grow(j.xr, j.n*j.cols), grow(j.xh, j.n*j.cols)
		if j.n == 1 {
			j.roundRow(0) // cheaper than waking the pool
		} else {
			p.kind = jobQuantize
			p.run(int64(j.n), false)
		}
		j.x = j.xr[:j.n*j.cols]
		return
	}
	if j.parts[0].w.Type == MLXAffine {
		j.xsum = grow(j.xsum, j.n*(j.cols/j.gsize))
		if j.act == actF32 {
			for i := range j.n {
				j.sumGroups(i)
			}
		}
	}
	if a := j.act; a != actF32 {
		j.xstride = a.rowBytes(j.cols)
		j.xq = grow(j.xq, (j.n+tilePadRows)*j.xstride)
		p.kind = jobQuantize
		p.run(int64(j.n), false)
	}
}

// quantizeRow quantizes activation row i of the matmul under way.
func (p *Pool) quantizeRow(i int) {
	j := &p.mm
	if j.round {
		j.roundRow(i)
		return
	}
	j.k.quantize[j.act](j.xq[i*j.xstride:(i+1)*j.xstride], j.x[i*j.cols:(i+1)*j.cols])
	if j.parts[0].w.Type == MLXAffine {
		j.sumGroups(i)
	}
}

// sumGroups sets the MLX group sums of activation row i.
func (j *matmulJob) sumGroups(i int) {
	groups := j.cols / j.gsize
	j.k.groupSums(j.x[i*j.cols:(i+1)*j.cols], j.gsize, j.xsum[i*groups:(i+1)*groups])
}

// tilePadRows is the rows of padding after the quantized activations, which
// a tile kernel one row short reads and whose results it drops
// (packedTiles).
const tilePadRows = 1

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// matmulChunk computes chunk c of the matmul under way: output rows
// [c'*rows, (c'+1)*rows) of the part it falls in (c' counted from the part's
// first chunk), for every activation row.
func (p *Pool) matmulChunk(s *workerScratch, c int) {
	j := &p.mm
	// The last part that starts at or before chunk c.
	i := sort.Search(len(j.parts), func(i int) bool { return j.parts[i].first > c }) - 1
	pt := &j.parts[i]
	c -= pt.first
	w := pt.w
	r0 := c * pt.rows
	r1 := min(r0+pt.rows, w.Rows)
	if pt.packed {
		p.packedChunk(s, pt, r0, r1)
		return
	}
	if qd := j.k.qdot[w.Type]; qd != nil {
		var ra rowAhead
		if j.n <= 4 { // one pass over the rows
			ra = p.rowsAhead(w, r0, r1)
		}
		for i := 0; i < j.n; i += 4 {
			m := min(4, j.n-i)
			res := s.res[:m]
			for r := r0; r < r1; r++ {
				ra.ask(r)
				qd(w.rowData(r), j.xq[i*j.xstride:], j.xstride, res)
				for t, v := range res {
					pt.out[(i+t)*w.Rows+r] = v
				}
			}
		}
		return
	}
	if p.halfChunk(s, pt, r0, r1) || p.halfDecode(s, pt, r0, r1) {
		return
	}
	for r := r0; r < r1; r++ {
		p.floatRow(s, pt, r)
	}
}

// floatRow computes output row r of a float or MLX weight matrix.
func (p *Pool) floatRow(s *workerScratch, pt *mmPart, r int) {
	j := &p.mm
	w := pt.w
	cols := w.Cols
	switch {
	case w.Type == MLXAffine && j.n >= affineDequantRows:
		s.row = grow(s.row, cols)
		w.affineRow(r, s.row)
		for i := range j.n {
			pt.out[i*w.Rows+r] = j.k.dot(s.row, j.x[i*cols:(i+1)*cols])
		}
		return
	case w.Type == MLXAffine && w.Bits == 4 && w.ScaleType == BF16 && j.k.affineRow4BF16 != nil:
		groups := cols / w.GroupSize
		g0 := r * groups
		sc, bi := asU16(w.Scales)[g0:g0+groups], asU16(w.Biases)[g0:g0+groups]
		row := w.rowData(r)
		for i := range j.n {
			pt.out[i*w.Rows+r] = j.k.affineRow4BF16(row, j.x[i*cols:(i+1)*cols], w.GroupSize, sc, bi, j.xsum[i*groups:(i+1)*groups])
		}
		return
	case w.Type == MLXAffine:
		groups := cols / w.GroupSize
		s.gs, s.sc, s.bi = grow(s.gs, groups), grow(s.sc, groups), grow(s.bi, groups)
		w.affineParams(r, s.sc, s.bi)
		row := w.rowData(r)
		for i := range j.n {
			j.k.affineGroups(row, w.Bits, j.x[i*cols:(i+1)*cols], w.GroupSize, s.gs)
			pt.out[i*w.Rows+r] = affineCombine(s.gs, s.sc, s.bi, j.xsum[i*groups:(i+1)*groups])
		}
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
	dot := j.k.dot
	if w.laneSums() {
		dot = j.k.dotLanes
	}
	for i := range j.n {
		pt.out[i*w.Rows+r] = dot(wr, j.x[i*cols:(i+1)*cols])
	}
}

// halfType reports whether w holds F16 or BF16 weights.
func (w *Matrix) halfType() bool { return w.Type == F16 || w.Type == BF16 }
