//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// BIASKERNEL is the loop of a bias kernel: for each block k of 8 outputs
// at out, out[k] += Σ_g xsum[g]·b[k][g], one VFMADD per group in the order
// of the groups, with the 8 biases of (k, g) loaded into Y5 by LOAD(OFF)
// from OFF(SI) (SHIFT: log2 of the bytes of a block's group). Four blocks
// go together (four independent chains hide the latency of the
// multiply-adds), the rest one at a time, with the same operations per
// output.
#define BIASKERNEL(LOAD, SHIFT) \
	MOVQ b+0(FP), SI \
	MOVQ xsum+8(FP), DX \
	MOVQ groups+16(FP), CX \
	MOVQ nblk+24(FP), BX \
	MOVQ out+32(FP), DI \
	MOVQ CX, R11 \
	SHLQ $SHIFT, R11 \
	LEAQ (R11)(R11*2), R12 \
quad: \
	CMPQ BX, $4 \
	JLT  single \
	VMOVUPS (DI), Y0 \
	VMOVUPS 32(DI), Y1 \
	VMOVUPS 64(DI), Y2 \
	VMOVUPS 96(DI), Y3 \
	XORQ AX, AX \
qloop: \
	VBROADCASTSS (DX)(AX*4), Y4 \
	LOAD((SI)) \
	VFMADD231PS Y5, Y4, Y0 \
	LOAD((SI)(R11*1)) \
	VFMADD231PS Y5, Y4, Y1 \
	LOAD((SI)(R11*2)) \
	VFMADD231PS Y5, Y4, Y2 \
	LOAD((SI)(R12*1)) \
	VFMADD231PS Y5, Y4, Y3 \
	ADDQ $(1<<SHIFT), SI \
	INCQ AX \
	CMPQ AX, CX \
	JLT  qloop \
	VMOVUPS Y0, (DI) \
	VMOVUPS Y1, 32(DI) \
	VMOVUPS Y2, 64(DI) \
	VMOVUPS Y3, 96(DI) \
	ADDQ R12, SI \
	ADDQ $128, DI \
	SUBQ $4, BX \
	JMP  quad \
single: \
	TESTQ BX, BX \
	JZ    done \
	VMOVUPS (DI), Y0 \
	XORQ AX, AX \
sloop: \
	VBROADCASTSS (DX)(AX*4), Y4 \
	LOAD((SI)) \
	VFMADD231PS Y5, Y4, Y0 \
	ADDQ $(1<<SHIFT), SI \
	INCQ AX \
	CMPQ AX, CX \
	JLT  sloop \
	VMOVUPS Y0, (DI) \
	ADDQ $32, DI \
	DECQ BX \
	JMP  single \
done: \
	VZEROUPPER \
	RET

// LOADF32 loads 8 float32 biases.
#define LOADF32(M) VMOVUPS M, Y5

// LOADF16 loads 8 fp16 biases as float32.
#define LOADF16(M) VCVTPH2PS M, Y5

// func affineBiasAVX2(b, xsum *float32, groups, nblk int, out *float32)
TEXT ·affineBiasAVX2(SB), NOSPLIT, $0-40
	BIASKERNEL(LOADF32, 5)

// func affineBias16AVX2(b *uint16, xsum *float32, groups, nblk int, out *float32)
TEXT ·affineBias16AVX2(SB), NOSPLIT, $0-40
	BIASKERNEL(LOADF16, 4)

// func groupSumsAVX2(x *float32, groups, gsize int, out *float32)
// out[g] = the sum of the gsize floats of group g of x (gsize a multiple
// of 16), in two vectors of partial sums, then one horizontal sum.
TEXT ·groupSumsAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ groups+8(FP), CX
	MOVQ gsize+16(FP), BX
	MOVQ out+24(FP), DI
	SHRQ $4, BX

group:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ   BX, AX

gloop:
	VADDPS (SI), Y0, Y0
	VADDPS 32(SI), Y1, Y1
	ADDQ   $64, SI
	DECQ   AX
	JNZ    gloop
	VADDPS Y1, Y0, Y0
	HSUM8(Y0, X0, X1)
	VMOVSS X0, (DI)
	ADDQ   $4, DI
	DECQ   CX
	JNZ    group
	VZEROUPPER
	RET

// BROWS4 applies OP to the vectors at OFF of the four output rows at DI
// (R13: the bytes between rows, R14: three times that) and A..D in turn.
#define BROWS4(OP, OFF, A, B, C, D) \
	OP OFF(DI), A \
	OP OFF(DI)(R13*1), B \
	OP OFF(DI)(R13*2), C \
	OP OFF(DI)(R14*1), D

// BSTORE4 stores A..D at OFF of the four output rows at DI.
#define BSTORE4(OFF, A, B, C, D) \
	VMOVUPS A, OFF(DI) \
	VMOVUPS B, OFF(DI)(R13*1) \
	VMOVUPS C, OFF(DI)(R13*2) \
	VMOVUPS D, OFF(DI)(R14*1)

// BFMA4 adds the biases in V times the four group sums in Y10..Y13 to A..D.
#define BFMA4(V, A, B, C, D) \
	VFMADD231PS V, Y10, A \
	VFMADD231PS V, Y11, B \
	VFMADD231PS V, Y12, C \
	VFMADD231PS V, Y13, D

// BBCAST4 broadcasts the group sums at R10 of the four activation rows (R8:
// the bytes between rows, R9: three times that) into Y10..Y13.
#define BBCAST4 \
	VBROADCASTSS (R10), Y10 \
	VBROADCASTSS (R10)(R8*1), Y11 \
	VBROADCASTSS (R10)(R8*2), Y12 \
	VBROADCASTSS (R10)(R9*1), Y13

// func affineBias16x4AVX2(b *uint16, xsum *float32, groups, nblk int, out *float32, ostride int)
// affineBias16AVX2 for four activation rows at once: xsum holds their
// group sums one row after the other, out their outputs ostride floats
// apart. Each converted vector of biases serves the four rows, and two
// blocks go together (eight independent chains of multiply-adds), with
// the same operations per output as affineBias16AVX2.
TEXT ·affineBias16x4AVX2(SB), NOSPLIT, $0-48
	MOVQ b+0(FP), SI
	MOVQ xsum+8(FP), DX
	MOVQ groups+16(FP), CX
	MOVQ nblk+24(FP), BX
	MOVQ out+32(FP), DI
	MOVQ ostride+40(FP), R13
	SHLQ $2, R13
	LEAQ (R13)(R13*2), R14
	MOVQ CX, R8
	SHLQ $2, R8
	LEAQ (R8)(R8*2), R9
	MOVQ CX, R11
	SHLQ $4, R11

pair4:
	CMPQ BX, $2
	JLT  one4
	BROWS4(VMOVUPS, 0, Y0, Y1, Y2, Y3)
	BROWS4(VMOVUPS, 32, Y4, Y5, Y6, Y7)
	MOVQ DX, R10
	MOVQ CX, AX

ploop4:
	VCVTPH2PS (SI), Y8
	VCVTPH2PS (SI)(R11*1), Y9
	BBCAST4
	BFMA4(Y8, Y0, Y1, Y2, Y3)
	BFMA4(Y9, Y4, Y5, Y6, Y7)
	ADDQ      $16, SI
	ADDQ      $4, R10
	DECQ      AX
	JNZ       ploop4
	BSTORE4(0, Y0, Y1, Y2, Y3)
	BSTORE4(32, Y4, Y5, Y6, Y7)
	ADDQ      R11, SI
	ADDQ      $64, DI
	SUBQ      $2, BX
	JMP       pair4

one4:
	TESTQ BX, BX
	JZ    done4
	BROWS4(VMOVUPS, 0, Y0, Y1, Y2, Y3)
	MOVQ  DX, R10
	MOVQ  CX, AX

oloop4:
	VCVTPH2PS (SI), Y8
	BBCAST4
	BFMA4(Y8, Y0, Y1, Y2, Y3)
	ADDQ      $16, SI
	ADDQ      $4, R10
	DECQ      AX
	JNZ       oloop4
	BSTORE4(0, Y0, Y1, Y2, Y3)

done4:
	VZEROUPPER
	RET
