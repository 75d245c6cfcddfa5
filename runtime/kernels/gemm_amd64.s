//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Tile kernels of packed Q4_0/Q8_0 weights (pack.go) times activations in
// pairs of Q8_0 blocks (quantizePairsRef). For every row r and activation
// row c, one pair of blocks gives the int32 vector
//   I = corr + dot(lo weights, lo activations) + dot(hi, hi)
// (lanes 0–3 belong to block A, 4–7 to block B; the corrections make each
// lane the sum of signed products), then
//   acc[r][c] += float(I) * (dw_r · dx_c)
// with the scales spread over the lanes of their block. The VNNI kernels
// get I from VPDPBUSD, the AVX2 ones from VPMADDUBSW/VPMADDWD; the integers
// are the same, and so are the float operations that follow, in the same
// order, in every kernel: results are identical bit for bit.

// VPERMPS indices spreading the scales of row r (lanes 2r, 2r+1 of the
// converted group scales) over the lanes of blocks A and B.
DATA rowidx<>+0(SB)/8, $0x0000000000000000
DATA rowidx<>+8(SB)/8, $0x0000000000000000
DATA rowidx<>+16(SB)/8, $0x0000000100000001
DATA rowidx<>+24(SB)/8, $0x0000000100000001
DATA rowidx<>+32(SB)/8, $0x0000000200000002
DATA rowidx<>+40(SB)/8, $0x0000000200000002
DATA rowidx<>+48(SB)/8, $0x0000000300000003
DATA rowidx<>+56(SB)/8, $0x0000000300000003
DATA rowidx<>+64(SB)/8, $0x0000000400000004
DATA rowidx<>+72(SB)/8, $0x0000000400000004
DATA rowidx<>+80(SB)/8, $0x0000000500000005
DATA rowidx<>+88(SB)/8, $0x0000000500000005
DATA rowidx<>+96(SB)/8, $0x0000000600000006
DATA rowidx<>+104(SB)/8, $0x0000000600000006
DATA rowidx<>+112(SB)/8, $0x0000000700000007
DATA rowidx<>+120(SB)/8, $0x0000000700000007
GLOBL rowidx<>(SB), RODATA|NOPTR, $128

// VPERMPS indices transposing the converted group scales (row r, block A at
// lane 2r, B at 2r+1) to rows 0–3 of block A, then of block B.
DATA transidx<>+0(SB)/8, $0x0000000200000000
DATA transidx<>+8(SB)/8, $0x0000000600000004
DATA transidx<>+16(SB)/8, $0x0000000300000001
DATA transidx<>+24(SB)/8, $0x0000000700000005
GLOBL transidx<>(SB), RODATA|NOPTR, $32

// The doubled E2M1 values plus 16 (MXFP4 as unsigned bytes), and the
// nibble mask, for the MXFP4 kernels.
DATA mxfp4lut16<>+0(SB)/8, $0x1c18161413121110
DATA mxfp4lut16<>+8(SB)/8, $0x04080a0c0d0e0f10
GLOBL mxfp4lut16<>(SB), RODATA|NOPTR, $16
DATA nibbles0f<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles0f<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles0f<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbles0f<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles0f<>(SB), RODATA|NOPTR, $32

// ---- AVX-512 VNNI (256-bit vectors, 32 registers) ----

// Registers: SI weights, DI activations, CX pairs left, R9 xstride, R10
// 3*xstride, DX out, R8 ostride in bytes, R11 the distance of PFF4. Y16
// the group's scales, Y17/Y18 the row's lo/hi weights, Y19 the row's scale
// products, Y20 scratch, Y21 the bit matrix of W4G, Y22–Y25 the
// corrections of the columns, Y26–Y29 the columns' scale products, Y30 the
// scale transposition, Y31 the nibble mask.

// W4 loads the 64 nibbles of a Q4_0 row at OFF(SI) as lo/hi bytes.
#define W4(OFF) \
	VMOVDQU32 OFF(SI), Y17 \
	VPSRLW $4, Y17, Y18 \
	VPANDD Y31, Y17, Y17 \
	VPANDD Y31, Y18, Y18

// W4G is W4 with GFNI: one affine transform (the matrix in Y21, from
// GFNISETUP) moves each byte's high nibble down and clears the rest.
#define W4G(OFF) \
	VMOVDQU32 OFF(SI), Y17 \
	VGF2P8AFFINEQB $0, Y21, Y17, Y18 \
	VPANDD Y31, Y17, Y17

// GFNISETUP sets Y21 to the bit matrix of W4G: result bit i of a byte is
// its bit i+4 for i < 4, zero above.
#define GFNISETUP \
	MOVQ $0x1020408000000000, AX \
	VPBROADCASTQ AX, Y21

// W8 loads the 64 biased bytes of a Q8_0 row at OFF(SI).
#define W8(OFF) \
	VMOVDQU32 OFF(SI), Y17 \
	VMOVDQU32 32+OFF(SI), Y18

// NOSETUP is the SETUP of the kernels that need none.
#define NOSETUP

// MXFP4SETUP replaces the nibble mask in Y31 with the MXFP4 lookup table
// (mxfp4.go): WF4 masks with the constant in memory instead. It also sets
// the prefetch distance of PFF4.
#define MXFP4SETUP \
	VBROADCASTI32X4 mxfp4lut16<>(SB), Y31 \
	PFDISTF4

// NOPF is the PF of the kernels that leave asking ahead to packedChunk.
#define NOPF

// PFDISTF4 sets R11, the distance of PFF4, to one group: np pairs (CX) of
// 144 bytes.
#define PFDISTF4 \
	MOVQ CX, R11 \
	IMULQ $144, R11

// PFF4 asks for the pair at the same place of the group R11 bytes on in
// the L2 cache while this one computes (three lines cover its 144 bytes,
// wherever it starts): spread over the loop, so that a decode step's MXFP4
// weights stream from memory steadily while the kernel computes, rather
// than in one burst per group that stalls it (gemmSet.inloop).
#define PFF4 \
	PREFETCHT1 (SI)(R11*1) \
	PREFETCHT1 64(SI)(R11*1) \
	PREFETCHT1 128(SI)(R11*1)

// WF4 loads the 64 nibbles of an MXFP4 row at OFF(SI) as lo/hi bytes of the
// doubled E2M1 values plus 16.
#define WF4(OFF) \
	VMOVDQU32 OFF(SI), Y17 \
	VPSRLW $4, Y17, Y18 \
	VPANDD nibbles0f<>(SB), Y17, Y17 \
	VPANDD nibbles0f<>(SB), Y18, Y18 \
	VPSHUFB Y17, Y31, Y17 \
	VPSHUFB Y18, Y31, Y18

// WF4B is WF4 for CPUs with GFNI and AVX-512 VBMI: one affine transform
// (the matrix in Y21, from GFNISETUP) moves each byte's high nibble down
// and clears the rest, and VPERMB looks the low nibbles up in the table
// without masking them: it reads five bits of each byte, and the table in
// Y31 holds the sixteen values twice.
#define WF4B(OFF) \
	VMOVDQU32 OFF(SI), Y17 \
	VGF2P8AFFINEQB $0, Y21, Y17, Y18 \
	VPERMB Y31, Y17, Y17 \
	VPSHUFB Y18, Y31, Y18

// MXFP4BSETUP is the SETUP of WF4B.
#define MXFP4BSETUP \
	MXFP4SETUP \
	GFNISETUP

// COLP accumulates one activation row (lo at XLO, hi at XHI, correction in
// register CORR) into ACC: the scale products dw·dx of the row and column
// come from the column's products P (lane r: row r, block A; lane 4+r:
// block B), spread over the blocks' lanes by SEL (0x55 times the row).
#define COLP(CORR, XLO, XHI, SEL, P, ACC) \
	VSHUFPS $SEL, P, P, Y19 \
	VMOVDQA32 CORR, Y20 \
	VPDPBUSD XLO, Y17, Y20 \
	VPDPBUSD XHI, Y18, Y20 \
	VCVTDQ2PS Y20, Y20 \
	VFMADD231PS Y19, Y20, ACC

// ROW4 accumulates the loaded row (SEL 0x55 times its index) into A0–A3
// (columns 0–3).
#define ROW4(SEL, A0, A1, A2, A3) \
	COLP(Y22, (DI), 32(DI), SEL, Y26, A0) \
	COLP(Y23, (DI)(R9*1), 32(DI)(R9*1), SEL, Y27, A1) \
	COLP(Y24, (DI)(R9*2), 32(DI)(R9*2), SEL, Y28, A2) \
	COLP(Y25, (DI)(R10*1), 32(DI)(R10*1), SEL, Y29, A3)

// SCALES4 sets Y26–Y29 to the scale products of the four columns: the
// group's scales, transposed to rows 0–3 of block A then of block B, times
// each column's spread scales (four of A, four of B).
#define SCALES4 \
	VCVTPH2PS (SI), Y16 \
	VPERMPS Y16, Y30, Y16 \
	VMULPS 64(DI), Y16, Y26 \
	VMULPS 64(DI)(R9*1), Y16, Y27 \
	VMULPS 64(DI)(R9*2), Y16, Y28 \
	VMULPS 64(DI)(R10*1), Y16, Y29

// SHL0, SHL1 and SHL4 scale a correction for the weights' offset: Q4_0's
// 8 is the activations' own, MXFP4's 16 twice it, Q8_0's 128 sixteen times.
#define SHL0(R)
#define SHL1(R) VPSLLD $1, R, R
#define SHL4(R) VPSLLD $4, R, R

// CORR4 loads the corrections of the four columns, scaled by SHIFT (SHL0,
// SHL1 or SHL4).
#define CORR4(SHIFT) \
	VMOVDQU32 96(DI), Y22 \
	VMOVDQU32 96(DI)(R9*1), Y23 \
	VMOVDQU32 96(DI)(R9*2), Y24 \
	VMOVDQU32 96(DI)(R10*1), Y25 \
	SHIFT(Y22) \
	SHIFT(Y23) \
	SHIFT(Y24) \
	SHIFT(Y25)

#define ZERO16 \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3 \
	VXORPS Y4, Y4, Y4 \
	VXORPS Y5, Y5, Y5 \
	VXORPS Y6, Y6, Y6 \
	VXORPS Y7, Y7, Y7 \
	VXORPS Y8, Y8, Y8 \
	VXORPS Y9, Y9, Y9 \
	VXORPS Y10, Y10, Y10 \
	VXORPS Y11, Y11, Y11 \
	VXORPS Y12, Y12, Y12 \
	VXORPS Y13, Y13, Y13 \
	VXORPS Y14, Y14, Y14 \
	VXORPS Y15, Y15, Y15

// KERNEL4 is the loop of a four-column kernel: W loads a row (W4, W8 or
// WF4) from offsets O0–O3, pairs of STEP bytes, corrections scaled by
// SHIFT, after SETUP (NOSETUP, or MXFP4SETUP for WF4), asking ahead with
// PF (NOPF, or PFF4 after MXFP4SETUP).
// The 16 scale products of a pair take four multiplies and a shuffle each,
// not sixteen multiplies: the vector ports are the bound of this loop.
#define KERNEL4(W, SHIFT, O0, O1, O2, O3, STEP, LOOP, SETUP, PF) \
	VNNIARGS \
	SETUP \
	VMOVDQU32 transidx<>+0(SB), Y30 \
	ZERO16 \
LOOP: \
	PF \
	SCALES4 \
	CORR4(SHIFT) \
	W(O0) \
	ROW4(0x00, Y0, Y1, Y2, Y3) \
	W(O1) \
	ROW4(0x55, Y4, Y5, Y6, Y7) \
	W(O2) \
	ROW4(0xaa, Y8, Y9, Y10, Y11) \
	W(O3) \
	ROW4(0xff, Y12, Y13, Y14, Y15) \
	ADDQ $STEP, SI \
	SUBQ $-128, DI \
	DECQ CX \
	JNZ  LOOP \
	STORE16

// func gemm4Q4_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q4_0VNNI(SB), NOSPLIT, $0-48
	KERNEL4(W4, SHL0, 16, 48, 80, 112, 144, g4q4loop, NOSETUP, NOPF)

// func gemm4Q4_0GFNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q4_0GFNI(SB), NOSPLIT, $0-48
	KERNEL4(W4G, SHL0, 16, 48, 80, 112, 144, g4q4gloop, GFNISETUP, NOPF)

// func gemm4Q8_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q8_0VNNI(SB), NOSPLIT, $0-48
	KERNEL4(W8, SHL4, 16, 80, 144, 208, 272, g4q8loop, NOSETUP, NOPF)

// ROW2 accumulates the loaded row (SEL 0x55 times its index) into A0, A1
// (columns 0, 1), with the scale products in Y26, Y27.
#define ROW2(SEL, A0, A1) \
	COLP(Y22, (DI), 32(DI), SEL, Y26, A0) \
	COLP(Y23, (DI)(R9*1), 32(DI)(R9*1), SEL, Y27, A1)

// STORE8 stores the 4×2 sums (accumulator Y(2r+c) holds row r, column c)
// and returns.
#define STORE8 \
	HSUM4(Y0, Y2, Y4, Y6, X0, X2, (DX)) \
	HSUM4(Y1, Y3, Y5, Y7, X1, X3, (DX)(R8*1)) \
	VZEROUPPER \
	RET

// KERNEL2 is the loop of a two-column kernel, KERNEL4 on the first two
// columns: an expert that two of a decode step's rows chose decodes its
// weights once for both, where two one-column passes decode them twice.
#define KERNEL2(W, SHIFT, O0, O1, O2, O3, STEP, LOOP, SETUP, PF) \
	VNNIARGS \
	SETUP \
	VMOVDQU32 transidx<>+0(SB), Y30 \
	ZERO8 \
LOOP: \
	PF \
	VCVTPH2PS (SI), Y16 \
	VPERMPS Y16, Y30, Y16 \
	VMULPS 64(DI), Y16, Y26 \
	VMULPS 64(DI)(R9*1), Y16, Y27 \
	VMOVDQU32 96(DI), Y22 \
	VMOVDQU32 96(DI)(R9*1), Y23 \
	SHIFT(Y22) \
	SHIFT(Y23) \
	W(O0) \
	ROW2(0x00, Y0, Y1) \
	W(O1) \
	ROW2(0x55, Y2, Y3) \
	W(O2) \
	ROW2(0xaa, Y4, Y5) \
	W(O3) \
	ROW2(0xff, Y6, Y7) \
	ADDQ $STEP, SI \
	SUBQ $-128, DI \
	DECQ CX \
	JNZ  LOOP \
	STORE8

// ROW3 accumulates the loaded row (SEL 0x55 times its index) into A0–A2
// (columns 0–2), with the scale products in Y26–Y28.
#define ROW3(SEL, A0, A1, A2) \
	COLP(Y22, (DI), 32(DI), SEL, Y26, A0) \
	COLP(Y23, (DI)(R9*1), 32(DI)(R9*1), SEL, Y27, A1) \
	COLP(Y24, (DI)(R9*2), 32(DI)(R9*2), SEL, Y28, A2)

// STORE12 stores the 4×3 sums (accumulator Y(3r+c) holds row r, column c)
// and returns.
#define STORE12 \
	HSUM4(Y0, Y3, Y6, Y9, X0, X3, (DX)) \
	HSUM4(Y1, Y4, Y7, Y10, X1, X4, (DX)(R8*1)) \
	HSUM4(Y2, Y5, Y8, Y11, X2, X5, (DX)(R8*2)) \
	VZEROUPPER \
	RET

// KERNEL3 is the loop of a three-column kernel, KERNEL4 on the first three
// columns: an expert that three of a decode step's rows chose, which the
// four-column kernel would compute with a fourth, wasted, column.
#define KERNEL3(W, SHIFT, O0, O1, O2, O3, STEP, LOOP, SETUP, PF) \
	VNNIARGS \
	SETUP \
	VMOVDQU32 transidx<>+0(SB), Y30 \
	ZERO8 \
	VXORPS Y8, Y8, Y8 \
	VXORPS Y9, Y9, Y9 \
	VXORPS Y10, Y10, Y10 \
	VXORPS Y11, Y11, Y11 \
LOOP: \
	PF \
	VCVTPH2PS (SI), Y16 \
	VPERMPS Y16, Y30, Y16 \
	VMULPS 64(DI), Y16, Y26 \
	VMULPS 64(DI)(R9*1), Y16, Y27 \
	VMULPS 64(DI)(R9*2), Y16, Y28 \
	VMOVDQU32 96(DI), Y22 \
	VMOVDQU32 96(DI)(R9*1), Y23 \
	VMOVDQU32 96(DI)(R9*2), Y24 \
	SHIFT(Y22) \
	SHIFT(Y23) \
	SHIFT(Y24) \
	W(O0) \
	ROW3(0x00, Y0, Y1, Y2) \
	W(O1) \
	ROW3(0x55, Y3, Y4, Y5) \
	W(O2) \
	ROW3(0xaa, Y6, Y7, Y8) \
	W(O3) \
	ROW3(0xff, Y9, Y10, Y11) \
	ADDQ $STEP, SI \
	SUBQ $-128, DI \
	DECQ CX \
	JNZ  LOOP \
	STORE12

#define ZERO8 \
	ZERO4 \
	VXORPS Y4, Y4, Y4 \
	VXORPS Y5, Y5, Y5 \
	VXORPS Y6, Y6, Y6 \
	VXORPS Y7, Y7, Y7

// ROW1 accumulates the loaded row (SEL 0x55 times its index) into ACC
// (one column), with the scale products in Y26.
#define ROW1(SEL, ACC) \
	COLP(Y22, (DI), 32(DI), SEL, Y26, ACC)

#define ZERO4 \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3

// KERNEL1 is the loop of a one-column kernel, in the terms of KERNEL4: the
// eight scale products of a pair take one multiply after the transposition,
// and a row picks its own with a shuffle, as in KERNEL4.
#define KERNEL1(W, SHIFT, O0, O1, O2, O3, STEP, LOOP, SETUP, PF) \
	VNNIARGS \
	SETUP \
	VMOVDQU32 transidx<>+0(SB), Y30 \
	ZERO4 \
LOOP: \
	PF \
	VCVTPH2PS (SI), Y16 \
	VPERMPS Y16, Y30, Y16 \
	VMULPS 64(DI), Y16, Y26 \
	VMOVDQU32 96(DI), Y22 \
	SHIFT(Y22) \
	W(O0) \
	ROW1(0x00, Y0) \
	W(O1) \
	ROW1(0x55, Y1) \
	W(O2) \
	ROW1(0xaa, Y2) \
	W(O3) \
	ROW1(0xff, Y3) \
	ADDQ $STEP, SI \
	SUBQ $-128, DI \
	DECQ CX \
	JNZ  LOOP \
	STORE4

// func gemm1Q4_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q4_0VNNI(SB), NOSPLIT, $0-48
	KERNEL1(W4, SHL0, 16, 48, 80, 112, 144, g1q4loop, NOSETUP, NOPF)

// func gemm1Q4_0GFNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q4_0GFNI(SB), NOSPLIT, $0-48
	KERNEL1(W4G, SHL0, 16, 48, 80, 112, 144, g1q4gloop, GFNISETUP, NOPF)

// func gemm1Q8_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q8_0VNNI(SB), NOSPLIT, $0-48
	KERNEL1(W8, SHL4, 16, 80, 144, 208, 272, g1q8loop, NOSETUP, NOPF)

// func gemm4MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4MXFP4VNNI(SB), NOSPLIT, $0-48
	KERNEL4(WF4, SHL1, 16, 48, 80, 112, 144, g4f4loop, MXFP4SETUP, PFF4)

// func gemm3MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm3MXFP4VNNI(SB), NOSPLIT, $0-48
	KERNEL3(WF4, SHL1, 16, 48, 80, 112, 144, g3f4loop, MXFP4SETUP, PFF4)

// func gemm2MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm2MXFP4VNNI(SB), NOSPLIT, $0-48
	KERNEL2(WF4, SHL1, 16, 48, 80, 112, 144, g2f4loop, MXFP4SETUP, PFF4)

// func gemm1MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1MXFP4VNNI(SB), NOSPLIT, $0-48
	KERNEL1(WF4, SHL1, 16, 48, 80, 112, 144, g1f4loop, MXFP4SETUP, PFF4)

// func gemm4MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4MXFP4VBMI(SB), NOSPLIT, $0-48
	KERNEL4(WF4B, SHL1, 16, 48, 80, 112, 144, g4f4bloop, MXFP4BSETUP, PFF4)

// func gemm3MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm3MXFP4VBMI(SB), NOSPLIT, $0-48
	KERNEL3(WF4B, SHL1, 16, 48, 80, 112, 144, g3f4bloop, MXFP4BSETUP, PFF4)

// func gemm2MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm2MXFP4VBMI(SB), NOSPLIT, $0-48
	KERNEL2(WF4B, SHL1, 16, 48, 80, 112, 144, g2f4bloop, MXFP4BSETUP, PFF4)

// func gemm1MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1MXFP4VBMI(SB), NOSPLIT, $0-48
	KERNEL1(WF4B, SHL1, 16, 48, 80, 112, 144, g1f4bloop, MXFP4BSETUP, PFF4)

// ---- AVX2 (16 registers) ----

// Registers of the one-column kernels (R11 the distance of PFF4 in the
// MXFP4 ones): Y0–Y3 the rows' sums, Y4 the
// group's scales, Y5–Y7 scratch, Y8–Y11 the row indices, Y12 scratch, Y13
// 0x80 bytes, Y14 int16 ones, Y15 the nibble mask. The four-column
// kernels keep one row's four sums in Y0–Y3, its weights in Y5/Y6 (and
// Y10/Y11), its spread scales in Y7, the row indices in Y12 and their
// scratch in Y8/Y9.

#define AVX2PROLOGUE \
	MOVQ w+0(FP), SI \
	MOVQ x+8(FP), DI \
	MOVQ np+16(FP), CX \
	MOVQ out+32(FP), DX \
	VMOVDQU rowidx<>+0(SB), Y8 \
	VMOVDQU rowidx<>+32(SB), Y9 \
	VMOVDQU rowidx<>+64(SB), Y10 \
	VMOVDQU rowidx<>+96(SB), Y11 \
	BCAST32($0x80808080, X13, Y13) \
	BCAST32($0x00010001, X14, Y14) \
	BCAST32($0x0f0f0f0f, X15, Y15) \
	ZERO4

// FINISH turns the int32 sums in Y5 into float and accumulates them into
// ACC with the row's spread scales (index IDX) times the activation's.
#define FINISH(IDX, ACC) \
	VCVTDQ2PS Y5, Y5 \
	VPERMPS Y4, IDX, Y7 \
	VMULPS 64(DI), Y7, Y7 \
	VFMADD231PS Y7, Y5, ACC

// A4 accumulates the Q4_0 row at OFF(SI) into ACC.
#define A4(OFF, IDX, ACC) \
	VMOVDQU OFF(SI), Y5 \
	VPSRLW $4, Y5, Y6 \
	VPAND Y15, Y5, Y5 \
	VPAND Y15, Y6, Y6 \
	VPMADDUBSW (DI), Y5, Y5 \
	VPMADDUBSW 32(DI), Y6, Y6 \
	VPADDW Y6, Y5, Y5 \
	VPMADDWD Y14, Y5, Y5 \
	VPADDD 96(DI), Y5, Y5 \
	FINISH(IDX, ACC)

// AF4 accumulates the MXFP4 row at OFF(SI) into ACC: A4 with the nibbles
// looked up in Y13 (the doubled E2M1 values plus 16) and the correction
// added twice (16·Σx, twice Q4_0's).
#define AF4(OFF, IDX, ACC) \
	VMOVDQU OFF(SI), Y5 \
	VPSRLW $4, Y5, Y6 \
	VPAND Y15, Y5, Y5 \
	VPAND Y15, Y6, Y6 \
	VPSHUFB Y5, Y13, Y5 \
	VPSHUFB Y6, Y13, Y6 \
	VPMADDUBSW (DI), Y5, Y5 \
	VPMADDUBSW 32(DI), Y6, Y6 \
	VPADDW Y6, Y5, Y5 \
	VPMADDWD Y14, Y5, Y5 \
	VPADDD 96(DI), Y5, Y5 \
	VPADDD 96(DI), Y5, Y5 \
	FINISH(IDX, ACC)

// HALF8 sets Y6 to the int32 sums of the biased Q8_0 weights at M times
// the activations at X: the sign of the weight moves onto the activation so
// that VPMADDUBSW sees |w|; these are already the signed sums that the
// corrections leave in the VNNI kernels' lanes.
#define HALF8(M, X) \
	VMOVDQU M, Y6 \
	VPXOR Y13, Y6, Y6 \
	VMOVDQU X, Y7 \
	VPSIGNB Y6, Y7, Y7 \
	VPABSB Y6, Y6 \
	VPMADDUBSW Y7, Y6, Y6 \
	VPMADDWD Y14, Y6, Y6

// A8 accumulates the Q8_0 row at OFF(SI) into ACC.
#define A8(OFF, IDX, ACC) \
	HALF8(OFF(SI), (DI)) \
	VMOVDQA Y6, Y5 \
	HALF8(32+OFF(SI), 32(DI)) \
	VPADDD Y6, Y5, Y5 \
	FINISH(IDX, ACC)

// KERNELA is the loop of an AVX2 kernel: A (A4, A8 or AF4) accumulates a
// row from offsets O0–O3, pairs of STEP bytes, after SETUP, asking ahead
// with PF (NOPF or PFF4).
#define KERNELA(A, O0, O1, O2, O3, STEP, LOOP, SETUP, PF) \
	AVX2PROLOGUE \
	SETUP \
LOOP: \
	PF \
	VCVTPH2PS (SI), Y4 \
	A(O0, Y8, Y0) \
	A(O1, Y9, Y1) \
	A(O2, Y10, Y2) \
	A(O3, Y11, Y3) \
	ADDQ $STEP, SI \
	SUBQ $-128, DI \
	DECQ CX \
	JNZ  LOOP \
	STORE4

// func gemm1Q4_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q4_0AVX2(SB), NOSPLIT, $0-48
	KERNELA(A4, 16, 48, 80, 112, 144, a1q4loop, NOSETUP, NOPF)

// func gemm1Q8_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q8_0AVX2(SB), NOSPLIT, $0-48
	KERNELA(A8, 16, 80, 144, 208, 272, a1q8loop, NOSETUP, NOPF)

// A4COL accumulates one activation row (values at X0 and X32, scales at
// X64, corrections at X96) into ACC for the Q4_0 row split into Y5/Y6
// whose spread scales are in Y7: A4 and FINISH, with the same integer and
// float operations, keeping Y5–Y7 for the next column.
#define A4COL(X0, X32, X64, X96, ACC) \
	VPMADDUBSW X0, Y5, Y8 \
	VPMADDUBSW X32, Y6, Y9 \
	VPADDW Y9, Y8, Y8 \
	VPMADDWD Y14, Y8, Y8 \
	VPADDD X96, Y8, Y8 \
	VCVTDQ2PS Y8, Y8 \
	VMULPS X64, Y7, Y9 \
	VFMADD231PS Y9, Y8, ACC

// A4ROW splits the Q4_0 row at OFF(SI) into Y5 (low nibbles) and Y6.
#define A4ROW(OFF) \
	VMOVDQU OFF(SI), Y5 \
	VPSRLW $4, Y5, Y6 \
	VPAND Y15, Y5, Y5 \
	VPAND Y15, Y6, Y6

// A8ROW loads the two halves of the Q8_0 row at OFF(SI) as signed bytes
// into Y5 and Y6 and their magnitudes into Y10 and Y11 (Y13 the 0x80
// bytes).
#define A8ROW(OFF) \
	VPXOR OFF(SI), Y13, Y5 \
	VPXOR 32+OFF(SI), Y13, Y6 \
	VPABSB Y5, Y10 \
	VPABSB Y6, Y11

// A8COL is A4COL for the Q8_0 row of A8ROW: A8 and FINISH, with the same
// integer and float operations (the sign of each weight moved onto the
// activation, as in HALF8).
#define A8COL(X0, X32, X64, X96, ACC) \
	VMOVDQU X0, Y8 \
	VPSIGNB Y5, Y8, Y8 \
	VPMADDUBSW Y8, Y10, Y8 \
	VPMADDWD Y14, Y8, Y8 \
	VMOVDQU X32, Y9 \
	VPSIGNB Y6, Y9, Y9 \
	VPMADDUBSW Y9, Y11, Y9 \
	VPMADDWD Y14, Y9, Y9 \
	VPADDD Y9, Y8, Y8 \
	VCVTDQ2PS Y8, Y8 \
	VMULPS X64, Y7, Y9 \
	VFMADD231PS Y9, Y8, ACC

// TILEPASS accumulates the row at OFF of every pair (ROW loads it, COL
// multiplies it with one column; row indices at IDX of rowidx, STEP bytes
// per pair) for the four columns into Y0–Y3, over all pairs, and stores
// its sums at SOFF(DX) of each column: the four-column kernels go over
// the group once per row, its four sums in registers.
#define TILEPASS(ROW, COL, OFF, IDX, STEP, SOFF, LOOP) \
	MOVQ w+0(FP), SI \
	MOVQ x+8(FP), DI \
	MOVQ np+16(FP), CX \
	ZERO4 \
	VMOVDQU rowidx<>+IDX(SB), Y12 \
LOOP: \
	VCVTPH2PS (SI), Y4 \
	VPERMPS Y4, Y12, Y7 \
	ROW(OFF) \
	COL((DI), 32(DI), 64(DI), 96(DI), Y0) \
	COL((DI)(R9*1), 32(DI)(R9*1), 64(DI)(R9*1), 96(DI)(R9*1), Y1) \
	COL((DI)(R9*2), 32(DI)(R9*2), 64(DI)(R9*2), 96(DI)(R9*2), Y2) \
	COL((DI)(R10*1), 32(DI)(R10*1), 64(DI)(R10*1), 96(DI)(R10*1), Y3) \
	ADDQ $STEP, SI \
	SUBQ $-128, DI \
	DECQ CX \
	JNZ  LOOP \
	STOREROW(SOFF)

// TILEARGS loads the arguments of a four-column AVX2 kernel that stay
// (TILEPASS loads the others per row) and the constants.
#define TILEARGS \
	MOVQ xstride+24(FP), R9 \
	LEAQ (R9)(R9*2), R10 \
	MOVQ out+32(FP), DX \
	MOVQ ostride+40(FP), R8 \
	SHLQ $2, R8 \
	LEAQ (R8)(R8*2), R11 \
	BCAST32($0x80808080, X13, Y13) \
	BCAST32($0x00010001, X14, Y14) \
	BCAST32($0x0f0f0f0f, X15, Y15)

// func gemm4Q4_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q4_0AVX2(SB), NOSPLIT, $0-48
	TILEARGS
	TILEPASS(A4ROW, A4COL, 16, 0, 144, 0, a4q4r0)
	TILEPASS(A4ROW, A4COL, 48, 32, 144, 4, a4q4r1)
	TILEPASS(A4ROW, A4COL, 80, 64, 144, 8, a4q4r2)
	TILEPASS(A4ROW, A4COL, 112, 96, 144, 12, a4q4r3)
	VZEROUPPER
	RET

// func gemm4Q8_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm4Q8_0AVX2(SB), NOSPLIT, $0-48
	TILEARGS
	TILEPASS(A8ROW, A8COL, 16, 0, 272, 0, a4q8r0)
	TILEPASS(A8ROW, A8COL, 80, 32, 272, 4, a4q8r1)
	TILEPASS(A8ROW, A8COL, 144, 64, 272, 8, a4q8r2)
	TILEPASS(A8ROW, A8COL, 208, 96, 272, 12, a4q8r3)
	VZEROUPPER
	RET

// AF4SETUP puts the MXFP4 lookup table in Y13 (the 0x80 bytes of A8) and
// sets the distance of PFF4.
#define AF4SETUP \
	VBROADCASTI128 mxfp4lut16<>(SB), Y13 \
	PFDISTF4

// func gemm1MXFP4AVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1MXFP4AVX2(SB), NOSPLIT, $0-48
	KERNELA(AF4, 16, 48, 80, 112, 144, a1f4loop, AF4SETUP, PFF4)

// AF4COL accumulates one activation row (lo at XLO, hi at XHI, scales at
// XS, correction at XC) into ACC for the MXFP4 row decoded in Y9/Y10 whose
// spread scales are in Y13: AF4 after its lookups, with the same integer
// and float operations.
#define AF4COL(XLO, XHI, XS, XC, ACC) \
	VPMADDUBSW XLO, Y9, Y11 \
	VPMADDUBSW XHI, Y10, Y12 \
	VPADDW Y12, Y11, Y11 \
	VPMADDWD Y14, Y11, Y11 \
	VPADDD XC, Y11, Y11 \
	VPADDD XC, Y11, Y11 \
	VCVTDQ2PS Y11, Y11 \
	VMULPS XS, Y13, Y12 \
	VFMADD231PS Y12, Y11, ACC

// AF4X2 decodes the MXFP4 row at OFF(SI) once (row indices at IDX of
// rowidx) and accumulates it into ACC0 and ACC1 for activation rows 0
// and 1. Registers of the two-column kernel: Y0–Y7 the sums (row r,
// column c in Y(2r+c)), Y8 the group's scales, Y9–Y13 as in AF4COL, Y14
// int16 ones, Y15 the lookup table; the nibble mask stays in memory.
#define AF4X2(OFF, IDX, ACC0, ACC1) \
	VMOVDQU OFF(SI), Y9 \
	VPSRLW $4, Y9, Y10 \
	VPAND nibbles0f<>(SB), Y9, Y9 \
	VPAND nibbles0f<>(SB), Y10, Y10 \
	VPSHUFB Y9, Y15, Y9 \
	VPSHUFB Y10, Y15, Y10 \
	VMOVDQU rowidx<>+IDX(SB), Y13 \
	VPERMPS Y8, Y13, Y13 \
	AF4COL((DI), 32(DI), 64(DI), 96(DI), ACC0) \
	AF4COL((DI)(R9*1), 32(DI)(R9*1), 64(DI)(R9*1), 96(DI)(R9*1), ACC1)

// func gemm2MXFP4AVX2(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm2MXFP4AVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ np+16(FP), CX
	MOVQ xstride+24(FP), R9
	MOVQ out+32(FP), DX
	MOVQ ostride+40(FP), R8
	SHLQ $2, R8
	BCAST32($0x00010001, X14, Y14)
	VBROADCASTI128 mxfp4lut16<>(SB), Y15
	ZERO4
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	PFDISTF4

a2f4loop:
	PFF4
	VCVTPH2PS (SI), Y8
	AF4X2(16, 0, Y0, Y1)
	AF4X2(48, 32, Y2, Y3)
	AF4X2(80, 64, Y4, Y5)
	AF4X2(112, 96, Y6, Y7)
	ADDQ $144, SI
	SUBQ $-128, DI
	DECQ CX
	JNZ  a2f4loop
	STORE8
