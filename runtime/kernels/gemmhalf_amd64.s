//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Tile kernels of F16 and BF16 weight rows times float32 activation rows
// (gemmhalf.go). A kernel keeps one vector of sums per (weight row r,
// activation row c) in a register for the whole row: each step converts a
// vector of each of the four weight rows once and multiplies it into every
// activation row of the tile. The tile and one-row kernels of an
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

// DECARGS loads the arguments of the decode kernels (see below):
// func(w *uint16, x *float32, cols, rows int, out *float32, ahead int).
#define DECARGS \
	MOVQ w+0(FP), SI \
	MOVQ x+8(FP), R8 \
	MOVQ cols+16(FP), R9 \
	MOVQ rows+24(FP), DX \
	MOVQ out+32(FP), R10 \
	MOVQ ahead+40(FP), R11

// ---- AVX-512: 16 floats a step ----

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

// ZFOLD adds the high half of Z into its low half Y.
#define ZFOLD(Z, Y) \
	VEXTRACTF64X4 $1, Z, Y16 \
	VADDPS Y16, Y, Y

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

// func halfGemm1F16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm1F16AVX512(SB), NOSPLIT, $0-48
	HKERNEL1Z(ZF16, h1f16z)

// func halfGemm1BF16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm1BF16AVX512(SB), NOSPLIT, $0-48
	HKERNEL1Z(ZBF16, h1bf16z)

// ZCOL adds the activation vector X times the weight vectors Z24–Z27 to
// the sums of column C (A–D).
#define ZCOL(X, A, B, C, D) \
	VFMADD231PS X, Z24, A \
	VFMADD231PS X, Z25, B \
	VFMADD231PS X, Z26, C \
	VFMADD231PS X, Z27, D

// ZFOLDT adds the high half of Z into its low half Y, with T as scratch.
#define ZFOLDT(Z, Y, T) \
	VEXTRACTF64X4 $1, Z, T \
	VADDPS T, Y, Y

// HKERNEL6Z multiplies four weight rows into six activation rows: 24
// sums (row r, activation row c in Z(4c+r)), the four converted weight
// vectors in Z24–Z27, each activation vector loaded once per step; the
// weight rows advance WSTEP bytes a step. It follows HPROLOGUE. The sums of columns 4 and 5 move to Y0–Y7 to be stored, since
// the horizontal adds have no encoding for Y16–Y31.
#define HKERNEL6Z(LD, LOOP, WSTEP) \
	LEAQ (R11)(R11*4), R13 \
	ZZERO4(Z0, Z1, Z2, Z3) \
	ZZERO4(Z4, Z5, Z6, Z7) \
	ZZERO4(Z8, Z9, Z10, Z11) \
	ZZERO4(Z12, Z13, Z14, Z15) \
	ZZERO4(Z16, Z17, Z18, Z19) \
	ZZERO4(Z20, Z21, Z22, Z23) \
LOOP: \
	LD((SI), Z24) \
	LD((SI)(R9*1), Z25) \
	LD((SI)(R9*2), Z26) \
	LD((SI)(R10*1), Z27) \
	VMOVUPS (DI), Z28 \
	VMOVUPS (DI)(R11*1), Z29 \
	ZCOL(Z28, Z0, Z1, Z2, Z3) \
	VMOVUPS (DI)(R11*2), Z30 \
	ZCOL(Z29, Z4, Z5, Z6, Z7) \
	VMOVUPS (DI)(R12*1), Z31 \
	ZCOL(Z30, Z8, Z9, Z10, Z11) \
	VMOVUPS (DI)(R11*4), Z28 \
	ZCOL(Z31, Z12, Z13, Z14, Z15) \
	VMOVUPS (DI)(R13*1), Z29 \
	ZCOL(Z28, Z16, Z17, Z18, Z19) \
	ZCOL(Z29, Z20, Z21, Z22, Z23) \
	ADDQ $WSTEP, SI \
	ADDQ $64, DI \
	DECQ CX \
	JNZ  LOOP \
	ZFOLDT(Z0, Y0, Y31) \
	ZFOLDT(Z1, Y1, Y31) \
	ZFOLDT(Z2, Y2, Y31) \
	ZFOLDT(Z3, Y3, Y31) \
	ZFOLDT(Z4, Y4, Y31) \
	ZFOLDT(Z5, Y5, Y31) \
	ZFOLDT(Z6, Y6, Y31) \
	ZFOLDT(Z7, Y7, Y31) \
	ZFOLDT(Z8, Y8, Y31) \
	ZFOLDT(Z9, Y9, Y31) \
	ZFOLDT(Z10, Y10, Y31) \
	ZFOLDT(Z11, Y11, Y31) \
	ZFOLDT(Z12, Y12, Y31) \
	ZFOLDT(Z13, Y13, Y31) \
	ZFOLDT(Z14, Y14, Y31) \
	ZFOLDT(Z15, Y15, Y31) \
	ZFOLDT(Z16, Y16, Y31) \
	ZFOLDT(Z17, Y17, Y31) \
	ZFOLDT(Z18, Y18, Y31) \
	ZFOLDT(Z19, Y19, Y31) \
	ZFOLDT(Z20, Y20, Y31) \
	ZFOLDT(Z21, Y21, Y31) \
	ZFOLDT(Z22, Y22, Y31) \
	ZFOLDT(Z23, Y23, Y31) \
	LEAQ (R8)(R8*2), R11 \
	HSUM4(Y0, Y1, Y2, Y3, X0, X1, (DX)) \
	HSUM4(Y4, Y5, Y6, Y7, X4, X5, (DX)(R8*1)) \
	HSUM4(Y8, Y9, Y10, Y11, X8, X9, (DX)(R8*2)) \
	HSUM4(Y12, Y13, Y14, Y15, X12, X13, (DX)(R11*1)) \
	VMOVAPS Y16, Y0 \
	VMOVAPS Y17, Y1 \
	VMOVAPS Y18, Y2 \
	VMOVAPS Y19, Y3 \
	VMOVAPS Y20, Y4 \
	VMOVAPS Y21, Y5 \
	VMOVAPS Y22, Y6 \
	VMOVAPS Y23, Y7 \
	HSUM4(Y0, Y1, Y2, Y3, X0, X1, (DX)(R8*4)) \
	LEAQ (R8)(R8*4), R11 \
	HSUM4(Y4, Y5, Y6, Y7, X4, X5, (DX)(R11*1)) \
	VZEROUPPER \
	RET

// func halfGemm6F16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm6F16AVX512(SB), NOSPLIT, $0-48
	HPROLOGUE(4)
	HKERNEL6Z(ZF16, h6f16z, 32)

// func halfGemm6BF16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)
TEXT ·halfGemm6BF16AVX512(SB), NOSPLIT, $0-48
	HPROLOGUE(4)
	HKERNEL6Z(ZBF16, h6bf16z, 32)

// ZF32 loads 16 floats of a weight row already converted to float32.
#define ZF32(M, Z) VMOVUPS M, Z

// func halfGemm6F32AVX512(w *float32, wstride int, x *float32, cols int, out *float32, ostride int)
// is halfGemm6F16AVX512 on weight rows converted to float32 beforehand
// (wstride in floats): the same sums in the same order.
TEXT ·halfGemm6F32AVX512(SB), NOSPLIT, $0-48
	HPROLOGUE(4)
	SHLQ $1, R9
	LEAQ (R9)(R9*2), R10
	HKERNEL6Z(ZF32, h6f32z, 64)

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

// Decode kernels: func(w *uint16, x *float32, cols, rows int, out *float32, ahead int)
// set out[r] to the dot product of weight row r (rows consecutive rows of
// cols values at w, cols a multiple of 8) with x, for r < rows, with the
// operations of the dot product kernel of the format (dotF16AVX2,
// dotBF16AVX2) in its order, so the sums are the same. Every 64 bytes of
// weights they read, they ask for the line ahead bytes on in the L2 cache:
// one request per line, spread over the loop, keeps the stream from memory
// steady across rows and pages without bursts of requests. Registers: SI
// the weights, R8 x, R9 cols, DX rows left, R10 out, R11 ahead (DECARGS);
// per row DI x and CX the values left, sums in Y0–Y3.

// DECROW starts a row.
#define DECROW \
	MOVQ   R8, DI \
	MOVQ   R9, CX \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3

// DECSUM stores the row's sum (DOTSUM's order) and moves to the next
// output.
#define DECSUM \
	VADDPS Y1, Y0, Y0 \
	VADDPS Y3, Y2, Y2 \
	VADDPS Y2, Y0, Y0 \
	HSUM8(Y0, X0, X1) \
	MOVSS  X0, (R10) \
	ADDQ   $4, R10

// func halfDecodeF16AVX2(w *uint16, x *float32, cols, rows int, out *float32, ahead int)
TEXT ·halfDecodeF16AVX2(SB), NOSPLIT, $0-48
	DECARGS
	TESTQ DX, DX
	JLE   fdone

frow:
	DECROW

f32:
	CMPQ        CX, $32
	JL          f8
	PREFETCHT1  (SI)(R11*1)
	VCVTPH2PS   (SI), Y4
	VCVTPH2PS   16(SI), Y5
	VCVTPH2PS   32(SI), Y6
	VCVTPH2PS   48(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $64, SI
	ADDQ        $128, DI
	SUBQ        $32, CX
	JMP         f32

f8:
	CMPQ        CX, $8
	JL          fsum
	VCVTPH2PS   (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ        $16, SI
	ADDQ        $32, DI
	SUBQ        $8, CX
	JMP         f8

fsum:
	DECSUM
	DECQ DX
	JNZ  frow
	VZEROUPPER

fdone:
	RET

// func halfDecodeBF16AVX2(w *uint16, x *float32, cols, rows int, out *float32, ahead int)
// Steps of 32 values are two of dotBF16AVX2's steps of 16.
TEXT ·halfDecodeBF16AVX2(SB), NOSPLIT, $0-48
	DECARGS
	TESTQ DX, DX
	JLE   bdone

brow:
	DECROW

b32:
	CMPQ        CX, $32
	JL          b16
	PREFETCHT1  (SI)(R11*1)
	YBF16((SI), Y4)
	YBF16(16(SI), Y5)
	YBF16(32(SI), Y6)
	YBF16(48(SI), Y7)
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y0
	VFMADD231PS 96(DI), Y7, Y1
	ADDQ        $64, SI
	ADDQ        $128, DI
	SUBQ        $32, CX
	JMP         b32

b16:
	CMPQ        CX, $16
	JL          b8
	YBF16((SI), Y4)
	YBF16(16(SI), Y5)
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	ADDQ        $32, SI
	ADDQ        $64, DI
	SUBQ        $16, CX

b8:
	CMPQ        CX, $8
	JL          bsum
	YBF16((SI), Y4)
	VFMADD231PS (DI), Y4, Y0
	ADDQ        $16, SI
	ADDQ        $32, DI
	SUBQ        $8, CX
	JMP         b8

bsum:
	DECSUM
	DECQ DX
	JNZ  brow
	VZEROUPPER

bdone:
	RET
