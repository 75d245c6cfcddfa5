//go:build !noasm

#include "textflag.h"

// NEON kernels for the float vector primitives. Instructions the Go
// assembler does not know are encoded with WORD; the comment shows each.
// Lengths are multiples of 16 (the Go wrappers finish the tails).

// func dotNEON(a, b []float32) float32
TEXT ·dotNEON(SB), NOSPLIT, $0-52
	MOVD a_base+0(FP), R0
	MOVD a_len+8(FP), R2
	MOVD b_base+24(FP), R1
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	CBZ  R2, dotdone

dotloop:
	VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	VFMLA V4.S4, V0.S4, V16.S4
	VFMLA V5.S4, V1.S4, V17.S4
	VFMLA V6.S4, V2.S4, V18.S4
	VFMLA V7.S4, V3.S4, V19.S4
	SUBS $16, R2, R2
	BNE  dotloop

dotdone:
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d610 // fadd v16.4s, v16.4s, v18.4s
	WORD $0x6e30d610 // faddp v16.4s, v16.4s, v16.4s
	WORD $0x7e30da10 // faddp s16, v16.2s
	FMOVS F16, ret+48(FP)
	RET

// func dotF16NEON(a []uint16, b []float32) float32
TEXT ·dotF16NEON(SB), NOSPLIT, $0-52
	MOVD a_base+0(FP), R0
	MOVD a_len+8(FP), R2
	MOVD b_base+24(FP), R1
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	CBZ  R2, hdone

hloop:
	VLD1.P 32(R0), [V0.H8, V1.H8]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x0e217802 // fcvtl v2.4s, v0.4h
	WORD $0x4e217803 // fcvtl2 v3.4s, v0.8h
	WORD $0x0e217834 // fcvtl v20.4s, v1.4h
	WORD $0x4e217835 // fcvtl2 v21.4s, v1.8h
	VFMLA V4.S4, V2.S4, V16.S4
	VFMLA V5.S4, V3.S4, V17.S4
	VFMLA V6.S4, V20.S4, V18.S4
	VFMLA V7.S4, V21.S4, V19.S4
	SUBS $16, R2, R2
	BNE  hloop

hdone:
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d610 // fadd v16.4s, v16.4s, v18.4s
	WORD $0x6e30d610 // faddp v16.4s, v16.4s, v16.4s
	WORD $0x7e30da10 // faddp s16, v16.2s
	FMOVS F16, ret+48(FP)
	RET

// func dotBF16NEON(a []uint16, b []float32) float32
TEXT ·dotBF16NEON(SB), NOSPLIT, $0-52
	MOVD a_base+0(FP), R0
	MOVD a_len+8(FP), R2
	MOVD b_base+24(FP), R1
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	CBZ  R2, bdone

bloop:
	VLD1.P 32(R0), [V0.H8, V1.H8]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x2e613802 // shll v2.4s, v0.4h, #16
	WORD $0x6e613803 // shll2 v3.4s, v0.8h, #16
	WORD $0x2e613834 // shll v20.4s, v1.4h, #16
	WORD $0x6e613835 // shll2 v21.4s, v1.8h, #16
	VFMLA V4.S4, V2.S4, V16.S4
	VFMLA V5.S4, V3.S4, V17.S4
	VFMLA V6.S4, V20.S4, V18.S4
	VFMLA V7.S4, V21.S4, V19.S4
	SUBS $16, R2, R2
	BNE  bloop

bdone:
	WORD $0x4e31d610 // fadd v16.4s, v16.4s, v17.4s
	WORD $0x4e33d652 // fadd v18.4s, v18.4s, v19.4s
	WORD $0x4e32d610 // fadd v16.4s, v16.4s, v18.4s
	WORD $0x6e30d610 // faddp v16.4s, v16.4s, v16.4s
	WORD $0x7e30da10 // faddp s16, v16.2s
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
	VLD1 (R1), [V16.S4, V17.S4, V18.S4, V19.S4]
	VFMLA V0.S4, V4.S4, V16.S4
	VFMLA V0.S4, V5.S4, V17.S4
	VFMLA V0.S4, V6.S4, V18.S4
	VFMLA V0.S4, V7.S4, V19.S4
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R1)
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
	VLD1 (R1), [V16.S4, V17.S4, V18.S4, V19.S4]
	WORD $0x0e217844 // fcvtl v4.4s, v2.4h
	WORD $0x4e217845 // fcvtl2 v5.4s, v2.8h
	WORD $0x0e217866 // fcvtl v6.4s, v3.4h
	WORD $0x4e217867 // fcvtl2 v7.4s, v3.8h
	VFMLA V0.S4, V4.S4, V16.S4
	VFMLA V0.S4, V5.S4, V17.S4
	VFMLA V0.S4, V6.S4, V18.S4
	VFMLA V0.S4, V7.S4, V19.S4
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R1)
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
	WORD $0x0e217844 // fcvtl v4.4s, v2.4h
	WORD $0x4e217845 // fcvtl2 v5.4s, v2.8h
	WORD $0x0e217866 // fcvtl v6.4s, v3.4h
	WORD $0x4e217867 // fcvtl2 v7.4s, v3.8h
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
