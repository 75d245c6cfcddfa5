//go:build !noasm

#include "textflag.h"

// Attention over Q8_0 and Q4_0 cache rows (kvquant.go), NEON: the
// weighted sum of values keeps the 32 float32 sums of one block in
// V16–V23 over every row of the call, as the AVX2 kernels do; a block's
// bytes are widened (SXTL) to int32 and converted (SCVTF) to floats in
// V24–V31. The scores use the dot products of the weight kernels.

// HALF loads the IEEE half at M into the single-precision register F
// (clobbers R).
#define HALF(M, R, F) \
	MOVHU M, R \
	FMOVS R, F \
	FCVTHS F, F

// Q8BYTES loads the 32 int8 values of the Q8_0 block at R into V1, V2
// (clobbers T).
#define Q8BYTES(R, T) \
	ADD  $2, R, T \
	VLD1 (T), [V1.B16, V2.B16]

// Q4BYTES loads the 32 values (nibble - 8) of the Q4_0 block at R into
// V1 (low nibbles) and V2 (high nibbles); V7 holds 0x0f bytes, V8 0x08
// bytes (clobbers T).
#define Q4BYTES(R, T) \
	ADD   $2, R, T \
	VLD1  (T), [V2.B16] \
	VAND  V7.B16, V2.B16, V1.B16 \
	VUSHR $4, V2.B16, V2.B16 \
	VSUB  V8.B16, V1.B16, V1.B16 \
	VSUB  V8.B16, V2.B16, V2.B16

// FLOATS converts the 32 int8 values of V1, V2 to floats in V24–V31
// (clobbers V3–V6).
#define FLOATS \
	WORD $0x0f08a423 /* sxtl v3.8h, v1.8b */ \
	WORD $0x4f08a424 /* sxtl2 v4.8h, v1.16b */ \
	WORD $0x0f08a445 /* sxtl v5.8h, v2.8b */ \
	WORD $0x4f08a446 /* sxtl2 v6.8h, v2.16b */ \
	WORD $0x0f10a478 /* sxtl v24.4s, v3.4h */ \
	WORD $0x4f10a479 /* sxtl2 v25.4s, v3.8h */ \
	WORD $0x0f10a49a /* sxtl v26.4s, v4.4h */ \
	WORD $0x4f10a49b /* sxtl2 v27.4s, v4.8h */ \
	WORD $0x0f10a4bc /* sxtl v28.4s, v5.4h */ \
	WORD $0x4f10a4bd /* sxtl2 v29.4s, v5.8h */ \
	WORD $0x0f10a4de /* sxtl v30.4s, v6.4h */ \
	WORD $0x4f10a4df /* sxtl2 v31.4s, v6.8h */ \
	WORD $0x4e21db18 /* scvtf v24.4s, v24.4s */ \
	WORD $0x4e21db39 /* scvtf v25.4s, v25.4s */ \
	WORD $0x4e21db5a /* scvtf v26.4s, v26.4s */ \
	WORD $0x4e21db7b /* scvtf v27.4s, v27.4s */ \
	WORD $0x4e21db9c /* scvtf v28.4s, v28.4s */ \
	WORD $0x4e21dbbd /* scvtf v29.4s, v29.4s */ \
	WORD $0x4e21dbde /* scvtf v30.4s, v30.4s */ \
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s

// MADD8 adds V0 (in every lane) times V24–V31 to the sums V16–V23.
#define MADD8 \
	VFMLA V0.S4, V24.S4, V16.S4 \
	VFMLA V0.S4, V25.S4, V17.S4 \
	VFMLA V0.S4, V26.S4, V18.S4 \
	VFMLA V0.S4, V27.S4, V19.S4 \
	VFMLA V0.S4, V28.S4, V20.S4 \
	VFMLA V0.S4, V29.S4, V21.S4 \
	VFMLA V0.S4, V30.S4, V22.S4 \
	VFMLA V0.S4, V31.S4, V23.S4

// SCALE8 multiplies V24–V31 by V0 (in every lane).
#define SCALE8 \
	WORD $0x6e20df18 /* fmul v24.4s, v24.4s, v0.4s */ \
	WORD $0x6e20df39 /* fmul v25.4s, v25.4s, v0.4s */ \
	WORD $0x6e20df5a /* fmul v26.4s, v26.4s, v0.4s */ \
	WORD $0x6e20df7b /* fmul v27.4s, v27.4s, v0.4s */ \
	WORD $0x6e20df9c /* fmul v28.4s, v28.4s, v0.4s */ \
	WORD $0x6e20dfbd /* fmul v29.4s, v29.4s, v0.4s */ \
	WORD $0x6e20dfde /* fmul v30.4s, v30.4s, v0.4s */ \
	WORD $0x6e20dfff // fmul v31.4s, v31.4s, v0.4s

// ACCUMS loads the arguments of an accumulation kernel: R0 dst, R1 the
// weights, R2 the block in the first row, R3 rows, R4 blocks, R5 the bytes
// of a row of BB-byte blocks.
#define ACCUMS(BB) \
	MOVD dst+0(FP), R0 \
	MOVD p+8(FP), R1 \
	MOVD v+16(FP), R2 \
	MOVD n+24(FP), R3 \
	MOVD nb+32(FP), R4 \
	MOVD $BB, R5 \
	MUL  R4, R5

// LOADACC loads the 32 sums of one block from R0 into V16–V23 and starts
// the walk over the rows: R9 the block in the row, R12 its weight, R13
// rows.
#define LOADACC \
	ADD  $64, R0, R10 \
	VLD1 (R0), [V16.S4, V17.S4, V18.S4, V19.S4] \
	VLD1 (R10), [V20.S4, V21.S4, V22.S4, V23.S4] \
	MOVD R2, R9 \
	MOVD R1, R12 \
	MOVD R3, R13

// WEIGHT sets V0 (every lane) to the row's weight times the scale of its
// block at R9.
#define WEIGHT \
	HALF((R9), R11, F0) \
	FMOVS (R12), F1 \
	FMULS F1, F0, F0 \
	VDUP  V0.S[0], V0.S4

// ACCUMNEXT adds the row's block (floats in V24–V31) to the sums, loops to
// POS over the rows and to BLK over the blocks of BB bytes, then returns.
#define ACCUMNEXT(BB, POS, BLK) \
	MADD8 \
	ADD  R5, R9 \
	ADD  $4, R12 \
	SUBS $1, R13 \
	BNE  POS \
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R0) \
	VST1.P [V20.S4, V21.S4, V22.S4, V23.S4], 64(R0) \
	ADD  $BB, R2 \
	SUBS $1, R4 \
	BNE  BLK \
	RET

// DECODENEXT stores V0 (every lane) times the floats of V24–V31 at R0,
// moves past the block of BB bytes at R2 and loops to BLK over the
// blocks, then returns.
#define DECODENEXT(BB, BLK) \
	SCALE8 \
	VST1.P [V24.S4, V25.S4, V26.S4, V27.S4], 64(R0) \
	VST1.P [V28.S4, V29.S4, V30.S4, V31.S4], 64(R0) \
	ADD  $BB, R2 \
	SUBS $1, R4 \
	BNE  BLK \
	RET

// DECODES loads the arguments of a decoding kernel: R0 dst, R2 src, R4
// blocks.
#define DECODES \
	MOVD dst+0(FP), R0 \
	MOVD src+8(FP), R2 \
	MOVD nb+16(FP), R4

// NIBBLEMASKS sets V7 to 0x0f bytes and V8 to 0x08 bytes.
#define NIBBLEMASKS \
	VMOVI $15, V7.B16 \
	VMOVI $8, V8.B16

// func accumQ8_0NEON(dst, p *float32, v *byte, n, nb int)
TEXT ·accumQ8_0NEON(SB), NOSPLIT, $0-40
	ACCUMS(34)

a8blk:
	LOADACC

a8pos:
	WEIGHT
	Q8BYTES(R9, R10)
	FLOATS
	ACCUMNEXT(34, a8pos, a8blk)

// func accumQ4_0NEON(dst, p *float32, v *byte, n, nb int)
TEXT ·accumQ4_0NEON(SB), NOSPLIT, $0-40
	ACCUMS(18)
	NIBBLEMASKS

a4blk:
	LOADACC

a4pos:
	WEIGHT
	Q4BYTES(R9, R10)
	FLOATS
	ACCUMNEXT(18, a4pos, a4blk)

// func decodeQ8_0NEON(dst *float32, src *byte, nb int)
TEXT ·decodeQ8_0NEON(SB), NOSPLIT, $0-24
	DECODES

d8blk:
	HALF((R2), R11, F0)
	VDUP V0.S[0], V0.S4
	Q8BYTES(R2, R10)
	FLOATS
	DECODENEXT(34, d8blk)

// func decodeQ4_0NEON(dst *float32, src *byte, nb int)
TEXT ·decodeQ4_0NEON(SB), NOSPLIT, $0-24
	DECODES
	NIBBLEMASKS

d4blk:
	HALF((R2), R11, F0)
	VDUP V0.S[0], V0.S4
	Q4BYTES(R2, R10)
	FLOATS
	DECODENEXT(18, d4blk)
