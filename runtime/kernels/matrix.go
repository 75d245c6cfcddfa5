package kernels

import (
	"errors"
	"fmt"
	"math/bits"
	"unsafe"
)

// ErrMatrix is wrapped by every error NewMatrix returns.
var ErrMatrix = errors.New("invalid weight matrix")

// maxElems bounds Rows×Cols (2^40 elements), far above any real layer, so
// that sizes computed from it cannot overflow.
const maxElems = 1 << 40

// Matrix is a weight matrix of Rows × Cols, stored row-major in its native
// format, zero-copy (Data points into the mapped model file). Row r is the
// output feature r; Cols is the input dimension. The GGUF block formats are
// exactly as ggml lays them out. MLXAffine: Data holds uint32 little-endian
// words, Bits (4 or 8) bits per element packed low bits first, GroupSize 32,
// 64 or 128, Scales and Biases are [Rows][Cols/GroupSize] in ScaleType (BF16,
// F16 or F32), and w = scale*q + bias.
type Matrix struct {
	Type            DType
	Rows, Cols      int
	Data            []byte
	Bits, GroupSize int
	Scales, Biases  []byte
	ScaleType       DType
	// HalfActs makes the products of an F16 matrix round the activations
	// to halves first, as ggml's CPU backend does (halfact.go); the GGUF
	// source sets it. Other formats ignore it.
	HalfActs bool
	// GGMLSums makes the products of an F32 matrix whose columns are a
	// multiple of 8 sum in the order of ggml's (DotLanes); the GGUF source
	// sets it. Other types ignore it.
	GGMLSums bool

	packed       []byte    // the weights in the layout of the tile kernels (pack.go), or nil
	layout       DType     // the format whose tile kernels read packed
	affineBias   []float32 // MLX repacked as Q4_0: b + 8s per group (pack_affine.go) in float32,
	affineBias16 []uint16  // or in fp16
}

// NewMatrix validates the sizes of m (Cols a multiple of the block size,
// len(Data) exact, ...) and returns a matrix ready for MatMul and Row. It
// keeps m's slices, without copying, except for F32/F16/BF16 data (and F32 or
// half scales) that is not aligned to its element size, which it copies.
// When the CPU has tile kernels for the format (Q4_0, Q8_0, Q4_K, Q6_K and
// MXFP4 on amd64), it also keeps a copy of the weights repacked for them,
// about the size of Data;
// Row and the reference kernels keep reading Data.
func NewMatrix(m Matrix) (*Matrix, error) { return newMatrix(m, true) }

// NewMatrixUnpacked is NewMatrix without the packed copy: the kernels read
// Data where it lies, so a mapped file's pages become resident only as rows
// are read. It suits weights most of which a step does not read, such as
// the experts of a mixture, whose packed copies would all be resident.
func NewMatrixUnpacked(m Matrix) (*Matrix, error) { return newMatrix(m, false) }

// newMatrix validates m and, when pack is set, makes the packed copy.
func newMatrix(m Matrix, pack bool) (*Matrix, error) {
	if !littleEndian() {
		return nil, fmt.Errorf("%w: the kernels need a little-endian CPU", ErrMatrix)
	}
	if m.Type > MLXAffine {
		return nil, fmt.Errorf("%w: unknown type %v", ErrMatrix, m.Type)
	}
	if m.Rows <= 0 || m.Cols <= 0 {
		return nil, fmt.Errorf("%w: %v %d×%d: rows and columns must be positive", ErrMatrix, m.Type, m.Rows, m.Cols)
	}
	if hi, lo := bits.Mul64(uint64(m.Rows), uint64(m.Cols)); hi != 0 || lo > maxElems {
		return nil, fmt.Errorf("%w: %v %d×%d is too large", ErrMatrix, m.Type, m.Rows, m.Cols)
	}
	if m.Type == MLXAffine {
		if err := m.checkAffine(); err != nil {
			return nil, err
		}
	} else {
		be := m.Type.blockElems()
		if m.Cols%be != 0 {
			return nil, fmt.Errorf("%w: %v %d×%d: %d columns is not a multiple of the block size %d", ErrMatrix, m.Type, m.Rows, m.Cols, m.Cols, be)
		}
		if want := m.Rows * (m.Cols / be) * m.Type.blockBytes(); len(m.Data) != want {
			return nil, fmt.Errorf("%w: %v %d×%d needs %d bytes of data, got %d", ErrMatrix, m.Type, m.Rows, m.Cols, want, len(m.Data))
		}
		m.Data = aligned(m.Data, m.Type)
	}
	m.layout = m.Type
	if pack {
		m.Pack()
	}
	return &m, nil
}

// Pack makes the copy of a matrix of NewMatrixUnpacked that NewMatrix
// would have made for the CPU's tile kernels, if any, and reports whether
// m now has one. It must not run while a matmul reads m; once it returns,
// the kernels read the copy.
func (m *Matrix) Pack() bool {
	if m.packed != nil || m.affinePacked() {
		return true
	}
	if m.Type == Q8_0 && fastKernels.gemm[layoutQ8x8].one != nil {
		m.layout = layoutQ8x8
	}
	switch {
	case fastKernels.gemm[m.layout].one != nil && (m.Type != MXFP4 || mxfp4HalfScales(m.Data)):
		m.pack()
	case m.Type == MLXAffine && !affineInt8Off.Load():
		m.packAffine()
	case m.Type == Q5_0:
		m.packQ5_0()
	}
	return m.packed != nil || m.affinePacked()
}

func (m *Matrix) checkAffine() error {
	if m.Bits != 4 && m.Bits != 8 {
		return fmt.Errorf("%w: MLX affine %d×%d: %d bits per element, want 4 or 8", ErrMatrix, m.Rows, m.Cols, m.Bits)
	}
	if m.GroupSize != 32 && m.GroupSize != 64 && m.GroupSize != 128 {
		return fmt.Errorf("%w: MLX affine %d×%d: group size %d, want 32, 64 or 128", ErrMatrix, m.Rows, m.Cols, m.GroupSize)
	}
	if m.Cols%m.GroupSize != 0 {
		return fmt.Errorf("%w: MLX affine %d×%d: %d columns is not a multiple of the group size %d", ErrMatrix, m.Rows, m.Cols, m.Cols, m.GroupSize)
	}
	if m.ScaleType != F32 && m.ScaleType != F16 && m.ScaleType != BF16 {
		return fmt.Errorf("%w: MLX affine %d×%d: scales of type %v, want F32, F16 or BF16", ErrMatrix, m.Rows, m.Cols, m.ScaleType)
	}
	if want := m.Rows * m.Cols * m.Bits / 8; len(m.Data) != want {
		return fmt.Errorf("%w: MLX affine %d×%d, %d bits: needs %d bytes of data, got %d", ErrMatrix, m.Rows, m.Cols, m.Bits, want, len(m.Data))
	}
	want := m.Rows * (m.Cols / m.GroupSize) * m.ScaleType.blockBytes()
	if len(m.Scales) != want || len(m.Biases) != want {
		return fmt.Errorf("%w: MLX affine %d×%d: scales and biases need %d bytes each, got %d and %d", ErrMatrix, m.Rows, m.Cols, want, len(m.Scales), len(m.Biases))
	}
	m.Scales = aligned(m.Scales, m.ScaleType)
	m.Biases = aligned(m.Biases, m.ScaleType)
	return nil
}

// aligned returns b, or a copy of it when b holds elements of t that are not
// aligned to their size (the kernels read them as []float32 or []uint16).
func aligned(b []byte, t DType) []byte {
	size := uintptr(t.blockBytes())
	if t > BF16 || len(b) == 0 || uintptr(unsafe.Pointer(&b[0]))%size == 0 {
		return b
	}
	var c []byte
	if size == 4 {
		c = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(make([]float32, len(b)/4)))), len(b))
	} else {
		c = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(make([]uint16, len(b)/2)))), len(b))
	}
	copy(c, b)
	return c
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// asF32 and asU16 view aligned little-endian bytes as elements.
func asF32(b []byte) []float32 {
	if len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}

func asU16(b []byte) []uint16 {
	if len(b) < 2 {
		return nil
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(&b[0])), len(b)/2)
}

// rowBytes is the size of one stored row (of Data).
func (m *Matrix) rowBytes() int {
	if m.Type == MLXAffine {
		return m.Cols * m.Bits / 8
	}
	return m.Cols / m.Type.blockElems() * m.Type.blockBytes()
}

// rowData returns the stored bytes of row r.
func (m *Matrix) rowData(r int) []byte {
	n := m.rowBytes()
	return m.Data[r*n : (r+1)*n]
}
