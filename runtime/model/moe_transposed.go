package model

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/mlxrun/mlx/models/mmap"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// mxfp4Block is the size of one MXFP4 block of 32 weights in Matrix.Data:
// the E8M0 scale, then 16 bytes of nibbles.
const mxfp4Block = 17

// transposedExperts binds the experts of sparse layer i stored as gpt-oss
// checkpoints store them (Names.ExpGateUpT, Names.ExpDownT): MXFP4 blocks
// and scales when the file has them, converted for the kernels the first
// time each expert is used (fill, for MoE.fill), else float tensors of
// [experts, in, out], transposed into float32 matrices at load.
func (b *binder) transposedExperts(n *Names, i, ne, ff, hid int) (gate, up, down []*kernels.Matrix, fill func(int)) {
	gu, dn := layer(n.ExpGateUpT, i), layer(n.ExpDownT, i)
	if b.err != nil {
		return nil, nil, nil, nil
	}
	if b.src.Has(gu + "_blocks") {
		var fillGU, fillD func(int)
		gate, up, fillGU = b.mxfp4Experts(gu, ne, 2*ff, hid, true)
		down, _, fillD = b.mxfp4Experts(dn, ne, hid, ff, false)
		return gate, up, down, func(x int) { fillGU(x); fillD(x) }
	}
	w, d := b.tensor(gu, []int{ne, hid, 2 * ff}), b.tensor(dn, []int{ne, ff, hid})
	if b.err != nil {
		return nil, nil, nil, nil
	}
	gate, up, down = make([]*kernels.Matrix, ne), make([]*kernels.Matrix, ne), make([]*kernels.Matrix, ne)
	for x := range ne {
		wx, dx := w[x*hid*2*ff:(x+1)*hid*2*ff], d[x*ff*hid:(x+1)*ff*hid]
		gate[x] = b.floatMatrix(transposed(wx, hid, 2*ff, 0, 2), ff, hid)
		up[x] = b.floatMatrix(transposed(wx, hid, 2*ff, 1, 2), ff, hid)
		down[x] = b.floatMatrix(transposed(dx, ff, hid, 0, 1), hid, ff)
	}
	return gate, up, down, nil
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

// floatMatrix wraps rows × cols float32 values as an expert's matrix.
func (b *binder) floatMatrix(v []float32, rows, cols int) *kernels.Matrix {
	if b.err != nil {
		return nil
	}
	data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
	m, err := kernels.NewMatrixUnpacked(kernels.Matrix{Type: kernels.F32, Rows: rows, Cols: cols, Data: data})
	if err != nil {
		b.err = fmt.Errorf("%w: %s: %w", ErrWeights, b.src.Where(), err)
	}
	return m
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
	parts, out := 1, rows
	if split {
		parts, out = 2, rows/2
	}
	mats := make([][]*kernels.Matrix, parts)
	for range ne {
		for p := range parts {
			m, err := kernels.NewMatrixUnpacked(kernels.Matrix{Type: kernels.MXFP4, Rows: out, Cols: cols, Data: make([]byte, out*rb)})
			if err != nil {
				b.err = fmt.Errorf("%w: %s: %s: %w", ErrWeights, b.src.Where(), name, err)
				return nil, nil, nil
			}
			mats[p] = append(mats[p], m)
		}
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
