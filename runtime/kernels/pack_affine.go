package kernels

import (
	"encoding/binary"
	"math"
	"sync/atomic"
)

// MLX affine 4-bit weights run on the Q4_0 tile kernels. A group of g
// values is w = s·q + b with q in [0, 16), so
//
//	Σ w·x = Σ_32-blocks s·Σ(q−8)·x  +  Σ_groups (b + 8s)·Σx
//
// The first sum is a Q4_0 matrix with the MLX nibbles and d = s (exact when
// every scale is an fp16 value, as a BF16 or F16 scale of normal size is),
// with 8-bit activations; the second is a short dot product per row with
// the exact group sums of the activations, in float32 (affine_bias.go).
// The bias b + 8s of each group is kept in fp16 (affineBias16, two bytes
// to read per group), rounded: its relative error, at most 2^-11, is a
// quarter of the precision of the BF16 bias b itself, and far below that of
// the 8-bit activations; when a value is out of the fp16 range they are
// all kept in float32 (affineBias). Centring the nibbles on 8 matters: the
// activations' quantization errors then meet s·(q−8), not s·q, a smaller
// term.
//
// The activations are quantized to 8 bits, as for Q4_0, and this is the
// default, as for every GGUF format: the integer tile kernels are the fast
// path, within the bounds of llama.cpp's Q4_0 rather than within 1e-3 of
// MLX's own float results. SetAffineInt8(false) keeps the exact float
// kernels.

// affineInt8Off turns the integer path off (the zero value is on).
var affineInt8Off atomic.Bool

// SetAffineInt8 makes the 4-bit MLX matrices that NewMatrix builds from now
// on run on the Q4_0 integer tile kernels with 8-bit activations, as
// llama.cpp computes Q4_0 (on = true, the default), or on the float
// kernels, within 1e-3 of MLX's own results (false). It is meant to be
// called once at start-up, before loading.
func SetAffineInt8(on bool) { affineInt8Off.Store(!on) }

// packAffine repacks a 4-bit MLX matrix for the Q4_0 tile kernels when this
// CPU has them and every scale is exact in fp16; otherwise m keeps the
// float kernels. The blocks are converted as they are packed (packGroups),
// so it allocates only what it keeps: short-lived copies the size of the
// scales would stay on the heap until the next collection, which comes late
// while the model's packed weights grow it.
func (m *Matrix) packAffine() {
	if m.Bits != 4 || m.GroupSize%qk != 0 || fastKernels.gemm[Q4_0].one == nil {
		return
	}
	for i := range m.Rows * (m.Cols / m.GroupSize) {
		if s := m.affineParam(m.Scales, i); f16ToF32(f32ToF16(s)) != s {
			return
		}
	}
	m.layout = Q4_0 // for groupBytes
	m.packed = allocWeights((m.Rows + groupRows - 1) / groupRows * m.groupBytes())
	m.packParallel(m.packGroups)
	m.packBias()
}

// affineBlockToQ4 writes block b of row r of a 4-bit MLX matrix as a Q4_0
// block: the scale of its group in fp16, then its nibbles in Q4_0 order.
func (m *Matrix) affineBlockToQ4(dst []byte, r, b int) {
	i := r*(m.Cols/m.GroupSize) + b*qk/m.GroupSize
	binary.LittleEndian.PutUint16(dst, f32ToF16(m.affineParam(m.Scales, i)))
	affineBlock(dst[2:q4_0], m.rowData(r)[b*qk/2:(b+1)*qk/2])
}

// packBias lays out the bias b + 8s of every group of m for the bias
// kernels: in fp16, or in float32 when one is out of the fp16 range.
func (m *Matrix) packBias() {
	groups := m.Cols / m.GroupSize
	size := (m.Rows + biasRows - 1) / biasRows * biasRows * groups
	b16 := make([]uint16, size)
	for r := range m.Rows {
		for g := range groups {
			h := f32ToF16(m.groupBias(r*groups + g))
			if math.IsInf(float64(f16ToF32(h)), 0) {
				m.packBias32()
				return
			}
			b16[biasIndex(r, g, groups)] = h
		}
	}
	m.affineBias16 = b16
}

// groupBias returns b + 8s of group i (counted over the whole matrix).
func (m *Matrix) groupBias(i int) float32 {
	return m.affineParam(m.Biases, i) + 8*m.affineParam(m.Scales, i)
}

// packBias32 is packBias in float32.
func (m *Matrix) packBias32() {
	groups := m.Cols / m.GroupSize
	m.affineBias = make([]float32, (m.Rows+biasRows-1)/biasRows*biasRows*groups)
	for r := range m.Rows {
		for g := range groups {
			m.affineBias[biasIndex(r, g, groups)] = m.groupBias(r*groups + g)
		}
	}
}

// affinePacked reports whether m is an MLX matrix repacked for the Q4_0
// tile kernels.
func (m *Matrix) affinePacked() bool { return m.affineBias != nil || m.affineBias16 != nil }

// affineBlock writes the 32 nibbles of an MLX block (value i in byte i/2,
// low nibble first) in the order of a Q4_0 block (byte j holds values j and
// j+16).
func affineBlock(dst, src []byte) {
	for j := range 16 {
		lo := src[j/2] >> (4 * (j & 1)) & 0xf
		hi := src[(j+16)/2] >> (4 * (j & 1)) & 0xf
		dst[j] = lo | hi<<4
	}
}
