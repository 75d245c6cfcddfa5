//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

#define pair8 544

// Tile kernels of Q8_0 weights packed eight rows to a group (pack_q8x8.go)
// times activations in pairs of Q8_0 blocks whose corrections are summed
// per block (actPairQ8x8). For every block of a pair, the eight weight
// vectors each hold four values of each of the eight rows, so that one
// VPDPBUSD with four broadcast activation bytes adds four products to
// every row's lane: after eight, lane r holds row r's whole block dot
// product, plus the block's correction, with which the lane started. Then
//   acc[c][r] += float(I) * (dw_r · dx_c)
// block after block, in the same order in every kernel, so that results do
// not depend on how many columns a kernel computes at once. No horizontal
// sums: a column's eight rows are one vector of the output.

// Registers: SI weights, DI activations of column 0, R12 of column 4, R9
// xstride, R10 3*xstride, CX pairs left, DX out, R8 ostride in bytes, R11
// the bytes of a group (the prefetch distance), R13 zero. Y0–Y7 the columns' sums, Y8–Y15 the columns' block integers, Y16 the
// block's row scales, Y17 a scale product, Y18–Y25 the block's weights.

#define ARGS8 \
	VNNIARGS \
	LEAQ (DI)(R9*4), R12

// WBLOCK loads the eight weight vectors of a block at OFF(SI).
#define WBLOCK(OFF) \
	VMOVDQU32 OFF(SI), Y18 \
	VMOVDQU32 32+OFF(SI), Y19 \
	VMOVDQU32 64+OFF(SI), Y20 \
	VMOVDQU32 96+OFF(SI), Y21 \
	VMOVDQU32 128+OFF(SI), Y22 \
	VMOVDQU32 160+OFF(SI), Y23 \
	VMOVDQU32 192+OFF(SI), Y24 \
	VMOVDQU32 224+OFF(SI), Y25

// BCOL accumulates one block of the column at (B)(IX) (byte offsets of its
// value quads Q0–Q7, its correction CO and scale SO) into ACC, through the
// block integer I.
#define BCOL(B, IX, Q0, Q1, Q2, Q3, Q4, Q5, Q6, Q7, CO, SO, I, ACC) \
	VPBROADCASTD CO(B)(IX), I \
	VPDPBUSD.BCST Q0(B)(IX), Y18, I \
	VPDPBUSD.BCST Q1(B)(IX), Y19, I \
	VPDPBUSD.BCST Q2(B)(IX), Y20, I \
	VPDPBUSD.BCST Q3(B)(IX), Y21, I \
	VPDPBUSD.BCST Q4(B)(IX), Y22, I \
	VPDPBUSD.BCST Q5(B)(IX), Y23, I \
	VPDPBUSD.BCST Q6(B)(IX), Y24, I \
	VPDPBUSD.BCST Q7(B)(IX), Y25, I \
	VCVTDQ2PS I, I \
	VMULPS.BCST SO(B)(IX), Y16, Y17 \
	VFMADD231PS Y17, I, ACC

#define BLOCKA(B, IX, I, ACC) BCOL(B, IX, 0, 4, 8, 12, 32, 36, 40, 44, 96, 64, I, ACC)
#define BLOCKB(B, IX, I, ACC) BCOL(B, IX, 16, 20, 24, 28, 48, 52, 56, 60, 112, 80, I, ACC)

// COLS8 runs BLK over the eight columns.
#define COLS8(BLK) \
	BLK(DI, R13*1, Y8, Y0) \
	BLK(DI, R9*1, Y9, Y1) \
	BLK(DI, R9*2, Y10, Y2) \
	BLK(DI, R10*1, Y11, Y3) \
	BLK(R12, R13*1, Y12, Y4) \
	BLK(R12, R9*1, Y13, Y5) \
	BLK(R12, R9*2, Y14, Y6) \
	BLK(R12, R10*1, Y15, Y7)

// PF8 asks for the pair at the same place of the next group (R11 bytes
// on) in the L2 cache while this one computes: spread over the loop, so
// that a decode step's weights stream from memory steadily, on top of what
// packedChunk asks for ahead. (On a 98304×1024 matrix, far larger than the
// L3 cache, with 8 activation rows: 5.0 ms without, 4.7 ms into L1, 3.9–4.2
// ms into L2; with one, the eight-row layout is no slower than the four-row
// one only with it.)
#define PF8 \
	PREFETCHT1 (SI)(R11*1) \
	PREFETCHT1 64(SI)(R11*1) \
	PREFETCHT1 128(SI)(R11*1) \
	PREFETCHT1 192(SI)(R11*1) \
	PREFETCHT1 256(SI)(R11*1) \
	PREFETCHT1 320(SI)(R11*1) \
	PREFETCHT1 384(SI)(R11*1) \
	PREFETCHT1 448(SI)(R11*1) \
	PREFETCHT1 512(SI)(R11*1)

// func gemm8x8Q8_0(w, x *byte, np, xstride int, out *float32, ostride int)
// Rows 0–7 of a packed group times activation columns 0–7.
TEXT ·gemm8x8Q8_0(SB), NOSPLIT, $0-48
	ARGS8
	XORQ R13, R13
	MOVQ CX, R11
	IMULQ $pair8, R11
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

g8loop:
	PF8
	VCVTPH2PS (SI), Y16
	WBLOCK(32)
	COLS8(BLOCKA)
	VCVTPH2PS 16(SI), Y16
	WBLOCK(288)
	COLS8(BLOCKB)
	ADDQ $pair8, SI
	SUBQ $-128, DI
	SUBQ $-128, R12
	DECQ CX
	JNZ  g8loop

	LEAQ (R8)(R8*2), R11
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, (DX)(R8*1)
	VMOVUPS Y2, (DX)(R8*2)
	VMOVUPS Y3, (DX)(R11*1)
	LEAQ (DX)(R8*4), DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, (DX)(R8*1)
	VMOVUPS Y6, (DX)(R8*2)
	VMOVUPS Y7, (DX)(R11*1)
	VZEROUPPER
	RET

// BCOL1 is BCOL for the one-column kernel: the eight products go to two
// block integers (I, J), added before the conversion, so that the column's
// chain of dependent VPDPBUSD is half as long. The integer sum is exact,
// so the result is the same.
#define BCOL1(Q0, Q1, Q2, Q3, Q4, Q5, Q6, Q7, CO, SO) \
	VPBROADCASTD CO(DI), Y8 \
	VPXORD Y9, Y9, Y9 \
	VPDPBUSD.BCST Q0(DI), Y18, Y8 \
	VPDPBUSD.BCST Q1(DI), Y19, Y9 \
	VPDPBUSD.BCST Q2(DI), Y20, Y8 \
	VPDPBUSD.BCST Q3(DI), Y21, Y9 \
	VPDPBUSD.BCST Q4(DI), Y22, Y8 \
	VPDPBUSD.BCST Q5(DI), Y23, Y9 \
	VPDPBUSD.BCST Q6(DI), Y24, Y8 \
	VPDPBUSD.BCST Q7(DI), Y25, Y9 \
	VPADDD Y9, Y8, Y8 \
	VCVTDQ2PS Y8, Y8 \
	VMULPS.BCST SO(DI), Y16, Y17 \
	VFMADD231PS Y17, Y8, Y0

// func gemm8x1Q8_0(w, x *byte, np, xstride int, out *float32, ostride int)
// Rows 0–7 of a packed group times activation column 0.
TEXT ·gemm8x1Q8_0(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ np+16(FP), CX
	MOVQ out+32(FP), DX
	MOVQ CX, R11
	IMULQ $pair8, R11
	VXORPS Y0, Y0, Y0

g1loop:
	PF8
	VCVTPH2PS (SI), Y16
	WBLOCK(32)
	BCOL1(0, 4, 8, 12, 32, 36, 40, 44, 96, 64)
	VCVTPH2PS 16(SI), Y16
	WBLOCK(288)
	BCOL1(16, 20, 24, 28, 48, 52, 56, 60, 112, 80)
	ADDQ $pair8, SI
	SUBQ $-128, DI
	DECQ CX
	JNZ  g1loop

	VMOVUPS Y0, (DX)
	VZEROUPPER
	RET
