//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Tile kernels of packed Q4_K/Q6_K weights (pack_kquant.go) times activations
// in the reordered Q8_K form (actQ8_KP) for AVX2, with its 16 registers. They
// compute the lanes of the VNNI kernels (gemmk_amd64.s) with VPMADDUBSW
// (unsigned weights times signed activations, int16 sums of byte pairs) and
// VPMADDWD, then do the same float operations in the same order, so every
// (row, column) gets the same bits from either set.
//
// The int16 sums do not saturate: activations lie in −128…127, so a Q4_K
// pair sum is at most 2·15·128 and eight of them (a whole super-block of one
// lane, summed as int16) at most 30720; a Q6_K pair sum is at most 2·63·128.
//
// The four-column kernels keep one row's sums for four columns in
// registers and go over the super-blocks once per row of the group (the
// group stays in cache between the passes); the one-column kernels go over
// them once, the four rows of each super-block in turn.
//
// Registers: SI weights, DI activations, CX super-blocks left, R9 xstride,
// R10 3·xstride, DX out, R8 ostride in bytes, R11 3·ostride.

// KARGS loads the arguments, func(w, x *byte, np, xstride int, out
// *float32, ostride int), np being pairs of 32-value blocks.
#define KARGS \
	MOVQ xstride+24(FP), R9 \
	LEAQ (R9)(R9*2), R10 \
	MOVQ out+32(FP), DX \
	MOVQ ostride+40(FP), R8 \
	SHLQ $2, R8 \
	LEAQ (R8)(R8*2), R11 \
	KSTART

// KSTART points SI and DI at the first super-block and sets CX to their
// number.
#define KSTART \
	MOVQ w+0(FP), SI \
	MOVQ x+8(FP), DI \
	MOVQ np+16(FP), CX \
	SHRQ $2, CX

// KNEXT moves to the next super-block (STEP bytes of weights) and loops.
#define KNEXT(STEP, LOOP) \
	ADDQ $STEP, SI \
	ADDQ $384, DI \
	DECQ CX \
	JNZ  LOOP

#define ZEROACC \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3

// ROWPASS runs SB, one super-block of one row into Y0–Y3 (columns 0–3),
// over the whole row, STEP bytes of weights per super-block, and stores
// the four sums of the row at OFF(DX) of each column.
#define ROWPASS(SB, STEP, OFF, LOOP) \
	KSTART \
	ZEROACC \
LOOP: \
	SB \
	KNEXT(STEP, LOOP) \
	STOREROW(OFF)

// ---- Q6_K ----
// Y4–Y7 the int32 lanes of columns 0–3, Y8 low nibbles as stored, Y9 and
// Y11 the values of two vectors, Y10 high bit pairs as stored, Y12 and Y13
// scratch (Y13 the row's d at the end), Y14 the 0x30 bytes, Y15 the 0x0f
// bytes. The stack holds the row's scales: at 0 and 32 those of the even
// and odd sub-blocks as two equal int16 per lane (VPMADDWD multiplies each
// lane's products by its scale: the VNNI kernels' IE·sc_2j + IO·sc_2j+1
// summed two vectors at a time), at 64 and 96 as int32 (for the offset
// terms).

#define Q6CONST \
	BCAST32($0x30303030, X14, Y14) \
	BCAST32($0x0f0f0f0f, X15, Y15)

// Q6SCW stores the eight int8 scales at SC(SI) as int16 pairs at W(SP)
// and as int32 at L(SP).
#define Q6SCW(SC, W, L) \
	VPMOVSXBD SC(SI), Y12 \
	VMOVDQU Y12, L(SP) \
	VPSLLD $16, Y12, Y11 \
	VPBLENDW $0xaa, Y11, Y12, Y12 \
	VMOVDQU Y12, W(SP)

// Q6SC stores the scales of the row (int8 at SC, the even sub-blocks then
// the odd ones).
#define Q6SC(SC) \
	Q6SCW(SC, 0, 64) \
	Q6SCW(8+SC, 32, 96)

// Q6BASE sets I to the offset terms of one column, −32·Σ x of the even
// and odd sub-blocks (at E and O) times their scales.
#define Q6BASE(E, O, I) \
	VMOVDQU 64(SP), I \
	VPMULLD E, I, I \
	VMOVDQU 96(SP), Y12 \
	VPMULLD O, Y12, Y12 \
	VPADDD Y12, I, I

// Q6MUL adds the products of Y9 and Y11 with the activations at X0 and
// X1, times the scale words at SCW(SP), to I. The int16 sums of the two
// products do not saturate (at most 2·2·63·128).
#define Q6MUL(X0, X1, SCW, I) \
	VPMADDUBSW X0, Y9, Y12 \
	VPMADDUBSW X1, Y11, Y13 \
	VPADDW Y13, Y12, Y12 \
	VPMADDWD SCW(SP), Y12, Y12 \
	VPADDD Y12, I, I

#define Q6MUL4(O0, O1, SCW) \
	Q6MUL(O0(DI), O1(DI), SCW, Y4) \
	Q6MUL(O0(DI)(R9*1), O1(DI)(R9*1), SCW, Y5) \
	Q6MUL(O0(DI)(R9*2), O1(DI)(R9*2), SCW, Y6) \
	Q6MUL(O0(DI)(R10*1), O1(DI)(R10*1), SCW, Y7)

#define Q6MUL1(O0, O1, SCW) Q6MUL(O0(DI), O1(DI), SCW, Y4)

// Q6OR adds to V the bit pairs that T holds in bits 4 and 5.
#define Q6OR(T, V) \
	VPAND Y14, T, Y13 \
	VPOR Y13, V, V

// Q6HALF builds activation vectors A/32 to A/32+3 of the row (low nibbles
// at QL, bit pairs at QH), two at a time in Y9 and Y11, and multiplies
// them with MUL (Q6MUL4 or Q6MUL1), the scale words at SCW.
#define Q6HALF(MUL, A, QL, QH, SCW) \
	VMOVDQU QH(SI), Y10 \
	VMOVDQU QL(SI), Y8 \
	VPAND Y15, Y8, Y9 \
	VPSLLW $4, Y10, Y13 \
	Q6OR(Y13, Y9) \
	VPSRLW $4, Y8, Y11 \
	VPAND Y15, Y11, Y11 \
	VPSLLW $2, Y10, Y13 \
	Q6OR(Y13, Y11) \
	MUL(A, 32+A, SCW) \
	VMOVDQU 32+QL(SI), Y8 \
	VPAND Y15, Y8, Y9 \
	Q6OR(Y10, Y9) \
	VPSRLW $4, Y8, Y11 \
	VPAND Y15, Y11, Y11 \
	VPSRLW $2, Y10, Y13 \
	Q6OR(Y13, Y11) \
	MUL(64+A, 96+A, SCW)

// Q6D sets Y13 to the row's d (a half at D).
#define Q6D(D) \
	VPBROADCASTW D(SI), X13 \
	VCVTPH2PS X13, Y13

// Q6F accumulates the lanes I of one column (activation scales at XD) into
// ACC as the VNNI kernels' Q6FIN does, with the row's d in Y13.
#define Q6F(I, XD, ACC) \
	VCVTDQ2PS I, I \
	VMULPS XD, Y13, Y12 \
	VFMADD231PS Y12, I, ACC

// Q6SB4 accumulates one super-block of the row at offsets D, SC, QL, QH
// into Y0–Y3 (columns 0–3).
#define Q6SB4(D, SC, QL, QH) \
	Q6SC(SC) \
	Q6BASE(256(DI), 288(DI), Y4) \
	Q6BASE(256(DI)(R9*1), 288(DI)(R9*1), Y5) \
	Q6BASE(256(DI)(R9*2), 288(DI)(R9*2), Y6) \
	Q6BASE(256(DI)(R10*1), 288(DI)(R10*1), Y7) \
	Q6HALF(Q6MUL4, 0, QL, QH, 0) \
	Q6HALF(Q6MUL4, 128, 64+QL, 32+QH, 32) \
	Q6D(D) \
	Q6F(Y4, 352(DI), Y0) \
	Q6F(Y5, 352(DI)(R9*1), Y1) \
	Q6F(Y6, 352(DI)(R9*2), Y2) \
	Q6F(Y7, 352(DI)(R10*1), Y3)

// func gemm4Q6_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q6_KAVX2(SB), NOSPLIT, $128-48
	KARGS
	Q6CONST
	ROWPASS(Q6SB4(0, 8, 72, 200), 840, 0, a4q6k0)
	ROWPASS(Q6SB4(2, 24, 264, 392), 840, 4, a4q6k1)
	ROWPASS(Q6SB4(4, 40, 456, 584), 840, 8, a4q6k2)
	ROWPASS(Q6SB4(6, 56, 648, 776), 840, 12, a4q6k3)
	VZEROUPPER
	RET

// Q6SB1 is Q6SB4 for one column, into ACC.
#define Q6SB1(D, SC, QL, QH, ACC) \
	Q6SC(SC) \
	Q6BASE(256(DI), 288(DI), Y4) \
	Q6HALF(Q6MUL1, 0, QL, QH, 0) \
	Q6HALF(Q6MUL1, 128, 64+QL, 32+QH, 32) \
	Q6D(D) \
	Q6F(Y4, 352(DI), ACC)

// func gemm1Q6_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q6_KAVX2(SB), NOSPLIT, $128-48
	KARGS
	Q6CONST
	ZEROACC
a1q6kloop:
	Q6SB1(0, 8, 72, 200, Y0)
	Q6SB1(2, 24, 264, 392, Y1)
	Q6SB1(4, 40, 456, 584, Y2)
	Q6SB1(6, 56, 648, 776, Y3)
	KNEXT(840, a1q6kloop)
	STORE4

// ---- Q4_K ----
// Y4–Y7 the int16 sums of columns 0–3, Y8/Y9 low/high nibbles, Y10
// scratch, Y11 d·sc_j, Y12 dmin·m_j, Y13 scratch, Y14 int16 ones, Y15
// the 0x0f bytes.

#define Q4CONST \
	BCAST32($0x00010001, X14, Y14) \
	BCAST32($0x0f0f0f0f, X15, Y15)

// Q4SC sets Y11 to d·sc_j and Y12 to dmin·m_j of the row whose d, dmin
// (halves), scales and mins are at D, DMIN, SC, MN (SI offsets).
#define Q4SC(D, DMIN, SC, MN) \
	VPMOVZXBD SC(SI), Y11 \
	VCVTDQ2PS Y11, Y11 \
	VPBROADCASTW D(SI), X13 \
	VCVTPH2PS X13, Y13 \
	VMULPS Y13, Y11, Y11 \
	VPMOVZXBD MN(SI), Y12 \
	VCVTDQ2PS Y12, Y12 \
	VPBROADCASTW DMIN(SI), X13 \
	VCVTPH2PS X13, Y13 \
	VMULPS Y13, Y12, Y12

// Q4V loads the 64 values at Q(SI) as bytes: Y8 low nibbles, Y9 high.
#define Q4V(Q) \
	VMOVDQU Q(SI), Y8 \
	VPSRLW $4, Y8, Y9 \
	VPAND Y15, Y8, Y8 \
	VPAND Y15, Y9, Y9

// Q4F turns the int16 sums S of one column into the lanes of the VNNI
// kernels and accumulates them into ACC as their Q4FIN does (activation
// scales at XD, Σ x at XS).
#define Q4F(S, XD, XS, ACC) \
	VPMADDWD Y14, S, S \
	VCVTDQ2PS S, S \
	VMULPS Y11, S, S \
	VFMADD231PS XD, S, ACC \
	VFNMADD231PS XS, Y12, ACC

// Q4MUL4 sets Y4–Y7 to the products of the values in W with activation
// vector OFF of the four columns; Q4ADD4 adds them.
#define Q4MUL4(OFF, W) \
	VPMADDUBSW OFF(DI), W, Y4 \
	VPMADDUBSW OFF(DI)(R9*1), W, Y5 \
	VPMADDUBSW OFF(DI)(R9*2), W, Y6 \
	VPMADDUBSW OFF(DI)(R10*1), W, Y7

#define Q4ADD4(OFF, W) \
	VPMADDUBSW OFF(DI), W, Y10 \
	VPADDW Y10, Y4, Y4 \
	VPMADDUBSW OFF(DI)(R9*1), W, Y10 \
	VPADDW Y10, Y5, Y5 \
	VPMADDUBSW OFF(DI)(R9*2), W, Y10 \
	VPADDW Y10, Y6, Y6 \
	VPMADDUBSW OFF(DI)(R10*1), W, Y10 \
	VPADDW Y10, Y7, Y7

// Q4SB4 accumulates one super-block of the row at offsets D, DMIN, SC,
// MN, Q into Y0–Y3 (columns 0–3).
#define Q4SB4(D, DMIN, SC, MN, Q) \
	Q4SC(D, DMIN, SC, MN) \
	Q4V(Q) \
	Q4MUL4(0, Y8) \
	Q4ADD4(32, Y9) \
	Q4V(32+Q) \
	Q4ADD4(64, Y8) \
	Q4ADD4(96, Y9) \
	Q4V(64+Q) \
	Q4ADD4(128, Y8) \
	Q4ADD4(160, Y9) \
	Q4V(96+Q) \
	Q4ADD4(192, Y8) \
	Q4ADD4(224, Y9) \
	Q4F(Y4, 352(DI), 320(DI), Y0) \
	Q4F(Y5, 352(DI)(R9*1), 320(DI)(R9*1), Y1) \
	Q4F(Y6, 352(DI)(R9*2), 320(DI)(R9*2), Y2) \
	Q4F(Y7, 352(DI)(R10*1), 320(DI)(R10*1), Y3)

// func gemm4Q4_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q4_KAVX2(SB), NOSPLIT, $0-48
	KARGS
	Q4CONST
	ROWPASS(Q4SB4(0, 8, 16, 24, 80), 592, 0, a4q4k0)
	ROWPASS(Q4SB4(2, 10, 32, 40, 208), 592, 4, a4q4k1)
	ROWPASS(Q4SB4(4, 12, 48, 56, 336), 592, 8, a4q4k2)
	ROWPASS(Q4SB4(6, 14, 64, 72, 464), 592, 12, a4q4k3)
	VZEROUPPER
	RET

// Q4ADD1 adds the products of Y8 and Y9 with activation vectors LO and
// HI to Y4 and Y5 (two shorter chains of dependent additions).
#define Q4ADD1(LO, HI) \
	VPMADDUBSW LO(DI), Y8, Y8 \
	VPMADDUBSW HI(DI), Y9, Y9 \
	VPADDW Y8, Y4, Y4 \
	VPADDW Y9, Y5, Y5

// Q4SB1 is Q4SB4 for one column, into ACC.
#define Q4SB1(D, DMIN, SC, MN, Q, ACC) \
	Q4SC(D, DMIN, SC, MN) \
	Q4V(Q) \
	VPMADDUBSW 0(DI), Y8, Y4 \
	VPMADDUBSW 32(DI), Y9, Y5 \
	Q4V(32+Q) \
	Q4ADD1(64, 96) \
	Q4V(64+Q) \
	Q4ADD1(128, 160) \
	Q4V(96+Q) \
	Q4ADD1(192, 224) \
	VPADDW Y5, Y4, Y4 \
	Q4F(Y4, 352(DI), 320(DI), ACC)

// func gemm1Q4_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q4_KAVX2(SB), NOSPLIT, $0-48
	KARGS
	Q4CONST
	ZEROACC
a1q4kloop:
	Q4SB1(0, 8, 16, 24, 80, Y0)
	Q4SB1(2, 10, 32, 40, 208, Y1)
	Q4SB1(4, 12, 48, 56, 336, Y2)
	Q4SB1(6, 14, 64, 72, 464, Y3)
	KNEXT(592, a1q4kloop)
	STORE4
