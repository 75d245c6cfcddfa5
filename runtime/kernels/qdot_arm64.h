// Bodies of the arm64 quantized kernels, included twice by qdot_arm64.s:
// once with SDOT (ARMv8.2 dot product) and once with a plain NEON fallback
// (SMULL + SADALP). Before each inclusion the includer defines:
//   Q8_0NAME, Q4_0NAME, Q4_1NAME, Q5_0NAME, Q5_1NAME, Q4_KNAME, Q5_KNAME,
//   Q6_KNAME, MXFP4NAME  the TEXT symbols
//   DOT2(ACC)  ACC.4s = int32 dot of V0·V2 + V1·V3 (16 signed bytes each)
//   DOTA, DOTB V6 = V2·V16 + V3·V17, V7 = V4·V18 + V5·V19
//   DOTP       V8 = V6·V16, V9 = V7·V17
// Registers V10–V13 are free for the fallback's temporaries.

// HALFS loads the IEEE half at M into the single-precision register F
// (clobbers R). 
#define HALFS(M, R, F) \
	MOVHU M, R \
	FMOVS R, F \
	FCVTHS F, F

// ROW8 accumulates into ACC one Q8_0 activation block at P times the weight
// block in V0, V1 whose scale is in F20.
#define ROW8(P, ACC) \
	HALFS((P), R9, F21) \
	FMULS F20, F21, F21 \
	ADD $2, P, R10 \
	VLD1 (R10), [V2.B16, V3.B16] \
	DOT2 \
	WORD $0x4e21d884 /* scvtf v4.4s, v4.4s */ \
	VDUP V21.S[0], V22.S4 \
	VFMLA V22.S4, V4.S4, ACC.S4

// ROWS4 runs ROW8 for the first R4 activation rows (R3 bytes apart).
#define ROWS4(NEXT) \
	ROW8(R1, V16) \
	CMP $1, R4 \
	BLE NEXT \
	ADD R3, R1, R8 \
	ROW8(R8, V17) \
	CMP $2, R4 \
	BLE NEXT \
	ADD R3, R8, R8 \
	ROW8(R8, V18) \
	CMP $3, R4 \
	BLE NEXT \
	ADD R3, R8, R8 \
	ROW8(R8, V19)

#define PROLOGUE4 \
	MOVD w+0(FP), R0 \
	MOVD x+8(FP), R1 \
	MOVD nb+16(FP), R2 \
	MOVD xstride+24(FP), R3 \
	MOVD nrows+32(FP), R4 \
	VEOR V16.B16, V16.B16, V16.B16 \
	VEOR V17.B16, V17.B16, V17.B16 \
	VEOR V18.B16, V18.B16, V18.B16 \
	VEOR V19.B16, V19.B16, V19.B16

#define EPILOGUE4(DONE) \
	MOVD out+40(FP), R5 \
	WORD $0x6e30d610 /* faddp v16.4s, v16.4s, v16.4s */ \
	WORD $0x7e30da10 /* faddp s16, v16.2s */ \
	FMOVS F16, (R5) \
	CMP $1, R4 \
	BLE DONE \
	WORD $0x6e31d631 /* faddp v17.4s, v17.4s, v17.4s */ \
	WORD $0x7e30da31 /* faddp s17, v17.2s */ \
	FMOVS F17, 4(R5) \
	CMP $2, R4 \
	BLE DONE \
	WORD $0x6e32d652 /* faddp v18.4s, v18.4s, v18.4s */ \
	WORD $0x7e30da52 /* faddp s18, v18.2s */ \
	FMOVS F18, 8(R5) \
	CMP $3, R4 \
	BLE DONE \
	WORD $0x6e33d673 /* faddp v19.4s, v19.4s, v19.4s */ \
	WORD $0x7e30da73 /* faddp s19, v19.2s */ \
	FMOVS F19, 12(R5)

TEXT Q8_0NAME(SB), NOSPLIT, $0-48
	PROLOGUE4
	CBZ R2, q8done

q8loop:
	HALFS((R0), R6, F20)
	ADD $2, R0, R7
	VLD1 (R7), [V0.B16, V1.B16]
	ROWS4(q8next)

q8next:
	ADD $34, R0
	ADD $34, R1
	SUBS $1, R2
	BNE q8loop

q8done:
	EPILOGUE4(q8ret)

q8ret:
	RET

TEXT Q4_0NAME(SB), NOSPLIT, $0-48
	PROLOGUE4
	VMOVI $15, V28.B16
	VMOVI $8, V29.B16
	CBZ R2, q4done

q4loop:
	HALFS((R0), R6, F20)
	ADD $2, R0, R7
	VLD1 (R7), [V5.B16]
	VAND V28.B16, V5.B16, V0.B16
	VUSHR $4, V5.B16, V1.B16
	VSUB V29.B16, V0.B16, V0.B16
	VSUB V29.B16, V1.B16, V1.B16
	ROWS4(q4next)

q4next:
	ADD $18, R0
	ADD $34, R1
	SUBS $1, R2
	BNE q4loop

q4done:
	EPILOGUE4(q4ret)

q4ret:
	RET

// MXFP4: the nibbles index the doubled E2M1 values (mxfp4lut, in V29)
// with TBL; the scale is the E8M0 byte made into the float 2^(e-128): the
// exponent field e-1, or the subnormal bits (e+1)<<21 for e = 0 and 1.
TEXT MXFP4NAME(SB), NOSPLIT, $0-48
	PROLOGUE4
	MOVD $mxfp4lut<>(SB), R7
	VLD1 (R7), [V29.B16]
	VMOVI $15, V28.B16
	CBZ R2, mxdone

mxloop:
	MOVBU (R0), R6
	CMP $2, R6
	BLO mxsmall
	SUB $1, R6
	LSL $23, R6
	B mxscaled

mxsmall:
	ADD $1, R6
	LSL $21, R6

mxscaled:
	FMOVS R6, F20
	ADD $1, R0, R7
	VLD1 (R7), [V5.B16]
	VAND V28.B16, V5.B16, V0.B16
	VUSHR $4, V5.B16, V1.B16
	VTBL V0.B16, [V29.B16], V0.B16
	VTBL V1.B16, [V29.B16], V1.B16
	ROWS4(mxnext)

mxnext:
	ADD $17, R0
	ADD $34, R1
	SUBS $1, R2
	BNE mxloop

mxdone:
	EPILOGUE4(mxret)

mxret:
	RET

// ROW81 accumulates into ACC one Q8_1 activation block at P times the
// weight block in V0, V1 (unsigned values) whose scale is in F20, and adds
// m·s to SACC (m in F23).
#define ROW81(P, ACC, SACC) \
	HALFS((P), R9, F21) \
	FMULS F20, F21, F21 \
	HALFS(2(P), R9, F22) \
	FMULS F23, F22, F22 \
	FADDS F22, SACC, SACC \
	ADD $4, P, R10 \
	VLD1 (R10), [V2.B16, V3.B16] \
	DOT2 \
	WORD $0x4e21d884 /* scvtf v4.4s, v4.4s */ \
	VDUP V21.S[0], V22.S4 \
	VFMLA V22.S4, V4.S4, ACC.S4

// ROWS4Q81 runs ROW81 for the first R4 activation rows; the m·s sums go
// to S13, S14, S15 and S24.
#define ROWS4Q81(NEXT) \
	ROW81(R1, V16, F13) \
	CMP $1, R4 \
	BLE NEXT \
	ADD R3, R1, R8 \
	ROW81(R8, V17, F14) \
	CMP $2, R4 \
	BLE NEXT \
	ADD R3, R8, R8 \
	ROW81(R8, V18, F15) \
	CMP $3, R4 \
	BLE NEXT \
	ADD R3, R8, R8 \
	ROW81(R8, V19, F24)

// FOLDS adds the m·s sums into lane 0 of the accumulators.
#define FOLDS \
	WORD $0x4e2dd610 /* fadd v16.4s, v16.4s, v13.4s */ \
	WORD $0x4e2ed631 /* fadd v17.4s, v17.4s, v14.4s */ \
	WORD $0x4e2fd652 /* fadd v18.4s, v18.4s, v15.4s */ \
	WORD $0x4e38d673 // fadd v19.4s, v19.4s, v24.4s

// ZEROS clears the m·s sums.
#define ZEROS \
	VEOR V13.B16, V13.B16, V13.B16 \
	VEOR V14.B16, V14.B16, V14.B16 \
	VEOR V15.B16, V15.B16, V15.B16 \
	VEOR V24.B16, V24.B16, V24.B16

// NIB16 sets V0 (low nibbles) and V1 (high nibbles) from 16 bytes at
// OFF(R0); V28 = 0x0f bytes.
#define NIB16(OFF) \
	ADD $OFF, R0, R7 \
	VLD1 (R7), [V5.B16] \
	VAND V28.B16, V5.B16, V0.B16 \
	VUSHR $4, V5.B16, V1.B16

// HIGH5 ORs 0x10 into the bytes of V0 (elements 0–15) and V1 (16–31) whose
// bit is set in the 32-bit qh at OFF(R0): TBL spreads qh's bytes, CMTST
// tests one bit per byte. V25 = bit selectors, V26/V27 = TBL indices,
// V29 = 0x10 bytes.
#define HIGH5(OFF) \
	MOVWU OFF(R0), R6 \
	VMOV R6, V5.S[0] \
	VTBL V26.B16, [V5.B16], V6.B16 \
	VTBL V27.B16, [V5.B16], V7.B16 \
	VCMTST V25.B16, V6.B16, V6.B16 \
	VCMTST V25.B16, V7.B16, V7.B16 \
	VAND V29.B16, V6.B16, V6.B16 \
	VAND V29.B16, V7.B16, V7.B16 \
	VORR V6.B16, V0.B16, V0.B16 \
	VORR V7.B16, V1.B16, V1.B16

// CONSTS5 loads the constants of HIGH5 and NIB16.
#define CONSTS5 \
	MOVD $q5consts<>(SB), R7 \
	VLD1 (R7), [V25.B16, V26.B16, V27.B16] \
	VMOVI $15, V28.B16 \
	VMOVI $16, V29.B16

TEXT Q5_0NAME(SB), NOSPLIT, $0-48
	PROLOGUE4
	CONSTS5
	CBZ R2, q50done

q50loop:
	HALFS((R0), R6, F20)
	NIB16(6)
	HIGH5(2)
	VSUB V29.B16, V0.B16, V0.B16
	VSUB V29.B16, V1.B16, V1.B16
	ROWS4(q50next)

q50next:
	ADD $22, R0
	ADD $34, R1
	SUBS $1, R2
	BNE q50loop

q50done:
	EPILOGUE4(q50ret)

q50ret:
	RET

TEXT Q4_1NAME(SB), NOSPLIT, $0-48
	PROLOGUE4
	ZEROS
	VMOVI $15, V28.B16
	CBZ R2, q41done

q41loop:
	HALFS((R0), R6, F20)
	HALFS(2(R0), R6, F23)
	NIB16(4)
	ROWS4Q81(q41next)

q41next:
	ADD $20, R0
	ADD $36, R1
	SUBS $1, R2
	BNE q41loop

q41done:
	FOLDS
	EPILOGUE4(q41ret)

q41ret:
	RET

TEXT Q5_1NAME(SB), NOSPLIT, $0-48
	PROLOGUE4
	ZEROS
	CONSTS5
	CBZ R2, q51done

q51loop:
	HALFS((R0), R6, F20)
	HALFS(2(R0), R6, F23)
	NIB16(8)
	HIGH5(4)
	ROWS4Q81(q51next)

q51next:
	ADD $24, R0
	ADD $36, R1
	SUBS $1, R2
	BNE q51loop

q51done:
	FOLDS
	EPILOGUE4(q51ret)

q51ret:
	RET

// KSCALES starts a Q4_K/Q5_K super-block: d in S26, dmin in S27, scales
// as int32 in V24 (0–3) and V25 (4–7), and S29 += dmin·Σ min_j·(bsums[2j] +
// bsums[2j+1]). The 12 bytes of 6-bit scales and mins are unpacked with
// 32-bit masks the way ggml's kmask code does.
#define KSCALES \
	FMOVS (R1), F21 \
	HALFS((R0), R6, F26) \
	FMULS F21, F26, F26 \
	HALFS(2(R0), R6, F27) \
	FMULS F21, F27, F27 \
	MOVWU 4(R0), R6 \
	MOVWU 8(R0), R7 \
	MOVWU 12(R0), R8 \
	LSRW $4, R8, R9 \
	ANDW $0x0f0f0f0f, R9 \
	LSRW $6, R7, R10 \
	ANDW $0x03030303, R10 \
	ORRW R10<<4, R9, R9 \
	ANDW $0x3f3f3f3f, R7, R11 \
	ANDW $0x0f0f0f0f, R8, R8 \
	LSRW $6, R6, R10 \
	ANDW $0x03030303, R10 \
	ORRW R10<<4, R8, R8 \
	ANDW $0x3f3f3f3f, R6, R6 \
	VMOV R6, V24.S[0] \
	VMOV R8, V24.S[1] \
	VMOV R11, V22.S[0] \
	VMOV R9, V22.S[1] \
	VUXTL V24.B8, V24.H8 \
	VUXTL V22.B8, V22.H8 \
	VUXTL2 V24.H8, V25.S4 \
	VUXTL V24.H4, V24.S4 \
	ADD $260, R1, R10 \
	VLD1 (R10), [V20.H8, V21.H8] \
	WORD $0x4e75be94 /* addp v20.8h, v20.8h, v21.8h */ \
	WORD $0x0e76c297 /* smull v23.4s, v20.4h, v22.4h */ \
	WORD $0x4e768297 /* smlal2 v23.4s, v20.8h, v22.8h */ \
	WORD $0x4eb1baf7 /* addv s23, v23.4s */ \
	WORD $0x5e21daf7 /* scvtf s23, s23 */ \
	FMULS F27, F23, F23 \
	FADDS F23, F29, F29

// KCHUNK loads the nibbles of 64 weights (32 bytes from R11) into V2, V3
// (low) and V4, V5 (high), and 64 activations (from R12) into V16–V19.
#define KCHUNK \
	VLD1.P 32(R11), [V0.B16, V1.B16] \
	VLD1.P 64(R12), [V16.B16, V17.B16, V18.B16, V19.B16] \
	VAND V28.B16, V0.B16, V2.B16 \
	VAND V28.B16, V1.B16, V3.B16 \
	VUSHR $4, V0.B16, V4.B16 \
	VUSHR $4, V1.B16, V5.B16

// KHIGH5 ORs the fifth bits into a KCHUNK (bit 0 of the qh bytes in V8, V9
// for the low nibbles, bit 1 for the high ones; V13 = 0x01, V14 = 0x02),
// then shifts V8, V9 right by 2 for the next chunk.
#define KHIGH5 \
	VAND V13.B16, V8.B16, V12.B16 \
	VSHL $4, V12.B16, V12.B16 \
	VORR V12.B16, V2.B16, V2.B16 \
	VAND V13.B16, V9.B16, V12.B16 \
	VSHL $4, V12.B16, V12.B16 \
	VORR V12.B16, V3.B16, V3.B16 \
	VAND V14.B16, V8.B16, V12.B16 \
	VSHL $3, V12.B16, V12.B16 \
	VORR V12.B16, V4.B16, V4.B16 \
	VAND V14.B16, V9.B16, V12.B16 \
	VSHL $3, V12.B16, V12.B16 \
	VORR V12.B16, V5.B16, V5.B16 \
	VUSHR $2, V8.B16, V8.B16 \
	VUSHR $2, V9.B16, V9.B16

// KSUM adds to V31 the chunk's two 32-element dot products times the
// scales SA and SB.
#define KSUM(SA, SB) \
	DOTA \
	DOTB \
	VDUP SA, V12.S4 \
	VDUP SB, V23.S4 \
	WORD $0x4eac94df /* mla v31.4s, v6.4s, v12.4s */ \
	WORD $0x4eb794ff // mla v31.4s, v7.4s, v23.4s

// KSTART clears the sums and loads the constants of Q4_K/Q5_K.
#define KSTART \
	MOVD w+0(FP), R0 \
	MOVD x+8(FP), R1 \
	MOVD nb+16(FP), R2 \
	VEOR V30.B16, V30.B16, V30.B16 \
	VEOR V29.B16, V29.B16, V29.B16 \
	VMOVI $15, V28.B16 \
	VMOVI $1, V13.B16 \
	VMOVI $2, V14.B16

// KEND adds the super-block's integer sums times d to V30 and moves on to
// the next block (BLOCK bytes on), looping to LOOP.
#define KEND(BLOCK, LOOP) \
	WORD $0x4e21dbff /* scvtf v31.4s, v31.4s */ \
	WORD $0x4f9a13fe /* fmla v30.4s, v31.4s, v26.s[0] */ \
	ADD $BLOCK, R0 \
	ADD $292, R1 \
	SUBS $1, R2 \
	BNE LOOP

// KRET returns the float sums minus the mins' total.
#define KRET \
	WORD $0x6e3ed7de /* faddp v30.4s, v30.4s, v30.4s */ \
	WORD $0x7e30dbde /* faddp s30, v30.2s */ \
	FSUBS F29, F30, F30 \
	FMOVS F30, ret+24(FP) \
	RET

// Q4_K: per super-block, d and dmin (x.d times the weight's halves) in S26
// and S27, the 8 scales as int32 in V24 (0–3) and V25 (4–7), integer sums
// in V31, float sums in V30 and the mins' total in S29.
TEXT Q4_KNAME(SB), NOSPLIT, $0-28
	KSTART
	CBZ R2, q4kdone

q4kloop:
	KSCALES
	VEOR V31.B16, V31.B16, V31.B16
	ADD $16, R0, R11
	ADD $4, R1, R12
	KCHUNK
	KSUM(V24.S[0], V24.S[1])
	KCHUNK
	KSUM(V24.S[2], V24.S[3])
	KCHUNK
	KSUM(V25.S[0], V25.S[1])
	KCHUNK
	KSUM(V25.S[2], V25.S[3])
	KEND(144, q4kloop)

q4kdone:
	KRET

// Q5_K: as Q4_K, with the fifth bits from qh (V8, V9).
TEXT Q5_KNAME(SB), NOSPLIT, $0-28
	KSTART
	CBZ R2, q5kdone

q5kloop:
	KSCALES
	VEOR V31.B16, V31.B16, V31.B16
	ADD $48, R0, R11
	ADD $4, R1, R12
	ADD $16, R0, R13
	VLD1 (R13), [V8.B16, V9.B16]
	KCHUNK
	KHIGH5
	KSUM(V24.S[0], V24.S[1])
	KCHUNK
	KHIGH5
	KSUM(V24.S[2], V24.S[3])
	KCHUNK
	KHIGH5
	KSUM(V25.S[0], V25.S[1])
	KCHUNK
	KHIGH5
	KSUM(V25.S[2], V25.S[3])
	KEND(176, q5kloop)

q5kdone:
	KRET

// Q6G builds 32 values of 6 bits in V6, V7 from low nibbles (LOP applied to
// LA, LB) and the high bits (HOP applied to qh in V4, V5, masked with
// V29 = 0x30), then adds their dot products with the next 32 activations
// times the scales SA and SB to V31.
#define Q6G(LOP, LA, LB, HOP, SA, SB) \
	LOP, LA.B16, V6.B16 \
	LOP, LB.B16, V7.B16 \
	HOP, V4.B16, V10.B16 \
	HOP, V5.B16, V11.B16 \
	VAND V29.B16, V10.B16, V10.B16 \
	VAND V29.B16, V11.B16, V11.B16 \
	VORR V10.B16, V6.B16, V6.B16 \
	VORR V11.B16, V7.B16, V7.B16 \
	VLD1.P 32(R12), [V16.B16, V17.B16] \
	DOTP \
	VDUP SA, V12.S4 \
	VDUP SB, V13.S4 \
	WORD $0x4eac951f /* mla v31.4s, v8.4s, v12.4s */ \
	WORD $0x4ead953f // mla v31.4s, v9.4s, v13.4s

// Q6HALF handles 128 weights: ql from R11 (64 bytes), qh at QH(R0), scales
// from SLO and SHI (V24/V25 or V26/V27).
#define Q6HALF(QH, SLO, SHI) \
	VLD1.P 64(R11), [V0.B16, V1.B16, V2.B16, V3.B16] \
	ADD $QH, R0, R13 \
	VLD1 (R13), [V4.B16, V5.B16] \
	Q6G(VAND V28.B16, V0, V1, VSHL $4, SLO.S[0], SLO.S[1]) \
	Q6G(VAND V28.B16, V2, V3, VSHL $2, SLO.S[2], SLO.S[3]) \
	Q6G(VUSHR $4, V0, V1, VAND V29.B16, SHI.S[0], SHI.S[1]) \
	Q6G(VUSHR $4, V2, V3, VUSHR $2, SHI.S[2], SHI.S[3])

// Q6_K: the 6-bit values are used unsigned (0–63) and 32·Σ scale·bsum is
// subtracted at the end of each super-block. d in S14, scales as int32 in
// V24–V27, integer sums in V31, float sums in V30.
TEXT Q6_KNAME(SB), NOSPLIT, $0-28
	MOVD w+0(FP), R0
	MOVD x+8(FP), R1
	MOVD nb+16(FP), R2
	VEOR V30.B16, V30.B16, V30.B16
	VMOVI $15, V28.B16
	VMOVI $48, V29.B16
	CBZ R2, q6kdone

q6kloop:
	FMOVS (R1), F21
	HALFS(208(R0), R6, F14)
	FMULS F21, F14, F14
	ADD $192, R0, R10
	VLD1 (R10), [V22.B16]
	WORD $0x4f08a6d7 // sxtl2 v23.8h, v22.16b
	WORD $0x0f08a6d6 // sxtl v22.8h, v22.8b
	WORD $0x0f10a6d8 // sxtl v24.4s, v22.4h
	WORD $0x4f10a6d9 // sxtl2 v25.4s, v22.8h
	WORD $0x0f10a6fa // sxtl v26.4s, v23.4h
	WORD $0x4f10a6fb // sxtl2 v27.4s, v23.8h
	ADD $260, R1, R10
	VLD1 (R10), [V20.H8, V21.H8]
	WORD $0x0e76c29f // smull v31.4s, v20.4h, v22.4h
	WORD $0x4e76829f // smlal2 v31.4s, v20.8h, v22.8h
	WORD $0x0e7782bf // smlal v31.4s, v21.4h, v23.4h
	WORD $0x4e7782bf // smlal2 v31.4s, v21.8h, v23.8h
	VSHL $5, V31.S4, V12.S4
	VEOR V31.B16, V31.B16, V31.B16
	VSUB V12.S4, V31.S4, V31.S4
	MOVD R0, R11
	ADD $4, R1, R12
	Q6HALF(128, V24, V25)
	Q6HALF(160, V26, V27)
	WORD $0x4e21dbff // scvtf v31.4s, v31.4s
	WORD $0x4f8e13fe // fmla v30.4s, v31.4s, v14.s[0]
	ADD $210, R0
	ADD $292, R1
	SUBS $1, R2
	BNE q6kloop

q6kdone:
	WORD $0x6e3ed7de // faddp v30.4s, v30.4s, v30.4s
	WORD $0x7e30dbde // faddp s30, v30.2s
	FMOVS F30, ret+24(FP)
	RET

#undef HALFS
#undef KSCALES
#undef KCHUNK
#undef KHIGH5
#undef KSUM
#undef KSTART
#undef KEND
#undef KRET
#undef Q6G
#undef Q6HALF
#undef ROW8
#undef ROWS4
#undef PROLOGUE4
#undef EPILOGUE4
#undef ROW81
#undef ROWS4Q81
#undef FOLDS
#undef ZEROS
#undef NIB16
#undef HIGH5
#undef CONSTS5
