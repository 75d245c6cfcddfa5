//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// DOTARGS loads func(a []T, b []float32) float32's slices into SI (a), CX
// (length) and DI (b), and clears the accumulators Y0–Y3.
#define DOTARGS \
	MOVQ a_base+0(FP), SI \
	MOVQ a_len+8(FP), CX \
	MOVQ b_base+24(FP), DI \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3

// DOTSUM adds the accumulators Y0–Y3 into X0.
#define DOTSUM \
	VADDPS Y1, Y0, Y0 \
	VADDPS Y3, Y2, Y2 \
	VADDPS Y2, Y0, Y0 \
	HSUM8(Y0, X0, X1) \
	VZEROUPPER

// AXPYARGS loads func(alpha float32, x []T, y []float32)'s arguments:
// alpha in every lane of Y0, x in SI, its length in CX, y in DI.
#define AXPYARGS \
	VBROADCASTSS alpha+0(FP), Y0 \
	MOVQ x_base+8(FP), SI \
	MOVQ x_len+16(FP), CX \
	MOVQ y_base+32(FP), DI

// CONVARGS loads func(dst []T, src []U)'s arguments: dst in DI, src in SI,
// the length in CX.
#define CONVARGS \
	MOVQ dst_base+0(FP), DI \
	MOVQ src_base+24(FP), SI \
	MOVQ src_len+32(FP), CX


// func dotAVX2(a, b []float32) float32
// len(a) is a multiple of 8; b is at least as long.
TEXT ·dotAVX2(SB), NOSPLIT, $0-52
	DOTARGS

dot32:
	CMPQ CX, $32
	JL   dot8
	VMOVUPS (SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  dot32

dot8:
	CMPQ CX, $8
	JL   dotdone
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  dot8

dotdone:
	DOTSUM
	MOVSS X0, ret+48(FP)
	RET

// func dotLanesAVX2(a, b []float32) float32
// len(a) is a multiple of 8; b is at least as long. One accumulator of
// eight lanes, added by HSUM8: the order of DotLanes.
TEXT ·dotLanesAVX2(SB), NOSPLIT, $0-52
	DOTARGS

lanes8:
	CMPQ CX, $8
	JL   lanesdone
	VMOVUPS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  lanes8

lanesdone:
	HSUM8(Y0, X0, X1)
	VZEROUPPER
	MOVSS X0, ret+48(FP)
	RET

// func dotF16AVX2(a []uint16, b []float32) float32
TEXT ·dotF16AVX2(SB), NOSPLIT, $0-52
	DOTARGS

h32:
	CMPQ CX, $32
	JL   h8
	VCVTPH2PS (SI), Y4
	VCVTPH2PS 16(SI), Y5
	VCVTPH2PS 32(SI), Y6
	VCVTPH2PS 48(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ $64, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  h32

h8:
	CMPQ CX, $8
	JL   hdone
	VCVTPH2PS (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $16, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  h8

hdone:
	DOTSUM
	MOVSS X0, ret+48(FP)
	RET

// func dotBF16AVX2(a []uint16, b []float32) float32
TEXT ·dotBF16AVX2(SB), NOSPLIT, $0-52
	DOTARGS

b16:
	CMPQ CX, $16
	JL   b8
	VPMOVZXWD (SI), Y4
	VPMOVZXWD 16(SI), Y5
	VPSLLD $16, Y4, Y4
	VPSLLD $16, Y5, Y5
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JMP  b16

b8:
	CMPQ CX, $8
	JL   bdone
	VPMOVZXWD (SI), Y4
	VPSLLD $16, Y4, Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ $16, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  b8

bdone:
	DOTSUM
	MOVSS X0, ret+48(FP)
	RET

// func axpyAVX2(alpha float32, x, y []float32)
TEXT ·axpyAVX2(SB), NOSPLIT, $0-56
	AXPYARGS

a32:
	CMPQ CX, $32
	JL   a8
	VMOVUPS (DI), Y1
	VMOVUPS 32(DI), Y2
	VMOVUPS 64(DI), Y3
	VMOVUPS 96(DI), Y4
	VFMADD231PS (SI), Y0, Y1
	VFMADD231PS 32(SI), Y0, Y2
	VFMADD231PS 64(SI), Y0, Y3
	VFMADD231PS 96(SI), Y0, Y4
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	VMOVUPS Y3, 64(DI)
	VMOVUPS Y4, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  a32

a8:
	CMPQ CX, $8
	JL   adone
	VMOVUPS (DI), Y1
	VFMADD231PS (SI), Y0, Y1
	VMOVUPS Y1, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  a8

adone:
	VZEROUPPER
	RET

// func axpyF16AVX2(alpha float32, x []uint16, y []float32)
TEXT ·axpyF16AVX2(SB), NOSPLIT, $0-56
	AXPYARGS

ah16:
	CMPQ CX, $16
	JL   ah8
	VCVTPH2PS (SI), Y5
	VCVTPH2PS 16(SI), Y6
	VMOVUPS (DI), Y1
	VMOVUPS 32(DI), Y2
	VFMADD231PS Y5, Y0, Y1
	VFMADD231PS Y6, Y0, Y2
	VMOVUPS Y1, (DI)
	VMOVUPS Y2, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JMP  ah16

ah8:
	CMPQ CX, $8
	JL   ahdone
	VCVTPH2PS (SI), Y5
	VMOVUPS (DI), Y1
	VFMADD231PS Y5, Y0, Y1
	VMOVUPS Y1, (DI)
	ADDQ $16, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  ah8

ahdone:
	VZEROUPPER
	RET

// func f16ToF32AVX2(dst []float32, src []uint16)
TEXT ·f16ToF32AVX2(SB), NOSPLIT, $0-48
	CONVARGS

c8:
	CMPQ CX, $8
	JL   cdone
	VCVTPH2PS (SI), Y0
	VMOVUPS Y0, (DI)
	ADDQ $16, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  c8

cdone:
	VZEROUPPER
	RET

// func f32ToF16AVX2(dst []uint16, src []float32)
TEXT ·f32ToF16AVX2(SB), NOSPLIT, $0-48
	CONVARGS

e8:
	CMPQ CX, $8
	JL   edone
	VMOVUPS (SI), Y0
	VCVTPS2PH $0, Y0, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $8, CX
	JMP  e8

edone:
	VZEROUPPER
	RET
