//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"
#include "kquant_amd64.h"

// K-quant dot products of one weight row with four Q8_K activation rows
// (R9 bytes apart, R13 = 3·R9), for prefill: each super-block is decoded once
// and used for all four rows. Accumulators: Y0–Y3 float, Y4–Y7 int32.

// K4ARGS loads the arguments and clears the accumulators.
#define K4ARGS \
	MOVQ w+0(FP), SI \
	MOVQ x+8(FP), DI \
	MOVQ nb+16(FP), CX \
	MOVQ xstride+24(FP), R9 \
	LEAQ (R9)(R9*2), R13 \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3

// K4ZERO clears the integer sums.
#define K4ZERO \
	VPXOR Y4, Y4, Y4 \
	VPXOR Y5, Y5, Y5 \
	VPXOR Y6, Y6, Y6 \
	VPXOR Y7, Y7, Y7

// K4OUT stores the sums of Y0–Y3 to out.
#define K4OUT \
	MOVQ out+32(FP), DX \
	HSUM8(Y0, X0, X8) \
	VMOVSS X0, (DX) \
	HSUM8(Y1, X1, X8) \
	VMOVSS X1, 4(DX) \
	HSUM8(Y2, X2, X8) \
	VMOVSS X2, 8(DX) \
	HSUM8(Y3, X3, X8) \
	VMOVSS X3, 12(DX) \
	VZEROUPPER

// Q4KROW adds to SUM the products of the nibbles Y8 (low) and Y9 (high)
// with 64 activations at ALO and AHI, times the scales Y10 and Y11.
#define Q4KROW(ALO, AHI, SUM) \
	VPMADDUBSW ALO, Y8, Y12 \
	VPMADDWD Y10, Y12, Y12 \
	VPADDD Y12, SUM, SUM \
	VPMADDUBSW AHI, Y9, Y13 \
	VPMADDWD Y11, Y13, Y13 \
	VPADDD Y13, SUM, SUM

// Q4K4 handles 64 weights (nibbles at QOFF(SI), scales S0(SP), S1(SP)) for
// the four rows (activations from AOFF on). Y14 = 0x0f bytes.
#define Q4K4(QOFF, AOFF, S0, S1) \
	VMOVDQU QOFF(SI), Y12 \
	VPAND Y14, Y12, Y8 \
	VPSRLW $4, Y12, Y9 \
	VPAND Y14, Y9, Y9 \
	VPBROADCASTW S0(SP), Y10 \
	VPBROADCASTW S1(SP), Y11 \
	Q4KROW(AOFF(DI), AOFF+32(DI), Y4) \
	Q4KROW(AOFF(DI)(R9*1), AOFF+32(DI)(R9*1), Y5) \
	Q4KROW(AOFF(DI)(R9*2), AOFF+32(DI)(R9*2), Y6) \
	Q4KROW(AOFF(DI)(R13*1), AOFF+32(DI)(R13*1), Y7)

// Q4KFIN adds a row's super-block to ACC: d·SUM minus dmin·Σ min·bsum,
// with D the row's Q8_K block, BS its bsums, X10 = fp16(w.d), X11 =
// fp16(w.dmin) and Y15 the 8 mins (low half).
#define Q4KFIN(D, BS, SUM, ACC) \
	VMULSS D, X10, X13 \
	VBROADCASTSS X13, Y13 \
	VCVTDQ2PS SUM, SUM \
	VFMADD231PS SUM, Y13, ACC \
	VMOVDQU BS, Y12 \
	VEXTRACTI128 $1, Y12, X13 \
	VPHADDW X13, X12, X12 \
	VPMADDWD Y15, Y12, Y12 \
	VCVTDQ2PS Y12, Y12 \
	VMULSS D, X11, X13 \
	VBROADCASTSS X13, Y13 \
	VFNMADD231PS Y12, Y13, ACC

// func qdotQ4_K4AVX2(w, x *byte, nb, xstride int, out *float32)
TEXT ·qdotQ4_K4AVX2(SB), NOSPLIT, $32-40
	K4ARGS
	BCAST32($0x0f0f0f0f, X14, Y14)

q4k4loop:
	TESTQ CX, CX
	JZ    q4k4done
	KUNPACK(Y12, X12)
	VEXTRACTI128 $1, Y12, X15
	K4ZERO
	Q4K4(16, 4, 0, 2)
	Q4K4(48, 68, 4, 6)
	Q4K4(80, 132, 8, 10)
	Q4K4(112, 196, 12, 14)
	HALF((SI), X10)
	HALF(2(SI), X11)
	Q4KFIN((DI), 260(DI), Y4, Y0)
	Q4KFIN((DI)(R9*1), 260(DI)(R9*1), Y5, Y1)
	Q4KFIN((DI)(R9*2), 260(DI)(R9*2), Y6, Y2)
	Q4KFIN((DI)(R13*1), 260(DI)(R13*1), Y7, Y3)
	ADDQ $144, SI
	ADDQ $292, DI
	DECQ CX
	JMP  q4k4loop

q4k4done:
	K4OUT
	RET

// SC6 stores at OFF(SP) the int16 scale S0 (signed byte at S0+192(SI)) in
// the low 128 bits and S1 in the high 128 bits: the VPMADDWD operand of a
// 32-element group of Q6_K.
#define SC6(S0, S1, OFF) \
	MOVBQSX S0+192(SI), AX \
	VMOVD AX, X9 \
	VPBROADCASTW X9, X9 \
	MOVBQSX S1+192(SI), AX \
	VMOVD AX, X15 \
	VPBROADCASTW X15, X15 \
	VINSERTI128 $1, X15, Y9, Y9 \
	VMOVDQU Y9, OFF(SP)

// Q6KROW adds to SUM the products of the 32 values in Y8 with the
// activations at A, times the scales at SOFF(SP).
#define Q6KROW(A, SOFF, SUM) \
	VPMADDUBSW A, Y8, Y9 \
	VPMADDWD SOFF(SP), Y9, Y9 \
	VPADDD Y9, SUM, SUM

// Q6K4 builds 32 unsigned 6-bit values in Y8 from the low bits LO (shifted
// right by LSH) and the qh bits Y12 (shifted right by HSH), and adds their
// products with the four rows' activations at AOFF. Y13 = 0x0f, Y14 = 0x03.
#define Q6K4(LO, LSH, HSH, AOFF, SOFF) \
	VPSRLW $LSH, LO, Y8 \
	VPAND Y13, Y8, Y8 \
	VPSRLW $HSH, Y12, Y9 \
	VPAND Y14, Y9, Y9 \
	VPSLLW $4, Y9, Y9 \
	VPOR Y9, Y8, Y8 \
	Q6KROW(AOFF(DI), SOFF, Y4) \
	Q6KROW(AOFF(DI)(R9*1), SOFF, Y5) \
	Q6KROW(AOFF(DI)(R9*2), SOFF, Y6) \
	Q6KROW(AOFF(DI)(R13*1), SOFF, Y7)

// Q6KHALF handles 128 weights: ql at QL(SI), qh at QH(SI), activations
// from AOFF, scale vectors from SOFF(SP).
#define Q6KHALF(QL, QH, AOFF, SOFF) \
	VMOVDQU QL(SI), Y10 \
	VMOVDQU QL+32(SI), Y11 \
	VMOVDQU QH(SI), Y12 \
	Q6K4(Y10, 0, 0, AOFF, SOFF) \
	Q6K4(Y11, 0, 2, AOFF+32, SOFF+32) \
	Q6K4(Y10, 4, 4, AOFF+64, SOFF+64) \
	Q6K4(Y11, 4, 6, AOFF+96, SOFF+96)

// Q6KFIN adds a row's super-block to ACC: d·(SUM - 32·Σ scale·bsum), with
// D the row's Q8_K block, BS its bsums and X15 = fp16(w.d).
#define Q6KFIN(D, BS, SUM, ACC) \
	VPMOVSXBW 192(SI), Y9 \
	VPMADDWD BS, Y9, Y9 \
	VPSLLD $5, Y9, Y9 \
	VPSUBD Y9, SUM, SUM \
	VCVTDQ2PS SUM, SUM \
	VMULSS D, X15, X9 \
	VBROADCASTSS X9, Y9 \
	VFMADD231PS SUM, Y9, ACC

// func qdotQ6_K4AVX2(w, x *byte, nb, xstride int, out *float32)
TEXT ·qdotQ6_K4AVX2(SB), NOSPLIT, $256-40
	K4ARGS
	BCAST32($0x0f0f0f0f, X13, Y13)
	BCAST32($0x03030303, X14, Y14)

q6k4loop:
	TESTQ CX, CX
	JZ    q6k4done
	SC6(0, 1, 0)
	SC6(2, 3, 32)
	SC6(4, 5, 64)
	SC6(6, 7, 96)
	SC6(8, 9, 128)
	SC6(10, 11, 160)
	SC6(12, 13, 192)
	SC6(14, 15, 224)
	K4ZERO
	Q6KHALF(0, 128, 4, 0)
	Q6KHALF(64, 160, 132, 128)
	HALF(208(SI), X15)
	Q6KFIN((DI), 260(DI), Y4, Y0)
	Q6KFIN((DI)(R9*1), 260(DI)(R9*1), Y5, Y1)
	Q6KFIN((DI)(R9*2), 260(DI)(R9*2), Y6, Y2)
	Q6KFIN((DI)(R13*1), 260(DI)(R13*1), Y7, Y3)
	ADDQ $210, SI
	ADDQ $292, DI
	DECQ CX
	JMP  q6k4loop

q6k4done:
	K4OUT
	RET

// K-quant dot products with Q8_K activations (AVX2), one row at a time.

// Q4K64 adds to Y6 the int32 products of 64 weights (32 bytes of nibbles at
// QOFF(SI)) with 64 activations at AOFF(DI), scaled by the int16 scales at
// S0(SP) (low nibbles) and S1(SP) (high nibbles). Y14 = 0x0f bytes.
#define Q4K64(QOFF, AOFF, S0, S1) \
	VMOVDQU QOFF(SI), Y7 \
	VPAND Y14, Y7, Y8 \
	VPSRLW $4, Y7, Y9 \
	VPAND Y14, Y9, Y9 \
	VPMADDUBSW AOFF(DI), Y8, Y8 \
	VPMADDUBSW AOFF+32(DI), Y9, Y9 \
	VPBROADCASTW S0(SP), Y10 \
	VPBROADCASTW S1(SP), Y11 \
	VPMADDWD Y10, Y8, Y8 \
	VPMADDWD Y11, Y9, Y9 \
	VPADDD Y8, Y6, Y6 \
	VPADDD Y9, Y6, Y6

// KBLOCK starts a Q4_K/Q5_K super-block: X1 = d = x.d·fp16(w.d),
// X2 = dmin, the 16 int16 scales (8) and mins (8) in Y3 and at 0(SP), and
// ACCM += dmin·Σ_j min_j·(bsums[2j]+bsums[2j+1]). Clobbers AX, BX, DX,
// R10–R12, Y3–Y5.
#define KBLOCK(ACCM) \
	HALF((SI), X1) \
	VMULSS (DI), X1, X1 \
	HALF(2(SI), X2) \
	VMULSS (DI), X2, X2 \
	KUNPACK(Y3, X3) \
	VMOVDQU 260(DI), Y4 \
	VEXTRACTI128 $1, Y4, X5 \
	VPHADDW X5, X4, X4 \
	VEXTRACTI128 $1, Y3, X5 \
	VPMADDWD X5, X4, X4 \
	VPHADDD X4, X4, X4 \
	VPHADDD X4, X4, X4 \
	VCVTDQ2PS X4, X4 \
	VFMADD231SS X4, X2, ACCM

// func qdotQ4_KAVX2(w, x *byte, nb int) float32
TEXT ·qdotQ4_KAVX2(SB), NOSPLIT, $32-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ nb+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS X12, X12, X12
	BCAST32($0x0f0f0f0f, X14, Y14)

q4kloop:
	TESTQ CX, CX
	JZ    q4kdone

	KBLOCK(X12)

	VPXOR Y6, Y6, Y6
	Q4K64(16, 4, 0, 2)
	Q4K64(48, 68, 4, 6)
	Q4K64(80, 132, 8, 10)
	Q4K64(112, 196, 12, 14)
	VCVTDQ2PS Y6, Y6
	VBROADCASTSS X1, Y1
	VFMADD231PS Y6, Y1, Y0

	ADDQ $144, SI
	ADDQ $292, DI
	DECQ CX
	JMP  q4kloop

q4kdone:
	HSUM8(Y0, X0, X1)
	VSUBSS X12, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// Q5K64 is Q4K64 for Q5_K: the fifth bits come from qh (Y5) shifted right
// by HSH (bit HSH for the low nibbles, HSH+1 for the high ones).
// Y14 = 0x0f bytes, Y13 = 0x01 bytes, Y12 = 0x02 bytes.
#define Q5K64(QOFF, AOFF, S0, S1, HSH) \
	VMOVDQU QOFF(SI), Y7 \
	VPAND Y14, Y7, Y8 \
	VPSRLW $4, Y7, Y9 \
	VPAND Y14, Y9, Y9 \
	VPSRLW $HSH, Y5, Y10 \
	VPAND Y13, Y10, Y11 \
	VPSLLW $4, Y11, Y11 \
	VPOR Y11, Y8, Y8 \
	VPAND Y12, Y10, Y11 \
	VPSLLW $3, Y11, Y11 \
	VPOR Y11, Y9, Y9 \
	VPMADDUBSW AOFF(DI), Y8, Y8 \
	VPMADDUBSW AOFF+32(DI), Y9, Y9 \
	VPBROADCASTW S0(SP), Y10 \
	VPBROADCASTW S1(SP), Y11 \
	VPMADDWD Y10, Y8, Y8 \
	VPMADDWD Y11, Y9, Y9 \
	VPADDD Y8, Y6, Y6 \
	VPADDD Y9, Y6, Y6

// func qdotQ5_KAVX2(w, x *byte, nb int) float32
TEXT ·qdotQ5_KAVX2(SB), NOSPLIT, $32-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ nb+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS X15, X15, X15
	BCAST32($0x0f0f0f0f, X14, Y14)
	BCAST32($0x01010101, X13, Y13)
	BCAST32($0x02020202, X12, Y12)

q5kloop:
	TESTQ CX, CX
	JZ    q5kdone
	KBLOCK(X15)
	VMOVDQU 16(SI), Y5
	VPXOR Y6, Y6, Y6
	Q5K64(48, 4, 0, 2, 0)
	Q5K64(80, 68, 4, 6, 2)
	Q5K64(112, 132, 8, 10, 4)
	Q5K64(144, 196, 12, 14, 6)
	VCVTDQ2PS Y6, Y6
	VBROADCASTSS X1, Y1
	VFMADD231PS Y6, Y1, Y0
	ADDQ $176, SI
	ADDQ $292, DI
	DECQ CX
	JMP  q5kloop

q5kdone:
	HSUM8(Y0, X0, X1)
	VSUBSS X15, X0, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// Q6K32 adds to Y6 the int32 products of 32 weights with 32 activations at
// AOFF(DI): low 4 bits from LO (after shifting right by LSH), high 2 bits
// from Y9 (qh) shifted right by HSH, scales at S0(SP) (first 16) and S1(SP).
// Y14 = 0x0f bytes, Y13 = 0x03 bytes, Y12 = 32 bytes.
#define Q6K32(LO, LSH, HSH, AOFF, S0, S1) \
	VPSRLW $LSH, LO, Y7 \
	VPAND Y14, Y7, Y7 \
	VPSRLW $HSH, Y9, Y8 \
	VPAND Y13, Y8, Y8 \
	VPSLLW $4, Y8, Y8 \
	VPOR Y8, Y7, Y7 \
	VMOVDQU AOFF(DI), Y8 \
	VPMADDUBSW Y8, Y7, Y7 \
	VPMADDUBSW Y8, Y12, Y8 \
	VPSUBW Y8, Y7, Y7 \
	VPBROADCASTW S0(SP), X10 \
	VPBROADCASTW S1(SP), X11 \
	VINSERTI128 $1, X11, Y10, Y10 \
	VPMADDWD Y10, Y7, Y7 \
	VPADDD Y7, Y6, Y6

// Q6K128 handles 128 weights: ql at QL(SI), qh at QH(SI), activations from
// AOFF(DI), scales from S(SP) on.
#define Q6K128(QL, QH, AOFF, S, S2, S4, S6, S8, S10, S12, S14) \
	VMOVDQU QL(SI), Y4 \
	VMOVDQU QL+32(SI), Y5 \
	VMOVDQU QH(SI), Y9 \
	Q6K32(Y4, 0, 0, AOFF, S, S2) \
	Q6K32(Y5, 0, 2, AOFF+32, S4, S6) \
	Q6K32(Y4, 4, 4, AOFF+64, S8, S10) \
	Q6K32(Y5, 4, 6, AOFF+96, S12, S14)

// func qdotQ6_KAVX2(w, x *byte, nb int) float32
TEXT ·qdotQ6_KAVX2(SB), NOSPLIT, $32-28
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ nb+16(FP), CX
	VXORPS Y0, Y0, Y0
	BCAST32($0x0f0f0f0f, X14, Y14)
	BCAST32($0x03030303, X13, Y13)
	BCAST32($0x20202020, X12, Y12)

q6kloop:
	TESTQ CX, CX
	JZ    q6kdone
	HALF(208(SI), X1)
	VMULSS (DI), X1, X1
	VPMOVSXBW 192(SI), Y3
	VMOVDQU Y3, 0(SP)
	VPXOR Y6, Y6, Y6
	Q6K128(0, 128, 4, 0, 2, 4, 6, 8, 10, 12, 14)
	Q6K128(64, 160, 132, 16, 18, 20, 22, 24, 26, 28, 30)
	VCVTDQ2PS Y6, Y6
	VBROADCASTSS X1, Y1
	VFMADD231PS Y6, Y1, Y0
	ADDQ $210, SI
	ADDQ $292, DI
	DECQ CX
	JMP  q6kloop

q6kdone:
	HSUM8(Y0, X0, X1)
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET
