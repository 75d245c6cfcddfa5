//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Tile kernels of packed Q4_K/Q6_K weights (pack_kquant.go) times activations in
// the reordered Q8_K form (actQ8_KP), AVX-512 VNNI on 256-bit vectors (the
// AVX2 ones, the same bits, are in gemmk_avx2_amd64.s). For every row r and activation row c, a super-block leaves in each int32 lane
// j the integer dot product of one sub-block (VPDPBUSD of unsigned weights
// with signed activations); then, in floats and in the same order in every
// kernel,
//   Q4_K: acc[r][c] += (I·d_r·sc_j)·dx_c − (dmin_r·m_j)·(dx_c·Σ_j x)
//   Q6_K: acc[r][c] += float(IE·sc_2j + IO·sc_2j+1)·(d_r·dx_c)
// (Q6_K's lanes start from −32·Σ x to take the offset of 32 out). The lanes
// of acc are added at the end.
//
// Registers: SI weights, DI activations, CX super-blocks left, R9 xstride,
// R10 3·xstride, DX out, R8 ostride in bytes; Y0–Y15 the sums (row r,
// column c in Y(4r+c)), Y31 the 0x0f bytes, Y30 the 0x30 bytes.

#define PROLOGUE \
	VNNIARGS \
	SHRQ $2, CX \
	MOVL $0x30303030, AX \
	VPBROADCASTD AX, Y30

// NEXT moves to the next super-block (STEP bytes of weights) and loops.
#define NEXT(STEP, LOOP) \
	ADDQ $STEP, SI \
	ADDQ $384, DI \
	DECQ CX \
	JNZ  LOOP

#define ZERO16 \
	ZERO4(Y0, Y1, Y2, Y3) \
	ZERO4(Y4, Y5, Y6, Y7) \
	ZERO4(Y8, Y9, Y10, Y11) \
	ZERO4(Y12, Y13, Y14, Y15)

#define ZERO4(A, B, C, D) \
	VPXORD A, A, A \
	VPXORD B, B, B \
	VPXORD C, C, C \
	VPXORD D, D, D

// ---- Q4_K ----

// Q4SCALES sets Y16 to d·sc_j and Y17 to dmin·m_j of the row whose d, dmin
// (halves), scales and mins are at D, DMIN, SC, MN (SI offsets). Clobbers
// Y24.
#define Q4SCALES(D, DMIN, SC, MN) \
	VPMOVZXBD SC(SI), Y16 \
	VCVTDQ2PS Y16, Y16 \
	VPBROADCASTW D(SI), X24 \
	VCVTPH2PS X24, Y24 \
	VMULPS Y24, Y16, Y16 \
	VPMOVZXBD MN(SI), Y17 \
	VCVTDQ2PS Y17, Y17 \
	VPBROADCASTW DMIN(SI), X24 \
	VCVTPH2PS X24, Y24 \
	VMULPS Y24, Y17, Y17

// Q4W loads the 64 values at Q(SI) as bytes: Y18 low nibbles, Y19 high.
#define Q4W(Q) \
	VMOVDQU32 Q(SI), Y18 \
	VPSRLW $4, Y18, Y19 \
	VPANDD Y31, Y18, Y18 \
	VPANDD Y31, Y19, Y19

// Q4WG is Q4W with GFNI: one affine transform (the matrix in Y25) moves
// each byte's high nibble down and clears the rest.
#define Q4WG(Q) \
	VMOVDQU32 Q(SI), Y18 \
	VGF2P8AFFINEQB $0, Y25, Y18, Y19 \
	VPANDD Y31, Y18, Y18

// Q4FIN accumulates the lanes I of one column (activation scales at
// XD, Σ x at XS) into ACC.
#define Q4FIN(I, XD, XS, ACC) \
	VCVTDQ2PS I, I \
	VMULPS Y16, I, I \
	VFMADD231PS XD, I, ACC \
	VFNMADD231PS XS, Y17, ACC

// Q4COLS4 multiplies the values in W with activation vector OFF of the
// four columns into Y20–Y23.
#define Q4COLS4(OFF, W) \
	VPDPBUSD OFF(DI), W, Y20 \
	VPDPBUSD OFF(DI)(R9*1), W, Y21 \
	VPDPBUSD OFF(DI)(R9*2), W, Y22 \
	VPDPBUSD OFF(DI)(R10*1), W, Y23

// Q4ROW4 accumulates row r (offsets D, DMIN, SC, MN, Q) of a super-block
// into A0–A3 (columns 0–3).
#define Q4ROW4(D, DMIN, SC, MN, Q, A0, A1, A2, A3) \
	Q4SCALES(D, DMIN, SC, MN) \
	ZERO4(Y20, Y21, Y22, Y23) \
	Q4W(Q) \
	Q4COLS4(0, Y18) \
	Q4COLS4(32, Y19) \
	Q4W(32+Q) \
	Q4COLS4(64, Y18) \
	Q4COLS4(96, Y19) \
	Q4W(64+Q) \
	Q4COLS4(128, Y18) \
	Q4COLS4(160, Y19) \
	Q4W(96+Q) \
	Q4COLS4(192, Y18) \
	Q4COLS4(224, Y19) \
	Q4FIN(Y20, 352(DI), 320(DI), A0) \
	Q4FIN(Y21, 352(DI)(R9*1), 320(DI)(R9*1), A1) \
	Q4FIN(Y22, 352(DI)(R9*2), 320(DI)(R9*2), A2) \
	Q4FIN(Y23, 352(DI)(R10*1), 320(DI)(R10*1), A3)

// Q4ROW1 is Q4ROW4 for one column, its sums split over Y20 and Y21 (two
// shorter chains of dependent VPDPBUSD), its weights loaded by W.
#define Q4ROW1(W, D, DMIN, SC, MN, Q, ACC) \
	Q4SCALES(D, DMIN, SC, MN) \
	VPXORD Y20, Y20, Y20 \
	VPXORD Y21, Y21, Y21 \
	W(Q) \
	VPDPBUSD 0(DI), Y18, Y20 \
	VPDPBUSD 32(DI), Y19, Y21 \
	W(32+Q) \
	VPDPBUSD 64(DI), Y18, Y20 \
	VPDPBUSD 96(DI), Y19, Y21 \
	W(64+Q) \
	VPDPBUSD 128(DI), Y18, Y20 \
	VPDPBUSD 160(DI), Y19, Y21 \
	W(96+Q) \
	VPDPBUSD 192(DI), Y18, Y20 \
	VPDPBUSD 224(DI), Y19, Y21 \
	VPADDD Y21, Y20, Y20 \
	Q4FIN(Y20, 352(DI), 320(DI), ACC)

// Q4K1 is the one-column Q4_K kernel; W is Q4W, or Q4WG after GFNISETUP
// (the four-column kernel, bound by its VPDPBUSD, keeps the shift).
#define Q4K1(W, SETUP, LOOP) \
	PROLOGUE \
	SETUP \
	ZERO4(Y0, Y1, Y2, Y3) \
LOOP: \
	Q4ROW1(W, 0, 8, 16, 24, 80, Y0) \
	Q4ROW1(W, 2, 10, 32, 40, 208, Y1) \
	Q4ROW1(W, 4, 12, 48, 56, 336, Y2) \
	Q4ROW1(W, 6, 14, 64, 72, 464, Y3) \
	NEXT(592, LOOP) \
	STORE4

#define NOSETUP

// GFNISETUP sets Y25 to the bit matrix of Q4WG: result bit i of a byte is
// its bit i+4 for i < 4, zero above.
#define GFNISETUP \
	MOVQ $0x1020408000000000, AX \
	VPBROADCASTQ AX, Y25

// func gemm4Q4_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q4_KVNNI(SB), NOSPLIT, $0-48
	PROLOGUE
	ZERO16
g4q4kloop:
	Q4ROW4(0, 8, 16, 24, 80, Y0, Y1, Y2, Y3)
	Q4ROW4(2, 10, 32, 40, 208, Y4, Y5, Y6, Y7)
	Q4ROW4(4, 12, 48, 56, 336, Y8, Y9, Y10, Y11)
	Q4ROW4(6, 14, 64, 72, 464, Y12, Y13, Y14, Y15)
	NEXT(592, g4q4kloop)
	STORE16

// func gemm1Q4_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q4_KVNNI(SB), NOSPLIT, $0-48
	Q4K1(Q4W, NOSETUP, g1q4kloop)

// func gemm1Q4_KGFNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q4_KGFNI(SB), NOSPLIT, $0-48
	Q4K1(Q4WG, GFNISETUP, g1q4kgloop)

// ---- Q6_K ----
// Y16/Y17 the row's int32 scales of the even/odd sub-blocks, Y18 low nibbles, Y19
// the values of one vector, Y28 high bit pairs, Y29 scratch, Y20–Y23 and
// Y24–Y27 the even and odd lanes of columns 0–3.

// Q6SCALES sets Y16, Y17 to the row's int32 scales of the even and odd
// sub-blocks, from SC.
#define Q6SCALES(SC) \
	VPMOVSXBD SC(SI), Y16 \
	VPMOVSXBD 8+SC(SI), Y17

// Q6LO sets Y19 to the low nibbles of vector QL(SI) (kept in Y18), Q6HI to
// the high ones; Q6OR adds the high bit pairs from T (bits 4, 5 of each byte).
#define Q6LO(QL) \
	VMOVDQU32 QL(SI), Y18 \
	VPANDD Y31, Y18, Y19

#define Q6HI \
	VPSRLW $4, Y18, Y19 \
	VPANDD Y31, Y19, Y19

// Q6HIG is Q6HI in one affine transform (the matrix in Y25, GFNISETUP).
#define Q6HIG VGF2P8AFFINEQB $0, Y25, Y18, Y19

#define Q6OR(T) VPTERNLOGD $0xf8, Y30, T, Y19

// Q6VEC builds value vector v from the loaded halves (LOHI: Q6LO(QL) or
// Q6HI; SHIFT moves its bit pairs in Y28 to bits 4–5 into Y29).
#define Q6SHL4 VPSLLW $4, Y28, Y29
#define Q6SHL2 VPSLLW $2, Y28, Y29
#define Q6SHR2 VPSRLW $2, Y28, Y29

// Q6COLS4 multiplies Y19 with activation vector OFF of the four columns
// into I0–I3.
#define Q6COLS4(OFF, I0, I1, I2, I3) \
	VPDPBUSD OFF(DI), Y19, I0 \
	VPDPBUSD OFF(DI)(R9*1), Y19, I1 \
	VPDPBUSD OFF(DI)(R9*2), Y19, I2 \
	VPDPBUSD OFF(DI)(R10*1), Y19, I3

// Q6FIN accumulates the even and odd lanes IE, IO of one column
// (activation scales at XD) into ACC, as ggml does: the scaled integers
// first, then one float product with d·dx (row's d, a half, at D).
// Clobbers Y29.
#define Q6FIN(IE, IO, D, XD, ACC) \
	VPMULLD Y16, IE, IE \
	VPMULLD Y17, IO, IO \
	VPADDD IO, IE, IE \
	VCVTDQ2PS IE, IE \
	VPBROADCASTW D(SI), X29 \
	VCVTPH2PS X29, Y29 \
	VMULPS XD, Y29, IO \
	VFMADD231PS IO, IE, ACC

// Q6HALF4 multiplies vectors 4H..4H+3 (low nibbles at QL, bit pairs at QH)
// with the four columns into I0–I3.
#define Q6HALF4(QL, QH, I0, I1, I2, I3) \
	VMOVDQU32 QH(SI), Y28 \
	Q6LO(QL) \
	Q6SHL4 \
	Q6OR(Y29) \
	Q6COLS4(0, I0, I1, I2, I3) \
	Q6HI \
	Q6SHL2 \
	Q6OR(Y29) \
	Q6COLS4(32, I0, I1, I2, I3) \
	Q6LO(32+QL) \
	Q6OR(Y28) \
	Q6COLS4(64, I0, I1, I2, I3) \
	Q6HI \
	Q6SHR2 \
	Q6OR(Y29) \
	Q6COLS4(96, I0, I1, I2, I3)

// Q6ROW4 accumulates row r (offsets D, SC, QL, QH) into A0–A3.
#define Q6ROW4(D, SC, QL, QH, A0, A1, A2, A3) \
	Q6SCALES(SC) \
	VMOVDQU32 256(DI), Y20 \
	VMOVDQU32 256(DI)(R9*1), Y21 \
	VMOVDQU32 256(DI)(R9*2), Y22 \
	VMOVDQU32 256(DI)(R10*1), Y23 \
	VMOVDQU32 288(DI), Y24 \
	VMOVDQU32 288(DI)(R9*1), Y25 \
	VMOVDQU32 288(DI)(R9*2), Y26 \
	VMOVDQU32 288(DI)(R10*1), Y27 \
	Q6HALF4(QL, QH, Y20, Y21, Y22, Y23) \
	ADDQ $128, DI \
	Q6HALF4(64+QL, 32+QH, Y24, Y25, Y26, Y27) \
	SUBQ $128, DI \
	Q6FIN(Y20, Y24, D, 352(DI), A0) \
	Q6FIN(Y21, Y25, D, 352(DI)(R9*1), A1) \
	Q6FIN(Y22, Y26, D, 352(DI)(R9*2), A2) \
	Q6FIN(Y23, Y27, D, 352(DI)(R10*1), A3)

// Q6HALF1 is Q6HALF4 for one column, the high nibbles split by HI (Q6HI,
// or Q6HIG after GFNISETUP).
#define Q6HALF1(HI, QL, QH, I) \
	VMOVDQU32 QH(SI), Y28 \
	Q6LO(QL) \
	Q6SHL4 \
	Q6OR(Y29) \
	VPDPBUSD 0(DI), Y19, I \
	HI \
	Q6SHL2 \
	Q6OR(Y29) \
	VPDPBUSD 32(DI), Y19, I \
	Q6LO(32+QL) \
	Q6OR(Y28) \
	VPDPBUSD 64(DI), Y19, I \
	HI \
	Q6SHR2 \
	Q6OR(Y29) \
	VPDPBUSD 96(DI), Y19, I

// Q6ROW1 is Q6ROW4 for one column.
#define Q6ROW1(HI, D, SC, QL, QH, ACC) \
	Q6SCALES(SC) \
	VMOVDQU32 256(DI), Y20 \
	VMOVDQU32 288(DI), Y24 \
	Q6HALF1(HI, QL, QH, Y20) \
	ADDQ $128, DI \
	Q6HALF1(HI, 64+QL, 32+QH, Y24) \
	SUBQ $128, DI \
	Q6FIN(Y20, Y24, D, 352(DI), ACC)

// func gemm4Q6_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q6_KVNNI(SB), NOSPLIT, $0-48
	PROLOGUE
	ZERO16
g4q6kloop:
	Q6ROW4(0, 8, 72, 200, Y0, Y1, Y2, Y3)
	Q6ROW4(2, 24, 264, 392, Y4, Y5, Y6, Y7)
	Q6ROW4(4, 40, 456, 584, Y8, Y9, Y10, Y11)
	Q6ROW4(6, 56, 648, 776, Y12, Y13, Y14, Y15)
	NEXT(840, g4q6kloop)
	STORE16

// Q6K1 is the one-column Q6_K kernel, the high nibbles split by HI after
// SETUP (the four-column kernel, bound by its VPDPBUSD, keeps the shift).
#define Q6K1(HI, SETUP, LOOP) \
	PROLOGUE \
	SETUP \
	ZERO4(Y0, Y1, Y2, Y3) \
LOOP: \
	Q6ROW1(HI, 0, 8, 72, 200, Y0) \
	Q6ROW1(HI, 2, 24, 264, 392, Y1) \
	Q6ROW1(HI, 4, 40, 456, 584, Y2) \
	Q6ROW1(HI, 6, 56, 648, 776, Y3) \
	NEXT(840, LOOP) \
	STORE4

// func gemm1Q6_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q6_KVNNI(SB), NOSPLIT, $0-48
	Q6K1(Q6HI, NOSETUP, g1q6kloop)

// func gemm1Q6_KGFNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q6_KGFNI(SB), NOSPLIT, $0-48
	Q6K1(Q6HIG, GFNISETUP, g1q6kgloop)
