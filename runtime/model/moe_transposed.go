package model

import (
	"fmt"
	"slices"

	"github.com/mlxrun/mlx/models/mmap"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// mxfp4Block is the size of one MXFP4 block of 32 weights in Matrix.Data:
// the E8M0 scale, then 16 bytes of nibbles.
const mxfp4Block = 17

// transposedExperts binds the experts of sparse layer i stored as gpt-oss
// checkpoints store them (Names.ExpGateUpT, Names.ExpDownT): MXFP4 blocks
// and scales when the file has them, else float tensors of [experts, in,
// out]. Either layout is converted for the kernels the first time each
// expert is used (fill, for MoE.fill), so that memory follows the experts
// in use.
func (b *binder) transposedExperts(n *Names, i, ne, ff, hid int) (gate, up, down []*kernels.Matrix, fill func(int)) {
	gu, dn := layer(n.ExpGateUpT, i), layer(n.ExpDownT, i)
	if b.err != nil {
		return nil, nil, nil, nil
	}
	var fillGU, fillD func(int)
	if b.src.Has(gu + "_blocks") {
		gate, up, fillGU = b.mxfp4Experts(gu, ne, 2*ff, hid, true)
		down, _, fillD = b.mxfp4Experts(dn, ne, hid, ff, false)
	} else {
		gate, up, fillGU = b.floatExperts(gu, ne, hid, 2*ff, true)
		down, _, fillD = b.floatExperts(dn, ne, ff, hid, false)
	}
	if b.err != nil {
		return nil, nil, nil, nil
	}
	return gate, up, down, func(x int) { fillGU(x); fillD(x) }
}

// floatExperts binds the ne experts of a float tensor of [ne, in, out]
// (multiplied as x·W) as matrices of out × in in the tensor's own type;
// with split, the out columns alternate between two matrices (gate and up,
// interleaved), returned apart. The matrices are written by fill(x), at
// expert x's first use, which then gives the file's pages of the expert
// back.
func (b *binder) floatExperts(name string, ne, in, out int, split bool) (first, second []*kernels.Matrix, fill func(int)) {
	if b.err != nil {
		return nil, nil, nil
	}
	src, ok := b.src.(SafetensorsSource)
	if !ok || (split && out%2 != 0) {
		b.err = fmt.Errorf("%w: %s: transposed experts %s of %d × %d", ErrUnsupported, b.src.Where(), name, in, out)
		return nil, nil, nil
	}
	t, found := src.M.Tensor(name)
	dt, known := kernels.DType(0), false
	if found {
		dt, known = stKinds[t.DType]
	}
	switch {
	case !found:
		b.err = missing(src, name)
	case !known:
		b.err = fmt.Errorf("%w: %s: tensor %s has type %v, which the kernels cannot compute", ErrUnsupported, src.Where(), name, t.DType)
	case !slices.Equal(t.Shape, []int{ne, in, out}):
		b.err = badShape(src, name, t.Shape, []int{ne, in, out})
	}
	if b.err != nil {
		return nil, nil, nil
	}
	es := len(t.Data) / (ne * in * out)
	parts := 1
	if split {
		parts = 2
	}
	mats := b.emptyExperts(name, kernels.Matrix{Type: dt, Rows: out / parts, Cols: in}, ne, parts, out/parts*in*es)
	if b.err != nil {
		return nil, nil, nil
	}
	b.bytes += int64(len(t.Data))
	fill = func(x int) {
		part := t.Data[x*in*out*es : (x+1)*in*out*es]
		for c := range in {
			for o := range out {
				s, d := (c*out+o)*es, (o/parts*in+c)*es
				copy(mats[o%parts][x].Data[d:d+es], part[s:s+es])
			}
		}
		_, _ = mmap.Release(part)
	}
	if split {
		return mats[0], mats[1], fill
	}
	return mats[0], nil, fill
}

// transposed returns the columns first, first+step, ... of w (rows ×
// cols) as the rows of a new matrix.
func transposed(w []float32, rows, cols, first, step int) []float32 {
	out := make([]float32, 0, rows*cols/step)
	for c := first; c < cols; c += step {
		for r := range rows {
			out = append(out, w[r*cols+c])
		}
	}
	return out
}

// mxfp4Experts binds the ne experts of rows × cols stored as NAME_blocks
// (U8 [ne, rows, cols/32, 16]) and NAME_scales (U8 [ne, rows, cols/32]).
// With split, the rows alternate between two matrices (gate and up,
// interleaved), returned apart. The matrices' memory is allocated but
// written only by fill(x), expert x's conversion to the kernels' layout,
// which then gives the file's pages of that expert back: memory follows
// the experts in use.
func (b *binder) mxfp4Experts(name string, ne, rows, cols int, split bool) (first, second []*kernels.Matrix, fill func(int)) {
	if b.err != nil {
		return nil, nil, nil
	}
	src, ok := b.src.(SafetensorsSource)
	if !ok || cols%32 != 0 || (split && rows%2 != 0) {
		b.err = fmt.Errorf("%w: %s: MXFP4 experts %s of %d × %d", ErrUnsupported, b.src.Where(), name, rows, cols)
		return nil, nil, nil
	}
	blocks := b.u8(src, name+"_blocks", []int{ne, rows, cols / 32, 16})
	scales := b.u8(src, name+"_scales", []int{ne, rows, cols / 32})
	if b.err != nil {
		return nil, nil, nil
	}
	nb, rb := cols/32, cols/32*mxfp4Block
	parts := 1
	if split {
		parts = 2
	}
	mats := b.emptyExperts(name, kernels.Matrix{Type: kernels.MXFP4, Rows: rows / parts, Cols: cols}, ne, parts, rows/parts*rb)
	if b.err != nil {
		return nil, nil, nil
	}
	b.bytes += int64(ne * rows * rb)
	fill = func(x int) {
		xb, xs := blocks[x*rows*nb*16:(x+1)*rows*nb*16], scales[x*rows*nb:(x+1)*rows*nb]
		for r := range rows {
			// The lengths match (checked above), so the conversion cannot fail.
			row, _ := kernels.MXFP4FromHF(xb[r*nb*16:(r+1)*nb*16], xs[r*nb:(r+1)*nb])
			copy(mats[r%parts][x].Data[r/parts*rb:], row)
		}
		_, _ = mmap.Release(xb)
		_, _ = mmap.Release(xs)
	}
	if split {
		return mats[0], mats[1], fill
	}
	return mats[0], nil, fill
}

// emptyExperts returns parts lists of ne matrices shaped as shape, each
// with size bytes of memory allocated and not yet written.
func (b *binder) emptyExperts(name string, shape kernels.Matrix, ne, parts, size int) [][]*kernels.Matrix {
	mats := make([][]*kernels.Matrix, parts)
	for range ne {
		for p := range parts {
			shape.Data = make([]byte, size)
			m, err := kernels.NewMatrixUnpacked(shape)
			if err != nil {
				b.err = fmt.Errorf("%w: %s: %s: %w", ErrWeights, b.src.Where(), name, err)
				return nil
			}
			mats[p] = append(mats[p], m)
		}
	}
	return mats
}

// u8 returns the bytes of a U8 tensor of the given shape.
func (b *binder) u8(src SafetensorsSource, name string, shape []int) []byte {
	if b.err != nil {
		return nil
	}
	t, ok := src.M.Tensor(name)
	switch {
	case !ok:
		b.err = missing(src, name)
	case t.DType != safetensors.U8:
		b.err = fmt.Errorf("%w: %s: tensor %s has type %v, want U8", ErrWeights, src.Where(), name, t.DType)
	case !slices.Equal(t.Shape, shape):
		b.err = badShape(src, name, t.Shape, shape)
	default:
		return t.Data
	}
	return nil
}

// expertBiases binds the router's and the experts' biases of sparse layer
// i: gate and up biases apart, or interleaved in one tensor.
func (b *binder) expertBiases(l *MoE, n *Names, i, ff, hid int) {
	ne := len(l.Experts)
	l.RouterBias = b.vector(layer(n.RouterBias, i), ne)
	var gate, up []float32
	if n.ExpGateUpBias != "" {
		gu := b.tensor(layer(n.ExpGateUpBias, i), []int{ne, 2 * ff})
		if b.err != nil {
			return
		}
		gate, up = transposed(gu, ne*ff, 2, 0, 2), transposed(gu, ne*ff, 2, 1, 2)
	} else {
		gate, up = b.tensor(layer(n.ExpGateBias, i), []int{ne, ff}), b.tensor(layer(n.ExpUpBias, i), []int{ne, ff})
	}
	down := b.tensor(layer(n.ExpDownBias, i), []int{ne, hid})
	if b.err != nil {
		return
	}
	for x := range l.Experts {
		e := &l.Experts[x]
		e.GateBias, e.UpBias, e.DownBias = gate[x*ff:(x+1)*ff], up[x*ff:(x+1)*ff], down[x*hid:(x+1)*hid]
	}
}
