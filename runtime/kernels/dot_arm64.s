//go:build !noasm

#include "textflag.h"
#include "asm_arm64.h"

// NEON kernels for the float vector primitives. Instructions the Go
// assembler does not know are encoded with WORD; the comment shows each.
// Lengths are multiples of 16 (the Go wrappers finish the tails).

// func dotNEON(a, b []float32) float32
TEXT ·dotNEON(SB), NOSPLIT, $0-52
	DOTARGS
	CBZ  R2, dotdone

dotloop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	FMA4
	SUBS $16, R2, R2
	BNE  dotloop

dotdone:
	SUM4
	FMOVS F16, ret+48(FP)
	RET

// func dotF16NEON(a []uint16, b []float32) float32
TEXT ·dotF16NEON(SB), NOSPLIT, $0-52
	DOTARGS
	CBZ  R2, hdone

hloop:
	VLD1.P 32(R0), [V2.H8, V3.H8]
	WORD $0x0e217840 // fcvtl v0.4s, v2.4h
	WORD $0x4e217841 // fcvtl2 v1.4s, v2.8h
	WORD $0x0e217862 // fcvtl v2.4s, v3.4h
	WORD $0x4e217863 // fcvtl2 v3.4s, v3.8h
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	FMA4
	SUBS $16, R2, R2
	BNE  hloop

hdone:
	SUM4
	FMOVS F16, ret+48(FP)
	RET

// func dotBF16NEON(a []uint16, b []float32) float32
TEXT ·dotBF16NEON(SB), NOSPLIT, $0-52
	DOTARGS
	CBZ  R2, bdone

bloop:
	VLD1.P 32(R0), [V4.H8, V5.H8]
	WORD $0x2e613880 // shll v0.4s, v4.4h, #16
	WORD $0x6e613881 // shll2 v1.4s, v4.8h, #16
	WORD $0x2e6138a2 // shll v2.4s, v5.4h, #16
	WORD $0x6e6138a3 // shll2 v3.4s, v5.8h, #16
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	FMA4
	SUBS $16, R2, R2
	BNE  bloop

bdone:
	SUM4
	FMOVS F16, ret+48(FP)
	RET

// func axpyNEON(alpha float32, x, y []float32)
TEXT ·axpyNEON(SB), NOSPLIT, $0-56
	FMOVS alpha+0(FP), F0
	VDUP V0.S[0], V0.S4
	MOVD x_base+8(FP), R0
	MOVD x_len+16(FP), R2
	MOVD y_base+32(FP), R1
	CBZ  R2, adone

aloop:
	VLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	AXPY4
	SUBS $16, R2, R2
	BNE  aloop

adone:
	RET

// func axpyF16NEON(alpha float32, x []uint16, y []float32)
TEXT ·axpyF16NEON(SB), NOSPLIT, $0-56
	FMOVS alpha+0(FP), F0
	VDUP V0.S[0], V0.S4
	MOVD x_base+8(FP), R0
	MOVD x_len+16(FP), R2
	MOVD y_base+32(FP), R1
	CBZ  R2, ahdone

ahloop:
	VLD1.P 32(R0), [V2.H8, V3.H8]
	HTOF4
	AXPY4
	SUBS $16, R2, R2
	BNE  ahloop

ahdone:
	RET

// func f16ToF32NEON(dst []float32, src []uint16)
TEXT ·f16ToF32NEON(SB), NOSPLIT, $0-48
	MOVD dst_base+0(FP), R1
	MOVD src_base+24(FP), R0
	MOVD src_len+32(FP), R2
	CBZ  R2, cdone

cloop:
	VLD1.P 32(R0), [V2.H8, V3.H8]
	HTOF4
	VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R1)
	SUBS $16, R2, R2
	BNE  cloop

cdone:
	RET

// func f32ToF16NEON(dst []uint16, src []float32)
TEXT ·f32ToF16NEON(SB), NOSPLIT, $0-48
	MOVD dst_base+0(FP), R1
	MOVD src_base+24(FP), R0
	MOVD src_len+32(FP), R2
	CBZ  R2, edone

eloop:
	VLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x0e216882 // fcvtn v2.4h, v4.4s
	WORD $0x4e2168a2 // fcvtn2 v2.8h, v5.4s
	WORD $0x0e2168c3 // fcvtn v3.4h, v6.4s
	WORD $0x4e2168e3 // fcvtn2 v3.8h, v7.4s
	VST1.P [V2.H8, V3.H8], 32(R1)
	SUBS $16, R2, R2
	BNE  eloop

edone:
	RET
