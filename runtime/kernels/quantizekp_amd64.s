//go:build !noasm

#include "textflag.h"

// Activation quantizer of the packed K-quant kernels: ggml's Q8_K
// (iscale = −127/max, max the value of largest magnitude, values rounded to
// nearest even and capped at 127), written in the reordered form actQ8_KP
// (pack_kquant.go) with its sums. Same bits as quantizeKPRef. AVX2; the
// saturating packs narrow to int8 (a NaN gives −128).

DATA kqconst<>+0(SB)/4, $0x7fffffff // |x| mask
DATA kqconst<>+4(SB)/4, $-127.0
DATA kqconst<>+8(SB)/4, $1.0
DATA kqconst<>+12(SB)/4, $127
DATA kqconst<>+16(SB)/4, $0x01010101
GLOBL kqconst<>(SB), RODATA|NOPTR, $20

// Q8 quantizes the 8 floats at OFF(SI) with the scale in Y2 (capped at 127,
// in Y14) and stores their two 4-byte words at O0(DI) and O1(DI).
#define Q8(OFF, O0, O1) \
	VMULPS OFF(SI), Y2, Y4 \
	VCVTPS2DQ Y4, Y4 \
	VPMINSD Y14, Y4, Y4 \
	VEXTRACTI128 $1, Y4, X5 \
	VPACKSSDW X5, X4, X4 \
	VPACKSSWB X4, X4, X4 \
	VMOVD X4, O0(DI) \
	VPEXTRD $1, X4, O1(DI)

// AMAX4 folds |x| of four vectors at OFF(SI) into Y0–Y3 (the |x| mask in
// Y15; a NaN is skipped, as in the reference).
#define AMAX4(OFF) \
	VANDPS OFF(SI), Y15, Y4 \
	VMAXPS Y0, Y4, Y0 \
	VANDPS 32+OFF(SI), Y15, Y4 \
	VMAXPS Y1, Y4, Y1 \
	VANDPS 64+OFF(SI), Y15, Y4 \
	VMAXPS Y2, Y4, Y2 \
	VANDPS 96+OFF(SI), Y15, Y4 \
	VMAXPS Y3, Y4, Y3

// func quantKPAVX2(dst *byte, src *float32, nsb int)
TEXT ·quantKPAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ nsb+16(FP), CX
	VBROADCASTSS kqconst<>+0(SB), Y15
	VPBROADCASTD kqconst<>+12(SB), Y14
	VPBROADCASTD kqconst<>+16(SB), Y13
	VPSRLW $8, Y13, Y12 // int16 ones
	TESTQ CX, CX
	JZ   done

block:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	AMAX4(0)
	AMAX4(128)
	AMAX4(256)
	AMAX4(384)
	AMAX4(512)
	AMAX4(640)
	AMAX4(768)
	AMAX4(896)
	VMAXPS Y1, Y0, Y0
	VMAXPS Y3, Y2, Y2
	VMAXPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VMOVHLPS X0, X0, X1
	VMAXPS X1, X0, X0
	VMOVSHDUP X0, X1
	VMAXSS X1, X0, X0
	VXORPS X1, X1, X1
	VUCOMISS X1, X0
	JE   zero
	VBROADCASTSS X0, Y0

	// The first value whose magnitude is the maximum gives the sign.
	XORQ BX, BX
find:
	VANDPS (SI)(BX*4), Y15, Y4
	VCMPPS $0, Y0, Y4, Y4
	VMOVMSKPS Y4, AX
	TESTL AX, AX
	JNZ  found
	ADDQ $8, BX
	CMPQ BX, $256
	JB   find
	JMP  zero
found:
	TZCNTL AX, AX
	ADDQ AX, BX
	VMOVSS kqconst<>+4(SB), X2
	VDIVSS (SI)(BX*4), X2, X2 // iscale = −127/max
	VMOVSS kqconst<>+8(SB), X3
	VDIVSS X2, X3, X3 // d = 1/iscale
	VBROADCASTSS X2, Y2
	VBROADCASTSS X3, Y3

	Q8(0, 0, 32)
	Q8(32, 64, 96)
	Q8(64, 128, 160)
	Q8(96, 192, 224)
	Q8(128, 4, 36)
	Q8(160, 68, 100)
	Q8(192, 132, 164)
	Q8(224, 196, 228)
	Q8(256, 8, 40)
	Q8(288, 72, 104)
	Q8(320, 136, 168)
	Q8(352, 200, 232)
	Q8(384, 12, 44)
	Q8(416, 76, 108)
	Q8(448, 140, 172)
	Q8(480, 204, 236)
	Q8(512, 16, 48)
	Q8(544, 80, 112)
	Q8(576, 144, 176)
	Q8(608, 208, 240)
	Q8(640, 20, 52)
	Q8(672, 84, 116)
	Q8(704, 148, 180)
	Q8(736, 212, 244)
	Q8(768, 24, 56)
	Q8(800, 88, 120)
	Q8(832, 152, 184)
	Q8(864, 216, 248)
	Q8(896, 28, 60)
	Q8(928, 92, 124)
	Q8(960, 156, 188)
	Q8(992, 220, 252)

	// Sums of the 16-value sub-blocks: lane j of the even (Y5) and odd (Y6)
	// sub-blocks, from the stored bytes (int16 sums of at most 8·128 in magnitude).
	VPMADDUBSW 0(DI), Y13, Y5
	VPMADDUBSW 32(DI), Y13, Y7
	VPADDW Y7, Y5, Y5
	VPMADDUBSW 64(DI), Y13, Y7
	VPADDW Y7, Y5, Y5
	VPMADDUBSW 96(DI), Y13, Y7
	VPADDW Y7, Y5, Y5
	VPMADDWD Y12, Y5, Y5
	VPMADDUBSW 128(DI), Y13, Y6
	VPMADDUBSW 160(DI), Y13, Y7
	VPADDW Y7, Y6, Y6
	VPMADDUBSW 192(DI), Y13, Y7
	VPADDW Y7, Y6, Y6
	VPMADDUBSW 224(DI), Y13, Y7
	VPADDW Y7, Y6, Y6
	VPMADDWD Y12, Y6, Y6
	VPXOR Y7, Y7, Y7
	VPSLLD $5, Y5, Y8
	VPSUBD Y8, Y7, Y8
	VMOVDQU Y8, 256(DI)
	VPSLLD $5, Y6, Y8
	VPSUBD Y8, Y7, Y8
	VMOVDQU Y8, 288(DI)
	VPADDD Y6, Y5, Y5
	VCVTDQ2PS Y5, Y5
	VMULPS Y3, Y5, Y5
	VMOVUPS Y5, 320(DI)
	VMOVUPS Y3, 352(DI)
	JMP  next

zero:
	VXORPS Y4, Y4, Y4
	VMOVUPS Y4, 0(DI)
	VMOVUPS Y4, 32(DI)
	VMOVUPS Y4, 64(DI)
	VMOVUPS Y4, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y4, 160(DI)
	VMOVUPS Y4, 192(DI)
	VMOVUPS Y4, 224(DI)
	VMOVUPS Y4, 256(DI)
	VMOVUPS Y4, 288(DI)
	VMOVUPS Y4, 320(DI)
	VMOVUPS Y4, 352(DI)

next:
	ADDQ $1024, SI
	ADDQ $384, DI
	DECQ CX
	JNZ  block

done:
	VZEROUPPER
	RET
