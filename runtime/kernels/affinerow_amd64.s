//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

DATA arshift<>+0(SB)/4, $0
DATA arshift<>+4(SB)/4, $4
DATA arshift<>+8(SB)/4, $8
DATA arshift<>+12(SB)/4, $12
DATA arshift<>+16(SB)/4, $16
DATA arshift<>+20(SB)/4, $20
DATA arshift<>+24(SB)/4, $24
DATA arshift<>+28(SB)/4, $28
GLOBL arshift<>(SB), RODATA|NOPTR, $32

// BF16 loads the bfloat16 at M as the low float of X (clobbers AX).
#define BF16(M, X) \
	MOVWLZX M, AX \
	SHLL $16, AX \
	VMOVD AX, X

// func affineRow4BF16AVX2(row *byte, x *float32, ngroups, gsize int, sc, bi *uint16, xsum *float32) float32
// Returns Σ_g sc_g·Σ q_i·x_i + Σ_g bi_g·xsum_g over the groups of a 4-bit
// MLX row with BF16 scales and biases. The scaled group sums accumulate in
// the lanes of one vector (one horizontal sum per row, not per group, so the
// groups overlap in the pipeline); the bias terms in a scalar.
TEXT ·affineRow4BF16AVX2(SB), NOSPLIT, $0-60
	MOVQ row+0(FP), SI
	MOVQ x+8(FP), DX
	MOVQ ngroups+16(FP), CX
	MOVQ gsize+24(FP), R8
	SHRQ $4, R8
	MOVQ sc+32(FP), R9
	MOVQ bi+40(FP), R10
	MOVQ xsum+48(FP), R11
	VMOVDQU arshift<>(SB), Y15
	BCAST32($0x0f, X14, Y14)
	VXORPS Y4, Y4, Y4
	VXORPS X5, X5, X5

rgroup:
	TESTQ CX, CX
	JZ    rdone
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ R8, BX

r16:
	NIBDOT16
	DECQ BX
	JNZ  r16

	VADDPS Y1, Y0, Y0
	BF16((R9), X2)
	VBROADCASTSS X2, Y2
	VFMADD231PS Y2, Y0, Y4
	BF16((R10), X3)
	VFMADD231SS (R11), X3, X5
	ADDQ $2, R9
	ADDQ $2, R10
	ADDQ $4, R11
	DECQ CX
	JMP  rgroup

rdone:
	HSUM8(Y4, X4, X1)
	VADDSS X5, X4, X4
	VMOVSS X4, ret+56(FP)
	VZEROUPPER
	RET
