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

// QPROLOGUE sets the constants of QBLOCK: Y15 the sign mask, X14 127.0,
// Y13 packperm.
#define QPROLOGUE \
	BCAST32($0x7fffffff, X15, Y15) \
	MOVL $0x42fe0000, AX \
	VMOVD AX, X14 \
	VMOVDQU packperm<>(SB), Y13

// QBLOCK quantizes the 32 floats at OFF(SI) as ggml's quantize_row_q8_0 for
// AVX2 does: d = amax/127 rounded to fp16 (left in the low word of X6),
// values x·(127/amax) rounded to nearest even (MXCSR default), packed to
// 32 int8 in Y0, in order. Clobbers Y1–Y5.
#define QBLOCK(OFF) \
	VMOVUPS OFF(SI), Y0 \
	VMOVUPS 32+OFF(SI), Y1 \
	VMOVUPS 64+OFF(SI), Y2 \
	VMOVUPS 96+OFF(SI), Y3 \
	VANDPS Y15, Y0, Y4 \
	VANDPS Y15, Y1, Y5 \
	VMAXPS Y5, Y4, Y4 \
	VANDPS Y15, Y2, Y5 \
	VMAXPS Y5, Y4, Y4 \
	VANDPS Y15, Y3, Y5 \
	VMAXPS Y5, Y4, Y4 \
	VEXTRACTF128 $1, Y4, X5 \
	VMAXPS X5, X4, X4 \
	VMOVHLPS X4, X4, X5 \
	VMAXPS X5, X4, X4 \
	VMOVSHDUP X4, X5 \
	VMAXSS X5, X4, X4 \
	VDIVSS X14, X4, X6 \
	VCVTPS2PH $0, X6, X6 \
	VXORPS X5, X5, X5 \
	VUCOMISS X5, X4 \
	JEQ  2(PC) \
	VDIVSS X4, X14, X5 \
	VBROADCASTSS X5, Y5 \
	VMULPS Y5, Y0, Y0 \
	VMULPS Y5, Y1, Y1 \
	VMULPS Y5, Y2, Y2 \
	VMULPS Y5, Y3, Y3 \
	VCVTPS2DQ Y0, Y0 \
	VCVTPS2DQ Y1, Y1 \
	VCVTPS2DQ Y2, Y2 \
	VCVTPS2DQ Y3, Y3 \
	VPACKSSDW Y1, Y0, Y0 \
	VPACKSSDW Y3, Y2, Y2 \
	VPACKSSWB Y2, Y0, Y0 \
	VPERMD Y0, Y13, Y0

// func quantQ8_0AVX2(dst *byte, src *float32, nb int)
// ggml's quantize_row_q8_0 for AVX2, nb blocks.
TEXT ·quantQ8_0AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ nb+16(FP), CX
	QPROLOGUE

qloop:
	TESTQ CX, CX
	JZ    qdone
	QBLOCK(0)
	VMOVD X6, AX
	MOVW AX, (DI)
	VMOVDQU Y0, 2(DI)
	ADDQ $128, SI
	ADDQ $34, DI
	DECQ CX
	JMP  qloop

qdone:
	VZEROUPPER
	RET

// PAIRHALF quantizes block H (0 or 1) of the pair at SI into the pair
// layout at DI (quantizePairsRef).
#define PAIRHALF(H) \
	QBLOCK(H*128) \
	VMOVDQU X0, H*16(DI) \
	VEXTRACTI128 $1, Y0, 32+H*16(DI) \
	VCVTPH2PS X6, X6 \
	VBROADCASTSS X6, X6 \
	VMOVUPS X6, 64+H*16(DI)

// func quantPairsAVX2(dst *byte, src *float32, np int)
// quantizePairsRef for np whole pairs (64 floats each).
TEXT ·quantPairsAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ np+16(FP), CX
	QPROLOGUE
	BCAST32($0x00010001, X11, Y11)
	BCAST32($0x01010101, X12, Y12)
	VPXOR Y10, Y10, Y10

ploop:
	TESTQ CX, CX
	JZ    pdone
	PAIRHALF(0)
	PAIRHALF(1)
	VPMADDUBSW (DI), Y12, Y7
	VPMADDUBSW 32(DI), Y12, Y8
	VPADDW Y8, Y7, Y7
	VPMADDWD Y11, Y7, Y7
	VPSLLD $3, Y7, Y7
	VPSUBD Y7, Y10, Y7
	VMOVDQU Y7, 96(DI)
	ADDQ $256, SI
	SUBQ $-128, DI
	DECQ CX
	JMP  ploop

pdone:
	VZEROUPPER
	RET
