//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Per-lane shift counts that spread 8 nibbles of a dword over 8 lanes.
DATA nibshift<>+0(SB)/4, $0
DATA nibshift<>+4(SB)/4, $4
DATA nibshift<>+8(SB)/4, $8
DATA nibshift<>+12(SB)/4, $12
DATA nibshift<>+16(SB)/4, $16
DATA nibshift<>+20(SB)/4, $20
DATA nibshift<>+24(SB)/4, $24
DATA nibshift<>+28(SB)/4, $28
GLOBL nibshift<>(SB), RODATA|NOPTR, $32

// func affineGroups4AVX2(row *byte, x *float32, ngroups, gsize int, out *float32)
// out[g] = Σ q_i*x_i over the gsize (a multiple of 16) elements of group g,
// q_i the 4-bit values of row, low nibble first.
TEXT ·affineGroups4AVX2(SB), NOSPLIT, $0-40
	MOVQ row+0(FP), SI
	MOVQ x+8(FP), DX
	MOVQ ngroups+16(FP), CX
	MOVQ gsize+24(FP), R8
	SHRQ $4, R8
	MOVQ out+32(FP), DI
	VMOVDQU nibshift<>(SB), Y15
	BCAST32($0x0f, X14, Y14)

agroup:
	TESTQ CX, CX
	JZ    adone
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ R8, BX

a16:
	NIBDOT16
	DECQ BX
	JNZ  a16

	VADDPS Y1, Y0, Y0
	HSUM8(Y0, X0, X1)
	VMOVSS X0, (DI)
	ADDQ $4, DI
	DECQ CX
	JMP  agroup

adone:
	VZEROUPPER
	RET

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
	VMOVDQU nibshift<>(SB), Y15
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
