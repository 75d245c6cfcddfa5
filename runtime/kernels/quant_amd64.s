//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// VPERMD indices that undo the lane interleaving of VPACKSSDW/VPACKSSWB.
DATA packperm<>+0(SB)/4, $0
DATA packperm<>+4(SB)/4, $4
DATA packperm<>+8(SB)/4, $1
DATA packperm<>+12(SB)/4, $5
DATA packperm<>+16(SB)/4, $2
DATA packperm<>+20(SB)/4, $6
DATA packperm<>+24(SB)/4, $3
DATA packperm<>+28(SB)/4, $7
GLOBL packperm<>(SB), RODATA|NOPTR, $32

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

// func quantQ8_0AVX2(dst *byte, src *float32, nb int)
// ggml's quantize_row_q8_0 for AVX2: d = amax/127 stored as fp16, values
// x*(127/amax) rounded to nearest even (MXCSR default) and packed to int8.
TEXT ·quantQ8_0AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ nb+16(FP), CX
	BCAST32($0x7fffffff, X15, Y15)
	MOVL $0x42fe0000, AX // 127.0
	VMOVD AX, X14
	VMOVDQU packperm<>(SB), Y13

qloop:
	TESTQ CX, CX
	JZ    qdone
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VANDPS Y15, Y0, Y4
	VANDPS Y15, Y1, Y5
	VMAXPS Y5, Y4, Y4
	VANDPS Y15, Y2, Y5
	VMAXPS Y5, Y4, Y4
	VANDPS Y15, Y3, Y5
	VMAXPS Y5, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VMAXPS X5, X4, X4
	VMOVHLPS X4, X4, X5
	VMAXPS X5, X4, X4
	VMOVSHDUP X4, X5
	VMAXSS X5, X4, X4

	VDIVSS X14, X4, X5
	VCVTPS2PH $0, X5, X5
	VMOVD X5, AX
	MOVW AX, (DI)

	VXORPS X5, X5, X5
	VUCOMISS X5, X4
	JEQ  qzero
	VDIVSS X4, X14, X5

qzero:
	VBROADCASTSS X5, Y5
	VMULPS Y5, Y0, Y0
	VMULPS Y5, Y1, Y1
	VMULPS Y5, Y2, Y2
	VMULPS Y5, Y3, Y3
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VCVTPS2DQ Y2, Y2
	VCVTPS2DQ Y3, Y3
	VPACKSSDW Y1, Y0, Y0
	VPACKSSDW Y3, Y2, Y2
	VPACKSSWB Y2, Y0, Y0
	VPERMD Y0, Y13, Y0
	VMOVDQU Y0, 2(DI)
	ADDQ $128, SI
	ADDQ $34, DI
	DECQ CX
	JMP  qloop

qdone:
	VZEROUPPER
	RET

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
	VPBROADCASTD (SI), Y2
	VPBROADCASTD 4(SI), Y3
	VPSRLVD Y15, Y2, Y2
	VPSRLVD Y15, Y3, Y3
	VPAND Y14, Y2, Y2
	VPAND Y14, Y3, Y3
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VFMADD231PS (DX), Y2, Y0
	VFMADD231PS 32(DX), Y3, Y1
	ADDQ $8, SI
	ADDQ $64, DX
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
