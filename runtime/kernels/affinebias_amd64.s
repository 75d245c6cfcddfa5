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

// func prefetchT1(p unsafe.Pointer, n int)
// Asks for the n bytes at p in the L2 cache, one 64-byte line at a time,
// without waiting for them.
TEXT ·prefetchT1(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	ADDQ $63, CX
	SHRQ $6, CX
	JZ   pdone

ploop:
	PREFETCHT1 (SI)
	ADDQ $64, SI
	DECQ CX
	JNZ  ploop

pdone:
	RET
