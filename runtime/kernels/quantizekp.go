package kernels

import (
	"encoding/binary"
	"math"
)

// quantizeKPRef quantizes len(src) (a multiple of 256) floats as ggml's
// Q8_K blocks in the reordered form of the packed K-quant kernels.
func quantizeKPRef(dst []byte, src []float32) {
	var blk [q8K]byte
	for s := range len(src) / qkK {
		quantizeQ8_KBlock(blk[:], src[s*qkK:(s+1)*qkK])
		reorderQ8_K(dst[s*kpAct:(s+1)*kpAct], blk[:])
	}
}

// reorderQ8_K writes one Q8_K block b in the actQ8_KP form at dst.
func reorderQ8_K(dst, b []byte) {
	qs := b[4 : 4+qkK]
	for k, p := range kpPerm {
		dst[k] = qs[p]
	}
	d := f32At(b)
	var bs [16]int32
	for k := range bs {
		bs[k] = int32(int16(le16(b[4+qkK+2*k:])))
	}
	for j := range 8 {
		binary.LittleEndian.PutUint32(dst[256+4*j:], uint32(-32*bs[2*j]))
		binary.LittleEndian.PutUint32(dst[288+4*j:], uint32(-32*bs[2*j+1]))
		binary.LittleEndian.PutUint32(dst[320+4*j:], math.Float32bits(d*float32(bs[2*j]+bs[2*j+1])))
		binary.LittleEndian.PutUint32(dst[352+4*j:], math.Float32bits(d))
	}
}
