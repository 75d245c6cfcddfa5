package kernels

import "encoding/binary"

// Q5_0 weights run on the Q8_0 tile kernels. A Q5_0 value is d·(q−16) with
// q in [0, 32) and an fp16 d, so the same block is exactly a Q8_0 block
// with the same d and the int8 values q−16; both take Q8_0 activations,
// and the integer sums of a block are the ones ggml computes for Q5_0.
// The packed copy reads 34 bytes per block instead of 22, a price worth
// paying over the row-at-a-time Q5_0 kernel (llama.cpp's K-quant mixes
// store many tensors of models with 576 or 960 columns as Q5_0).

// packQ5_0 builds m's packed copy in the Q8_0 layout when this CPU has the
// Q8_0 tile kernels, converting each block as it is placed; otherwise m
// keeps the Q5_0 kernels.
func (m *Matrix) packQ5_0() {
	if fastKernels.gemm[Q8_0].one == nil {
		return
	}
	m.layout = Q8_0
	m.pack()
}

// q5BlockToQ8 writes the Q8_0 form of a Q5_0 block: the scale, then value
// j from the low nibble of byte j (j < 16) or the high nibble of byte j−16,
// with bit j of the 32-bit high-bit word as its fifth bit, minus 16. It works
// on 8 values at a time: q + 0x70 cannot carry out of its byte (q < 32),
// and flipping its top bit gives q − 16 as an int8.
func q5BlockToQ8(dst, src []byte) {
	const bias, flip = 0x7070707070707070, 0x8080808080808080
	le := binary.LittleEndian
	dst, src = dst[:q8_0], src[:q5_0]
	dst[0], dst[1] = src[0], src[1]
	qh := le.Uint32(src[2:])
	lo, hi := le.Uint64(src[6:]), le.Uint64(src[14:])
	le.PutUint64(dst[2:], (lo&lowNibbles|q5High[qh&0xff])+bias^flip)
	le.PutUint64(dst[10:], (hi&lowNibbles|q5High[qh>>8&0xff])+bias^flip)
	le.PutUint64(dst[18:], (lo>>4&lowNibbles|q5High[qh>>16&0xff])+bias^flip)
	le.PutUint64(dst[26:], (hi>>4&lowNibbles|q5High[qh>>24])+bias^flip)
}

// q5High[b] has, in byte i, bit i of b as the fifth bit (0x10).
var q5High = func() (t [256]uint64) {
	for b := range t {
		for i := range 8 {
			t[b] |= uint64(b>>i&1) << (8*i + 4)
		}
	}
	return t
}()
