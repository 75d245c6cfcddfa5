//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Attention over Q8_0 and Q4_0 cache rows (kvquant.go), AVX2: the scores
// take ggml's integer dot product of a Q8_0 query block with a key block
// (VPSIGNB, VPMADDUBSW, VPMADDWD, scales applied with FMA), one row after
// another; the weighted sum of values keeps 32 float32 accumulators per
// block in registers over every row of the call.

// SCORE adds to Y10 the dot product of the key block at SI, its 32 values
// in Y8, with the query block at R9.
#define SCORE \
	HALF((SI), X14) \
	HALF((R9), X13) \
	VMULSS X13, X14, X14 \
	VBROADCASTSS X14, Y14 \
	VMOVDQU 2(R9), Y9 \
	VPSIGNB Y8, Y8, Y1 \
	VPSIGNB Y8, Y9, Y2 \
	VPMADDUBSW Y2, Y1, Y3 \
	VPMADDWD Y15, Y3, Y3 \
	VCVTDQ2PS Y3, Y3 \
	VFMADD231PS Y3, Y14, Y10

// SCORES loads the arguments of a score kernel and clears nothing.
#define SCORES \
	MOVQ dst+0(FP), DX \
	MOVQ q+8(FP), DI \
	MOVQ k+16(FP), SI \
	MOVQ n+24(FP), CX \
	MOVQ nb+32(FP), R8 \
	BCAST32($0x00010001, X15, Y15) \
	BCAST32($0x0f0f0f0f, X7, Y7) \
	BCAST32($0x08080808, X6, Y6)

// STORESCORE stores the sum of Y10 at DX and moves DX to the next score.
#define STORESCORE \
	HSUM8(Y10, X10, X1) \
	VMOVSS X10, (DX) \
	ADDQ $4, DX

// ACCUMS loads the arguments of an accumulation kernel: DX dst, DI the
// weights, SI the first row, CX rows, R8 blocks, R11 the bytes of a row
// of BB-byte blocks.
#define ACCUMS(BB) \
	MOVQ  dst+0(FP), DX \
	MOVQ  p+8(FP), DI \
	MOVQ  v+16(FP), SI \
	MOVQ  n+24(FP), CX \
	MOVQ  nb+32(FP), R8 \
	IMUL3Q $BB, R8, R11

// LOADACC loads the 32 accumulators of one block from DX and starts the
// walk over the rows: R9 the block in the row, R12 its weight, R10 rows.
#define LOADACC \
	VMOVUPS (DX), Y0 \
	VMOVUPS 32(DX), Y1 \
	VMOVUPS 64(DX), Y2 \
	VMOVUPS 96(DX), Y3 \
	MOVQ    SI, R9 \
	MOVQ    DI, R12 \
	MOVQ    CX, R10

// WEIGHT sets Y4 to the row's weight times the scale of its block at R9.
#define WEIGHT \
	HALF((R9), X4) \
	VMULSS       (R12), X4, X4 \
	VBROADCASTSS X4, Y4

// MADD4 adds Y4 times the integers of Y10–Y13 to the accumulators.
#define MADD4 \
	VCVTDQ2PS   Y10, Y10 \
	VCVTDQ2PS   Y11, Y11 \
	VCVTDQ2PS   Y12, Y12 \
	VCVTDQ2PS   Y13, Y13 \
	VFMADD231PS Y10, Y4, Y0 \
	VFMADD231PS Y11, Y4, Y1 \
	VFMADD231PS Y12, Y4, Y2 \
	VFMADD231PS Y13, Y4, Y3

// STOREACC stores the accumulators and moves to the next block.
#define STOREACC(BB) \
	VMOVUPS Y0, (DX) \
	VMOVUPS Y1, 32(DX) \
	VMOVUPS Y2, 64(DX) \
	VMOVUPS Y3, 96(DX) \
	ADDQ    $128, DX \
	ADDQ    $BB, SI

// SCOREROW starts the scores of one key row: Y10 = 0, R9 the query, R10
// its blocks.
#define SCOREROW \
	VXORPS Y10, Y10, Y10 \
	MOVQ   DI, R9 \
	MOVQ   R8, R10

// SCORENEXT moves past a key block of BB bytes and a query block, loops
// to BLK over the row's blocks and to POS over the rows, then returns.
#define SCORENEXT(BB, BLK, POS) \
	ADDQ $BB, SI \
	ADDQ $34, R9 \
	DECQ R10 \
	JNZ  BLK \
	STORESCORE \
	DECQ CX \
	JNZ  POS \
	VZEROUPPER \
	RET

// ACCUMNEXT adds the row's block (integers in Y10–Y13) to the sums, loops
// to POS over the rows and to BLK over the blocks of BB bytes, then
// returns.
#define ACCUMNEXT(BB, POS, BLK) \
	MADD4 \
	ADDQ R11, R9 \
	ADDQ $4, R12 \
	DECQ R10 \
	JNZ  POS \
	STOREACC(BB) \
	DECQ R8 \
	JNZ  BLK \
	VZEROUPPER \
	RET

// DECODE4 stores Y4 times the integers of Y10–Y13 at DX and moves DX past
// the block.
#define DECODE4 \
	VCVTDQ2PS Y10, Y10 \
	VCVTDQ2PS Y11, Y11 \
	VCVTDQ2PS Y12, Y12 \
	VCVTDQ2PS Y13, Y13 \
	VMULPS    Y10, Y4, Y10 \
	VMULPS    Y11, Y4, Y11 \
	VMULPS    Y12, Y4, Y12 \
	VMULPS    Y13, Y4, Y13 \
	VMOVUPS   Y10, (DX) \
	VMOVUPS   Y11, 32(DX) \
	VMOVUPS   Y12, 64(DX) \
	VMOVUPS   Y13, 96(DX) \
	ADDQ      $128, DX

// BYTES4 sets Y10–Y13 to the 32 int8 values of the Q8_0 block at R.
#define BYTES4(R) \
	VPMOVSXBD 2(R), Y10 \
	VPMOVSXBD 10(R), Y11 \
	VPMOVSXBD 18(R), Y12 \
	VPMOVSXBD 26(R), Y13

// NIBBLES4 sets Y10–Y13 to the 32 values (nibble - 8) of the Q4_0 block at
// R: low nibbles first; X7 holds 0x0f bytes, X9 0x08 bytes.
#define NIBBLES4(R) \
	VMOVDQU   2(R), X5 \
	VPSRLW    $4, X5, X6 \
	VPAND     X7, X5, X5 \
	VPAND     X7, X6, X6 \
	VPSUBB    X9, X5, X5 \
	VPSUBB    X9, X6, X6 \
	VPMOVSXBD X5, Y10 \
	VPSRLDQ   $8, X5, X5 \
	VPMOVSXBD X5, Y11 \
	VPMOVSXBD X6, Y12 \
	VPSRLDQ   $8, X6, X6 \
	VPMOVSXBD X6, Y13

// func scoresQ8_0AVX2(dst *float32, q, k *byte, n, nb int)
TEXT ·scoresQ8_0AVX2(SB), NOSPLIT, $0-40
	SCORES

s8pos:
	SCOREROW

s8blk:
	VMOVDQU 2(SI), Y8
	SCORE
	SCORENEXT(34, s8blk, s8pos)

// func scoresQ4_0AVX2(dst *float32, q, k *byte, n, nb int)
TEXT ·scoresQ4_0AVX2(SB), NOSPLIT, $0-40
	SCORES

s4pos:
	SCOREROW

s4blk:
	VMOVDQU     2(SI), X8
	VPSRLW      $4, X8, X9
	VINSERTI128 $1, X9, Y8, Y8
	VPAND       Y7, Y8, Y8
	VPSUBB      Y6, Y8, Y8
	SCORE
	SCORENEXT(18, s4blk, s4pos)

// func accumQ8_0AVX2(dst, p *float32, v *byte, n, nb int)
TEXT ·accumQ8_0AVX2(SB), NOSPLIT, $0-40
	ACCUMS(34)

a8blk:
	LOADACC

a8pos:
	WEIGHT
	BYTES4(R9)
	ACCUMNEXT(34, a8pos, a8blk)

// func accumQ4_0AVX2(dst, p *float32, v *byte, n, nb int)
TEXT ·accumQ4_0AVX2(SB), NOSPLIT, $0-40
	ACCUMS(18)
	BCAST32($0x0f0f0f0f, X7, Y7)
	BCAST32($0x08080808, X9, Y9)

a4blk:
	LOADACC

a4pos:
	WEIGHT
	NIBBLES4(R9)
	ACCUMNEXT(18, a4pos, a4blk)

// func decodeQ8_0AVX2(dst *float32, src *byte, nb int)
TEXT ·decodeQ8_0AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DX
	MOVQ src+8(FP), SI
	MOVQ nb+16(FP), CX

d8blk:
	HALF((SI), X4)
	VBROADCASTSS X4, Y4
	BYTES4(SI)
	DECODE4
	ADDQ $34, SI
	DECQ CX
	JNZ  d8blk
	VZEROUPPER
	RET

// func decodeQ4_0AVX2(dst *float32, src *byte, nb int)
TEXT ·decodeQ4_0AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DX
	MOVQ src+8(FP), SI
	MOVQ nb+16(FP), CX
	BCAST32($0x0f0f0f0f, X7, Y7)
	BCAST32($0x08080808, X9, Y9)

d4blk:
	HALF((SI), X4)
	VBROADCASTSS X4, Y4
	NIBBLES4(SI)
	DECODE4
	ADDQ $18, SI
	DECQ CX
	JNZ  d4blk
	VZEROUPPER
	RET
