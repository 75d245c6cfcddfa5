package kernels

import (
	"encoding/binary"
	"sync/atomic"
)

// MLX affine 4-bit weights run on the Q4_0 tile kernels. A group of g
// values is w = s·q + b with q in [0, 16), so
//
//	Σ w·x = Σ_32-blocks s·Σ(q−8)·x  +  Σ_groups (b + 8s)·Σx
//
// The first sum is a Q4_0 matrix with the MLX nibbles and d = s (exact when
// every scale is an fp16 value, as a BF16 or F16 scale of normal size is);
// the second is a short dot product per row with the group sums of the
// activations, in float32 (affineBias, [groups][rows] so that a chunk of
// rows takes one fused multiply-add per group and row). The activations are quantized
// to 8 bits, as for Q4_0: 4–5x faster than the float kernels, but no longer
// within 1e-3 of MLX's own float results, so it is a choice (SetAffineInt8).

var affineInt8 atomic.Bool

// SetAffineInt8 makes the 4-bit MLX matrices that NewMatrix builds from now
// on run on the Q4_0 integer tile kernels with 8-bit activations, as
// llama.cpp computes Q4_0 (on = true), or on the float kernels (false, the
// default). It is meant to be called once at start-up, before loading.
func SetAffineInt8(on bool) { affineInt8.Store(on) }

// packAffine repacks a 4-bit MLX matrix for the Q4_0 tile kernels when this
// CPU has them and every scale is exact in fp16; otherwise m keeps the
// float kernels.
func (m *Matrix) packAffine() {
	if m.Bits != 4 || m.GroupSize%qk != 0 || fastImpls.gemm[Q4_0].one == nil {
		return
	}
	groups := m.Cols / m.GroupSize
	n := m.Rows * groups
	d := make([]uint16, n)
	for i := range n {
		s := m.affineParam(m.Scales, i)
		if d[i] = f32ToF16(s); f16ToF32(d[i]) != s {
			return
		}
	}
	q := Matrix{Type: Q4_0, layout: Q4_0, Rows: m.Rows, Cols: m.Cols, Data: make([]byte, m.Rows*m.Cols/qk*q4_0)}
	bpg := m.GroupSize / qk // Q4_0 blocks per group
	for r := range m.Rows {
		row := m.rowData(r)
		for b := range m.Cols / qk {
			blk := q.Data[(r*m.Cols/qk+b)*q4_0:]
			binary.LittleEndian.PutUint16(blk, d[r*groups+b/bpg])
			affineBlock(blk[2:q4_0], row[b*qk/2:(b+1)*qk/2])
		}
	}
	q.pack()
	m.affineBias = make([]float32, n)
	for r := range m.Rows {
		for g := range groups {
			i := r*groups + g
			m.affineBias[g*m.Rows+r] = m.affineParam(m.Biases, i) + 8*f16ToF32(d[i])
		}
	}
	m.packed, m.layout = q.packed, Q4_0
}

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

// addAffineBias adds Σ_g affineBias[g,r]·xsum[i,g] to the outputs of rows
// [r0, r1) of a repacked MLX matrix for every activation row, one fused
// multiply-add per group in the order of the groups, whichever rows the
// chunk holds: the rows past the last multiple of 8 go through the same
// vector code in the scratch tile.
func (p *Pool) addAffineBias(s *workerScratch, pt *mmPart, r0, r1 int) {
	j := &p.mm
	w := pt.w
	groups := w.Cols / w.GroupSize
	n8 := r0 + (r1-r0)&^7
	for i := range j.n {
		out := pt.out[i*w.Rows:]
		for g, x := range j.xsum[i*groups : (i+1)*groups] {
			b := w.affineBias[g*w.Rows:]
			j.k.axpy(x, b[r0:n8], out[r0:n8])
			if n8 < r1 {
				tb, to := s.tile[:8], s.tile[8:16]
				clear(s.tile[:])
				copy(tb, b[n8:r1])
				copy(to, out[n8:r1])
				j.k.axpy(x, tb, to)
				copy(out[n8:r1], to)
			}
		}
	}
}
