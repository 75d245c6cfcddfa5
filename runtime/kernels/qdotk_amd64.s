//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"
#include "kquant_amd64.h"

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
