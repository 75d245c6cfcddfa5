//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"
#include "qdot_amd64.h"

// The MXFP4 dot product on AVX2, the Q4_0 kernel of qdot_amd64.s with two
// changes: the nibbles index the doubled E2M1 values (mxfp4Values) with
// VPSHUFB instead of being offset by 8, and the block scale is the E8M0
// byte turned into the float 2^(e-128) (e8m0Half) instead of an fp16.

DATA mxfp4lut<>+0(SB)/8, $0x0c08060403020100
DATA mxfp4lut<>+8(SB)/8, $0xf4f8fafcfdfeff00
GLOBL mxfp4lut<>(SB), RODATA|NOPTR, $16

// Each block sets Y8 = w, Y9 = |w|, X14 = weight scale for ROWS4
// (qdot_amd64.h).

// func qdotMXFP4AVX2(w, x *byte, nb, xstride, nrows int, out *float32)
TEXT ·qdotMXFP4AVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ nb+16(FP), CX
	MOVQ xstride+24(FP), R9
	MOVQ nrows+32(FP), R8
	LEAQ (R9)(R9*2), R10
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	BCAST32($0x00010001, X15, Y15)
	BCAST32($0x0f0f0f0f, X7, Y7)
	VBROADCASTI128 mxfp4lut<>(SB), Y6

loop:
	TESTQ CX, CX
	JZ    done
	// X14 = 2^(e-128): exponent field e-1, or the subnormals (e+1)<<21
	// for e = 0 and 1.
	MOVBLZX (SI), AX
	CMPL    AX, $2
	JB      small
	DECL    AX
	SHLL    $23, AX
	JMP     scaled

small:
	INCL AX
	SHLL $21, AX

scaled:
	VMOVD AX, X14
	VMOVDQU 1(SI), X8
	VPSRLW $4, X8, X9
	VINSERTI128 $1, X9, Y8, Y8
	VPAND Y7, Y8, Y8
	VPSHUFB Y8, Y6, Y8
	VPSIGNB Y8, Y8, Y9
	ROWS4(next)

next:
	ADDQ $17, SI
	ADDQ $34, DI
	DECQ CX
	JMP  loop

done:
	MOVQ out+40(FP), DX
	HSUM8(Y10, X10, X1)
	VMOVSS X10, (DX)
	CMPQ R8, $1
	JLE  ret
	HSUM8(Y11, X11, X1)
	VMOVSS X11, 4(DX)
	CMPQ R8, $2
	JLE  ret
	HSUM8(Y12, X12, X1)
	VMOVSS X12, 8(DX)
	CMPQ R8, $3
	JLE  ret
	HSUM8(Y13, X13, X1)
	VMOVSS X13, 12(DX)

ret:
	VZEROUPPER
	RET
