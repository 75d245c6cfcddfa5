//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// One-column Q4_0 tile kernel on 512-bit vectors: the decode step's matmul
// (gemm1Q4_0VNNI's integers and float operations, lane for lane, so the
// results are the same bits). A 512-bit vector holds two rows of a pair of
// blocks (rows 0–1, then 2–3: they are adjacent in the packed tile), their
// activations broadcast into both halves: half the instructions of the
// 256-bit kernel per tile.
//
// Registers: SI weights, DI activations, CX pairs left, DX out; Z0 the sums
// of rows 0–1, Z2 of rows 2–3 (lanes 0–7 the first row, 8–15 the second),
// Z16 the group's scales, Z22 the corrections, Z23/Z24 the lo/hi
// activations, Z25 their spread scales, Z27/Z28 the scale indices of the
// row pairs, Z31 the nibble mask.

// VPERMPS indices spreading the scales of rows 0–1 (lanes 0–3) and 2–3
// (lanes 4–7) of the converted group scales over the lanes of their blocks.
DATA pairidx<>+0(SB)/8, $0x0000000000000000
DATA pairidx<>+8(SB)/8, $0x0000000000000000
DATA pairidx<>+16(SB)/8, $0x0000000100000001
DATA pairidx<>+24(SB)/8, $0x0000000100000001
DATA pairidx<>+32(SB)/8, $0x0000000200000002
DATA pairidx<>+40(SB)/8, $0x0000000200000002
DATA pairidx<>+48(SB)/8, $0x0000000300000003
DATA pairidx<>+56(SB)/8, $0x0000000300000003
DATA pairidx<>+64(SB)/8, $0x0000000400000004
DATA pairidx<>+72(SB)/8, $0x0000000400000004
DATA pairidx<>+80(SB)/8, $0x0000000500000005
DATA pairidx<>+88(SB)/8, $0x0000000500000005
DATA pairidx<>+96(SB)/8, $0x0000000600000006
DATA pairidx<>+104(SB)/8, $0x0000000600000006
DATA pairidx<>+112(SB)/8, $0x0000000700000007
DATA pairidx<>+120(SB)/8, $0x0000000700000007
GLOBL pairidx<>(SB), RODATA|NOPTR, $128

// PAIR4 accumulates the two Q4_0 rows at OFF(SI) (scale indices IDX) into
// ACC.
#define PAIR4(OFF, IDX, ACC) \
	VMOVDQU32 OFF(SI), Z17 \
	VPSRLW $4, Z17, Z18 \
	VPANDD Z31, Z17, Z17 \
	VPANDD Z31, Z18, Z18 \
	VMOVDQA32 Z22, Z20 \
	VPDPBUSD Z23, Z17, Z20 \
	VPDPBUSD Z24, Z18, Z20 \
	VCVTDQ2PS Z20, Z20 \
	VPERMPS Z16, IDX, Z19 \
	VMULPS Z25, Z19, Z21 \
	VFMADD231PS Z21, Z20, ACC

// func gemm1Q4_0ZMM(w, x *byte, np, xstride int, out *float32, ostride int)
TEXT ·gemm1Q4_0ZMM(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ np+16(FP), CX
	MOVQ out+32(FP), DX
	VMOVDQU32 pairidx<>+0(SB), Z27
	VMOVDQU32 pairidx<>+64(SB), Z28
	MOVL $0x0f0f0f0f, AX
	VPBROADCASTD AX, Z31
	VXORPS Y0, Y0, Y0
	VXORPS Y2, Y2, Y2

g1q4zloop:
	VCVTPH2PS (SI), Y16
	VBROADCASTI64X4 96(DI), Z22
	VBROADCASTI64X4 (DI), Z23
	VBROADCASTI64X4 32(DI), Z24
	VBROADCASTF64X4 64(DI), Z25
	PAIR4(16, Z27, Z0)
	PAIR4(80, Z28, Z2)
	ADDQ $144, SI
	SUBQ $-128, DI
	DECQ CX
	JNZ  g1q4zloop
	VEXTRACTF64X4 $1, Z0, Y1
	VEXTRACTF64X4 $1, Z2, Y3
	STORE4
