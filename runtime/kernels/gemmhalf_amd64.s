//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Tile kernels of F16 and BF16 weight rows times float32 activation rows
// (gemmhalf.go). A kernel keeps one vector of sums per (weight row r,
// activation row c) in a register for the whole row: each step converts a
// vector of each of the four weight rows once and multiplies it into every
// activation row of the tile. The four-row and one-row kernels of an
// instruction set do the same operations in the same order for each pair,
// so a result does not depend on the tile that computed it.

// Arguments of every kernel:
// func(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
// SI, R9 (bytes), R10 = 3·R9: the weight rows; DI, R11 (bytes), R12 = 3·R11:
// the activation rows; CX: steps; DX, R8 (bytes): the output.
#define HPROLOGUE(SHIFT) \
	MOVQ w+0(FP), SI \
	MOVQ wstride+8(FP), R9 \
	SHLQ $1, R9 \
	LEAQ (R9)(R9*2), R10 \
	MOVQ x+16(FP), DI \
	MOVQ cols+24(FP), CX \
	MOVQ CX, R11 \
	SHLQ $2, R11 \
	LEAQ (R11)(R11*2), R12 \
	SHRQ $SHIFT, CX \
	MOVQ out+32(FP), DX \
	MOVQ ostride+40(FP), R8 \
	SHLQ $2, R8

// ---- AVX-512: 16 floats a step, sums of row r, column c in Z(4r+c) ----

// Weight loads of 16 values of row at M into Z.
#define ZF16(M, Z) VCVTPH2PS M, Z
#define ZBF16(M, Z) \
	VPMOVZXWD M, Z \
	VPSLLD $16, Z, Z

#define ZZERO4(A, B, C, D) \
	VPXORD A, A, A \
	VPXORD B, B, B \
	VPXORD C, C, C \
	VPXORD D, D, D

// ZROW4 adds weight vector W times the activation vectors Z20–Z23 to A–D.
#define ZROW4(W, A, B, C, D) \
	VFMADD231PS Z20, W, A \
	VFMADD231PS Z21, W, B \
	VFMADD231PS Z22, W, C \
	VFMADD231PS Z23, W, D

// ZFOLD adds the high half of Z into its low half Y.
#define ZFOLD(Z, Y) \
	VEXTRACTF64X4 $1, Z, Y16 \
	VADDPS Y16, Y, Y

#define HKERNEL4Z(LD, LOOP) \
	HPROLOGUE(4) \
	ZZERO4(Z0, Z1, Z2, Z3) \
	ZZERO4(Z4, Z5, Z6, Z7) \
	ZZERO4(Z8, Z9, Z10, Z11) \
	ZZERO4(Z12, Z13, Z14, Z15) \
LOOP: \
	VMOVUPS (DI), Z20 \
	VMOVUPS (DI)(R11*1), Z21 \
	VMOVUPS (DI)(R11*2), Z22 \
	VMOVUPS (DI)(R12*1), Z23 \
	LD((SI), Z16) \
	LD((SI)(R9*1), Z17) \
	LD((SI)(R9*2), Z18) \
	LD((SI)(R10*1), Z19) \
	ZROW4(Z16, Z0, Z1, Z2, Z3) \
	ZROW4(Z17, Z4, Z5, Z6, Z7) \
	ZROW4(Z18, Z8, Z9, Z10, Z11) \
	ZROW4(Z19, Z12, Z13, Z14, Z15) \
	ADDQ $32, SI \
	ADDQ $64, DI \
	DECQ CX \
	JNZ  LOOP \
	ZFOLD(Z0, Y0) \
	ZFOLD(Z1, Y1) \
	ZFOLD(Z2, Y2) \
	ZFOLD(Z3, Y3) \
	ZFOLD(Z4, Y4) \
	ZFOLD(Z5, Y5) \
	ZFOLD(Z6, Y6) \
	ZFOLD(Z7, Y7) \
	ZFOLD(Z8, Y8) \
	ZFOLD(Z9, Y9) \
	ZFOLD(Z10, Y10) \
	ZFOLD(Z11, Y11) \
	ZFOLD(Z12, Y12) \
	ZFOLD(Z13, Y13) \
	ZFOLD(Z14, Y14) \
	ZFOLD(Z15, Y15) \
	STORE16

#define HKERNEL1Z(LD, LOOP) \
	HPROLOGUE(4) \
	ZZERO4(Z0, Z1, Z2, Z3) \
LOOP: \
	VMOVUPS (DI), Z20 \
	LD((SI), Z16) \
	LD((SI)(R9*1), Z17) \
	LD((SI)(R9*2), Z18) \
	LD((SI)(R10*1), Z19) \
	VFMADD231PS Z20, Z16, Z0 \
	VFMADD231PS Z20, Z17, Z1 \
	VFMADD231PS Z20, Z18, Z2 \
	VFMADD231PS Z20, Z19, Z3 \
	ADDQ $32, SI \
	ADDQ $64, DI \
	DECQ CX \
	JNZ  LOOP \
	ZFOLD(Z0, Y0) \
	ZFOLD(Z1, Y1) \
	ZFOLD(Z2, Y2) \
	ZFOLD(Z3, Y3) \
	STORE4

// func halfGemm4F16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm4F16AVX512(SB), NOSPLIT, $0-48
	HKERNEL4Z(ZF16, h4f16z)

// func halfGemm1F16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm1F16AVX512(SB), NOSPLIT, $0-48
	HKERNEL1Z(ZF16, h1f16z)

// func halfGemm4BF16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm4BF16AVX512(SB), NOSPLIT, $0-48
	HKERNEL4Z(ZBF16, h4bf16z)

// func halfGemm1BF16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm1BF16AVX512(SB), NOSPLIT, $0-48
	HKERNEL1Z(ZBF16, h1bf16z)

// ---- AVX2: 8 floats a step, two activation rows, sums of row r, column c
// in Y(2r+c) ----

#define YF16(M, Y) VCVTPH2PS M, Y
#define YBF16(M, Y) \
	VPMOVZXWD M, Y \
	VPSLLD $16, Y, Y

#define YZERO4(A, B, C, D) \
	VXORPS A, A, A \
	VXORPS B, B, B \
	VXORPS C, C, C \
	VXORPS D, D, D

#define HKERNEL2Y(LD, LOOP) \
	HPROLOGUE(3) \
	YZERO4(Y0, Y1, Y2, Y3) \
	YZERO4(Y4, Y5, Y6, Y7) \
LOOP: \
	VMOVUPS (DI), Y12 \
	VMOVUPS (DI)(R11*1), Y13 \
	LD((SI), Y8) \
	LD((SI)(R9*1), Y9) \
	LD((SI)(R9*2), Y10) \
	LD((SI)(R10*1), Y11) \
	VFMADD231PS Y12, Y8, Y0 \
	VFMADD231PS Y13, Y8, Y1 \
	VFMADD231PS Y12, Y9, Y2 \
	VFMADD231PS Y13, Y9, Y3 \
	VFMADD231PS Y12, Y10, Y4 \
	VFMADD231PS Y13, Y10, Y5 \
	VFMADD231PS Y12, Y11, Y6 \
	VFMADD231PS Y13, Y11, Y7 \
	ADDQ $16, SI \
	ADDQ $32, DI \
	DECQ CX \
	JNZ  LOOP \
	HSUM4(Y0, Y2, Y4, Y6, X0, X2, (DX)) \
	HSUM4(Y1, Y3, Y5, Y7, X1, X3, (DX)(R8*1)) \
	VZEROUPPER \
	RET

#define HKERNEL1Y(LD, LOOP) \
	HPROLOGUE(3) \
	YZERO4(Y0, Y2, Y4, Y6) \
LOOP: \
	VMOVUPS (DI), Y12 \
	LD((SI), Y8) \
	LD((SI)(R9*1), Y9) \
	LD((SI)(R9*2), Y10) \
	LD((SI)(R10*1), Y11) \
	VFMADD231PS Y12, Y8, Y0 \
	VFMADD231PS Y12, Y9, Y2 \
	VFMADD231PS Y12, Y10, Y4 \
	VFMADD231PS Y12, Y11, Y6 \
	ADDQ $16, SI \
	ADDQ $32, DI \
	DECQ CX \
	JNZ  LOOP \
	HSUM4(Y0, Y2, Y4, Y6, X0, X2, (DX)) \
	VZEROUPPER \
	RET

// func halfGemm2F16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm2F16AVX2(SB), NOSPLIT, $0-48
	HKERNEL2Y(YF16, h2f16y)

// func halfGemm1F16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm1F16AVX2(SB), NOSPLIT, $0-48
	HKERNEL1Y(YF16, h1f16y)

// func halfGemm2BF16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm2BF16AVX2(SB), NOSPLIT, $0-48
	HKERNEL2Y(YBF16, h2bf16y)

// func halfGemm1BF16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm1BF16AVX2(SB), NOSPLIT, $0-48
	HKERNEL1Y(YBF16, h1bf16y)
