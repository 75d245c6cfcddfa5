package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
)

// blockFunc dequantizes one block b of a type into y (one block of values).
type blockFunc func(b []byte, y []float32)

// rowFunc dequantizes whole blocks: len(src) matches len(dst).
type rowFunc func(src []byte, dst []float32)

// dequantizers maps each type Dequantize can compute to its function.
var dequantizers = map[TensorType]rowFunc{
	TypeF32: func(src []byte, dst []float32) {
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
	},
	TypeF16: func(src []byte, dst []float32) {
		for i := range dst {
			dst[i] = F16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
		}
	},
	TypeBF16: func(src []byte, dst []float32) {
		for i := range dst {
			dst[i] = BF16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
		}
	},
	TypeF64: func(src []byte, dst []float32) {
		for i := range dst {
			dst[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:])))
		}
	},
	TypeQ4_0:   blocks(TypeQ4_0, dequantQ4_0),
	TypeQ4_1:   blocks(TypeQ4_1, dequantQ4_1),
	TypeQ5_0:   blocks(TypeQ5_0, dequantQ5_0),
	TypeQ5_1:   blocks(TypeQ5_1, dequantQ5_1),
	TypeQ8_0:   blocks(TypeQ8_0, dequantQ8_0),
	TypeQ8_1:   blocks(TypeQ8_1, dequantQ8_1),
	TypeQ2_K:   blocks(TypeQ2_K, dequantQ2K),
	TypeQ3_K:   blocks(TypeQ3_K, dequantQ3K),
	TypeQ4_K:   blocks(TypeQ4_K, dequantQ4K),
	TypeQ5_K:   blocks(TypeQ5_K, dequantQ5K),
	TypeQ6_K:   blocks(TypeQ6_K, dequantQ6K),
	TypeQ8_K:   blocks(TypeQ8_K, dequantQ8K),
	TypeIQ4_NL: blocks(TypeIQ4_NL, dequantIQ4NL),
	TypeIQ4_XS: blocks(TypeIQ4_XS, dequantIQ4XS),
	TypeMXFP4:  blocks(TypeMXFP4, dequantMXFP4),
}

// blocks applies fn to each block of type t.
func blocks(t TensorType, fn blockFunc) rowFunc {
	bs, ts := t.BlockSize(), t.TypeSize()
	return func(src []byte, dst []float32) {
		for i := range len(dst) / bs {
			fn(src[i*ts:(i+1)*ts], dst[i*bs:(i+1)*bs])
		}
	}
}

// Dequantize converts len(dst) values of type t, stored in src, to float32.
// len(dst) must be a multiple of t.BlockSize() and len(src) exactly
// len(dst)/BlockSize*TypeSize bytes. It is the plain-Go reference: simple
// and exact rather than fast. A type without an implementation gives an
// error wrapping ErrUnsupported that names the type.
func Dequantize(t TensorType, src []byte, dst []float32) error {
	fn, ok := dequantizers[t]
	if !ok {
		return fmt.Errorf("%w: dequantize: no implementation for tensor type %s", ErrUnsupported, t)
	}
	bs, ts := t.BlockSize(), t.TypeSize()
	if len(dst)%bs != 0 {
		return fmt.Errorf("%w: dequantize %s: %d values is not a multiple of the block size %d", ErrSize, t, len(dst), bs)
	}
	nb := len(dst) / bs
	if len(src)/ts != nb || len(src)%ts != 0 {
		return fmt.Errorf("%w: dequantize %s: %d bytes for %d values, want %d", ErrSize, t, len(src), len(dst), nb*ts)
	}
	fn(src, dst)
	return nil
}

// half reads a little-endian F16 at b[i:].
func half(b []byte, i int) float32 { return F16ToF32(binary.LittleEndian.Uint16(b[i:])) }

// Q4_0: d f16, 16 bytes of nibbles; x = (q - 8)·d. Element j is the low
// nibble of byte j, element j+16 the high nibble.
func dequantQ4_0(b []byte, y []float32) {
	d, qs := half(b, 0), b[2:18]
	for j, q := range qs {
		y[j] = float32(int(q&0xf)-8) * d
		y[j+16] = float32(int(q>>4)-8) * d
	}
}

// Q4_1: d, m f16, 16 bytes of nibbles; x = q·d + m.
func dequantQ4_1(b []byte, y []float32) {
	d, m, qs := half(b, 0), half(b, 2), b[4:20]
	for j, q := range qs {
		y[j] = float32(q&0xf)*d + m
		y[j+16] = float32(q>>4)*d + m
	}
}

// Q5_0: d f16, 32 high bits (u32), 16 bytes of nibbles; x = (q - 16)·d.
// Bit j of the high word belongs to element j, bit j+16 to element j+16.
func dequantQ5_0(b []byte, y []float32) {
	d, qh, qs := half(b, 0), binary.LittleEndian.Uint32(b[2:]), b[6:22]
	for j, q := range qs {
		lo := int(q&0xf) | int(qh>>j&1)<<4
		hi := int(q>>4) | int(qh>>(j+16)&1)<<4
		y[j] = float32(lo-16) * d
		y[j+16] = float32(hi-16) * d
	}
}

// Q5_1: d, m f16, 32 high bits, 16 bytes of nibbles; x = q·d + m.
func dequantQ5_1(b []byte, y []float32) {
	d, m, qh, qs := half(b, 0), half(b, 2), binary.LittleEndian.Uint32(b[4:]), b[8:24]
	for j, q := range qs {
		lo := uint32(q&0xf) | (qh>>j&1)<<4
		hi := uint32(q>>4) | (qh>>(j+16)&1)<<4
		y[j] = float32(lo)*d + m
		y[j+16] = float32(hi)*d + m
	}
}

// Q8_0: d f16, 32 int8; x = q·d.
func dequantQ8_0(b []byte, y []float32) {
	d := half(b, 0)
	for j, q := range b[2:34] {
		y[j] = float32(int8(q)) * d
	}
}

// Q8_1: d f16, s f16 (d·Σq, not needed here), 32 int8; x = q·d.
func dequantQ8_1(b []byte, y []float32) {
	d := half(b, 0)
	for j, q := range b[4:36] {
		y[j] = float32(int8(q)) * d
	}
}
