//go:build !noasm

#include "textflag.h"

// Attention kernels over a KV cache block (attn.go), AVX2 + FMA + F16C.
// The Go wrappers pass whole vectors (lengths that are multiples of 8).

// SCOREARGS loads func(dst, q *float32, k *T, n, hd, stride int)'s
// arguments; ES is the key element size.
#define SCOREARGS(ES) \
	MOVQ dst+0(FP), DI \
	MOVQ k+16(FP), DX \
	MOVQ n+24(FP), CX \
	MOVQ hd+32(FP), R8 \
	MOVQ stride+40(FP), R9 \
	IMULQ $ES, R9

// SCORES32 computes 32 scores (Y0–Y3 for even dimensions, Y8–Y11 for odd
// ones, added at the end) with LD loading 8 keys, offsets O1–O3 the next
// three vectors of a key row.
#define SCORES32(LD, O1, O2, O3, PAIR, ONE, SUM) \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3 \
	VXORPS Y8, Y8, Y8 \
	VXORPS Y9, Y9, Y9 \
	VXORPS Y10, Y10, Y10 \
	VXORPS Y11, Y11, Y11 \
	MOVQ q+8(FP), SI \
	MOVQ DX, R11 \
	MOVQ R8, BX \
PAIR: \
	CMPQ BX, $2 \
	JL   ONE \
	VBROADCASTSS (SI), Y4 \
	VBROADCASTSS 4(SI), Y12 \
	LD (R11), Y5 \
	LD O1(R11), Y6 \
	LD O2(R11), Y7 \
	VFMADD231PS Y5, Y4, Y0 \
	VFMADD231PS Y6, Y4, Y1 \
	VFMADD231PS Y7, Y4, Y2 \
	LD O3(R11), Y5 \
	VFMADD231PS Y5, Y4, Y3 \
	LD (R11)(R9*1), Y13 \
	LD O1(R11)(R9*1), Y14 \
	LD O2(R11)(R9*1), Y15 \
	VFMADD231PS Y13, Y12, Y8 \
	VFMADD231PS Y14, Y12, Y9 \
	VFMADD231PS Y15, Y12, Y10 \
	LD O3(R11)(R9*1), Y13 \
	VFMADD231PS Y13, Y12, Y11 \
	ADDQ $8, SI \
	LEAQ (R11)(R9*2), R11 \
	SUBQ $2, BX \
	JMP  PAIR \
ONE: \
	TESTQ BX, BX \
	JZ   SUM \
	VBROADCASTSS (SI), Y4 \
	LD (R11), Y5 \
	LD O1(R11), Y6 \
	LD O2(R11), Y7 \
	VFMADD231PS Y5, Y4, Y0 \
	VFMADD231PS Y6, Y4, Y1 \
	VFMADD231PS Y7, Y4, Y2 \
	LD O3(R11), Y5 \
	VFMADD231PS Y5, Y4, Y3 \
SUM: \
	VADDPS Y8, Y0, Y0 \
	VADDPS Y9, Y1, Y1 \
	VADDPS Y10, Y2, Y2 \
	VADDPS Y11, Y3, Y3 \
	VMOVUPS Y0, (DI) \
	VMOVUPS Y1, 32(DI) \
	VMOVUPS Y2, 64(DI) \
	VMOVUPS Y3, 96(DI)

// SCORES8 computes 8 scores the same way, in Y0 and Y8.
#define SCORES8(LD, PAIR, ONE, SUM) \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y8, Y8, Y8 \
	MOVQ q+8(FP), SI \
	MOVQ DX, R11 \
	MOVQ R8, BX \
PAIR: \
	CMPQ BX, $2 \
	JL   ONE \
	VBROADCASTSS (SI), Y4 \
	VBROADCASTSS 4(SI), Y12 \
	LD (R11), Y5 \
	LD (R11)(R9*1), Y13 \
	VFMADD231PS Y5, Y4, Y0 \
	VFMADD231PS Y13, Y12, Y8 \
	ADDQ $8, SI \
	LEAQ (R11)(R9*2), R11 \
	SUBQ $2, BX \
	JMP  PAIR \
ONE: \
	TESTQ BX, BX \
	JZ   SUM \
	VBROADCASTSS (SI), Y4 \
	LD (R11), Y5 \
	VFMADD231PS Y5, Y4, Y0 \
SUM: \
	VADDPS Y8, Y0, Y0 \
	VMOVUPS Y0, (DI)

// SCORES is a whole score kernel for keys of ES bytes loaded by LD.
#define SCORES(LD, ES, L32, P32, O32, S32, L8, P8, O8, S8, DONE) \
	SCOREARGS(ES) \
L32: \
	CMPQ CX, $32 \
	JL   L8 \
	SCORES32(LD, 8*ES, 16*ES, 24*ES, P32, O32, S32) \
	ADDQ $128, DI \
	ADDQ $(32*ES), DX \
	SUBQ $32, CX \
	JMP  L32 \
L8: \
	CMPQ CX, $8 \
	JL   DONE \
	SCORES8(LD, P8, O8, S8) \
	ADDQ $32, DI \
	ADDQ $(8*ES), DX \
	SUBQ $8, CX \
	JMP  L8 \
DONE: \
	VZEROUPPER \
	RET

// ACCUM64 adds Σ_t p[t]·v[t] to 64 floats of dst at DI (values at DX, LD
// loading 8 of them, O1–O7 the offsets of the next vectors of a row).
#define ACCUM64(LD, O1, O2, O3, O4, O5, O6, O7, LOOP) \
	VMOVUPS (DI), Y0 \
	VMOVUPS 32(DI), Y1 \
	VMOVUPS 64(DI), Y2 \
	VMOVUPS 96(DI), Y3 \
	VMOVUPS 128(DI), Y4 \
	VMOVUPS 160(DI), Y5 \
	VMOVUPS 192(DI), Y6 \
	VMOVUPS 224(DI), Y7 \
	MOVQ p+8(FP), SI \
	MOVQ DX, R11 \
	MOVQ R8, BX \
LOOP: \
	VBROADCASTSS (SI), Y8 \
	LD (R11), Y9 \
	LD O1(R11), Y10 \
	LD O2(R11), Y11 \
	LD O3(R11), Y12 \
	VFMADD231PS Y9, Y8, Y0 \
	VFMADD231PS Y10, Y8, Y1 \
	VFMADD231PS Y11, Y8, Y2 \
	VFMADD231PS Y12, Y8, Y3 \
	LD O4(R11), Y9 \
	LD O5(R11), Y10 \
	LD O6(R11), Y11 \
	LD O7(R11), Y12 \
	VFMADD231PS Y9, Y8, Y4 \
	VFMADD231PS Y10, Y8, Y5 \
	VFMADD231PS Y11, Y8, Y6 \
	VFMADD231PS Y12, Y8, Y7 \
	ADDQ $4, SI \
	ADDQ R9, R11 \
	DECQ BX \
	JNZ  LOOP \
	VMOVUPS Y0, (DI) \
	VMOVUPS Y1, 32(DI) \
	VMOVUPS Y2, 64(DI) \
	VMOVUPS Y3, 96(DI) \
	VMOVUPS Y4, 128(DI) \
	VMOVUPS Y5, 160(DI) \
	VMOVUPS Y6, 192(DI) \
	VMOVUPS Y7, 224(DI)

// ACCUM8 is ACCUM64 for 8 floats.
#define ACCUM8(LD, LOOP) \
	VMOVUPS (DI), Y0 \
	MOVQ p+8(FP), SI \
	MOVQ DX, R11 \
	MOVQ R8, BX \
LOOP: \
	VBROADCASTSS (SI), Y8 \
	LD (R11), Y9 \
	VFMADD231PS Y9, Y8, Y0 \
	ADDQ $4, SI \
	ADDQ R9, R11 \
	DECQ BX \
	JNZ  LOOP \
	VMOVUPS Y0, (DI)

// ACCUM is a whole accumulation kernel for values of ES bytes loaded by LD:
// func(dst, p *float32, v *T, n, m, stride int), m ≥ 1.
#define ACCUM(LD, ES, L64, T64, L8, T8, DONE) \
	SCOREARGS(ES) \
L64: \
	CMPQ CX, $64 \
	JL   L8 \
	ACCUM64(LD, 8*ES, 16*ES, 24*ES, 32*ES, 40*ES, 48*ES, 56*ES, T64) \
	ADDQ $256, DI \
	ADDQ $(64*ES), DX \
	SUBQ $64, CX \
	JMP  L64 \
L8: \
	CMPQ CX, $8 \
	JL   DONE \
	ACCUM8(LD, T8) \
	ADDQ $32, DI \
	ADDQ $(8*ES), DX \
	SUBQ $8, CX \
	JMP  L8 \
DONE: \
	VZEROUPPER \
	RET

// func scoresF16AVX2(dst, q *float32, k *uint16, n, hd, stride int)
TEXT ·scoresF16AVX2(SB), NOSPLIT, $0-48
	SCORES(VCVTPH2PS, 2, h32, h32p, h32o, h32s, h8, h8p, h8o, h8s, hdone)

// func scoresF32AVX2(dst, q *float32, k *float32, n, hd, stride int)
TEXT ·scoresF32AVX2(SB), NOSPLIT, $0-48
	SCORES(VMOVUPS, 4, f32, f32p, f32o, f32s, f8, f8p, f8o, f8s, fdone)

// func accumF16AVX2(dst, p *float32, v *uint16, n, m, stride int)
TEXT ·accumF16AVX2(SB), NOSPLIT, $0-48
	ACCUM(VCVTPH2PS, 2, ah64, ah64t, ah8, ah8t, ahdone)

// func accumF32AVX2(dst, p *float32, v *float32, n, m, stride int)
TEXT ·accumF32AVX2(SB), NOSPLIT, $0-48
	ACCUM(VMOVUPS, 4, af64, af64t, af8, af8t, afdone)

// func axpyHalfAVX2(alpha float32, x, y *uint16, n int)
// y = half(y + alpha·x) for n (a multiple of 8) halves.
TEXT ·axpyHalfAVX2(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+0(FP), Y0
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	MOVQ n+24(FP), CX

xh16:
	CMPQ CX, $16
	JL   xh8
	VCVTPH2PS (DI), Y1
	VCVTPH2PS 16(DI), Y2
	VCVTPH2PS (SI), Y3
	VCVTPH2PS 16(SI), Y4
	VFMADD231PS Y3, Y0, Y1
	VFMADD231PS Y4, Y0, Y2
	VCVTPS2PH $0, Y1, (DI)
	VCVTPS2PH $0, Y2, 16(DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JMP  xh16

xh8:
	CMPQ CX, $8
	JL   xhdone
	VCVTPH2PS (DI), Y1
	VCVTPH2PS (SI), Y3
	VFMADD231PS Y3, Y0, Y1
	VCVTPS2PH $0, Y1, (DI)

xhdone:
	VZEROUPPER
	RET

// func scaleHalfAVX2(y *uint16, s float32, n int)
// y = half(y·s) for n (a multiple of 8) halves.
TEXT ·scaleHalfAVX2(SB), NOSPLIT, $0-24
	MOVQ y+0(FP), DI
	VBROADCASTSS s+8(FP), Y0
	MOVQ n+16(FP), CX

sh8:
	CMPQ CX, $8
	JL   shdone
	VCVTPH2PS (DI), Y1
	VMULPS Y0, Y1, Y1
	VCVTPS2PH $0, Y1, (DI)
	ADDQ $16, DI
	SUBQ $8, CX
	JMP  sh8

shdone:
	VZEROUPPER
	RET

// HSTEP adds P·(8 values at M) to the half-rounded accumulator A: an FMA,
// then a round trip through half precision (XA is A's low half).
#define HSTEP(M, A, XA) \
	VCVTPH2PS M, Y9 \
	VFMADD231PS Y9, Y8, A \
	VCVTPS2PH $0, A, XA \
	VCVTPH2PS XA, A

// func accumHalfAVX2(acc *uint16, p *float32, v *uint16, n, m, stride int)
// For t < m: acc = half(acc + p[t]·v[t*stride:]), n (a multiple of 8) halves.
TEXT ·accumHalfAVX2(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	MOVQ v+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ m+32(FP), R8
	MOVQ stride+40(FP), R9
	SHLQ $1, R9

ach64:
	CMPQ CX, $64
	JL   ach8
	VCVTPH2PS (DI), Y0
	VCVTPH2PS 16(DI), Y1
	VCVTPH2PS 32(DI), Y2
	VCVTPH2PS 48(DI), Y3
	VCVTPH2PS 64(DI), Y4
	VCVTPH2PS 80(DI), Y5
	VCVTPH2PS 96(DI), Y6
	VCVTPH2PS 112(DI), Y7
	MOVQ p+8(FP), SI
	MOVQ DX, R11
	MOVQ R8, BX

ach64t:
	VBROADCASTSS (SI), Y8
	HSTEP((R11), Y0, X0)
	HSTEP(16(R11), Y1, X1)
	HSTEP(32(R11), Y2, X2)
	HSTEP(48(R11), Y3, X3)
	HSTEP(64(R11), Y4, X4)
	HSTEP(80(R11), Y5, X5)
	HSTEP(96(R11), Y6, X6)
	HSTEP(112(R11), Y7, X7)
	ADDQ $4, SI
	ADDQ R9, R11
	DECQ BX
	JNZ  ach64t
	VCVTPS2PH $0, Y0, (DI)
	VCVTPS2PH $0, Y1, 16(DI)
	VCVTPS2PH $0, Y2, 32(DI)
	VCVTPS2PH $0, Y3, 48(DI)
	VCVTPS2PH $0, Y4, 64(DI)
	VCVTPS2PH $0, Y5, 80(DI)
	VCVTPS2PH $0, Y6, 96(DI)
	VCVTPS2PH $0, Y7, 112(DI)
	ADDQ $128, DI
	ADDQ $128, DX
	SUBQ $64, CX
	JMP  ach64

ach8:
	CMPQ CX, $8
	JL   achdone
	VCVTPH2PS (DI), Y0
	MOVQ p+8(FP), SI
	MOVQ DX, R11
	MOVQ R8, BX

ach8t:
	VBROADCASTSS (SI), Y8
	HSTEP((R11), Y0, X0)
	ADDQ $4, SI
	ADDQ R9, R11
	DECQ BX
	JNZ  ach8t
	VCVTPS2PH $0, Y0, (DI)
	ADDQ $16, DI
	ADDQ $16, DX
	SUBQ $8, CX
	JMP  ach8

achdone:
	VZEROUPPER
	RET

// func scoresF16SeqAVX2(dst, q *float32, k *uint16, n, hd, stride int)
// The scores of ScoresF16Seq: each one chain of fused multiply-adds in
// order of the dimensions, 64 keys at a time in eight independent chains
// (Y0–Y7), then 32 in four, then 8.
TEXT ·scoresF16SeqAVX2(SB), NOSPLIT, $0-48
	SCOREARGS(2)

seq64:
	CMPQ CX, $64
	JL   seq32
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	MOVQ q+8(FP), SI
	MOVQ DX, R11
	MOVQ R8, BX

seq64d:
	TESTQ BX, BX
	JZ   seq64s
	VBROADCASTSS (SI), Y8
	VCVTPH2PS (R11), Y9
	VCVTPH2PS 16(R11), Y10
	VCVTPH2PS 32(R11), Y11
	VCVTPH2PS 48(R11), Y12
	VFMADD231PS Y9, Y8, Y0
	VFMADD231PS Y10, Y8, Y1
	VFMADD231PS Y11, Y8, Y2
	VFMADD231PS Y12, Y8, Y3
	VCVTPH2PS 64(R11), Y9
	VCVTPH2PS 80(R11), Y10
	VCVTPH2PS 96(R11), Y11
	VCVTPH2PS 112(R11), Y12
	VFMADD231PS Y9, Y8, Y4
	VFMADD231PS Y10, Y8, Y5
	VFMADD231PS Y11, Y8, Y6
	VFMADD231PS Y12, Y8, Y7
	ADDQ $4, SI
	ADDQ R9, R11
	DECQ BX
	JMP  seq64d

seq64s:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	ADDQ $256, DI
	ADDQ $128, DX
	SUBQ $64, CX
	JMP  seq64

seq32:
	CMPQ CX, $32
	JL   seq8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	MOVQ q+8(FP), SI
	MOVQ DX, R11
	MOVQ R8, BX

seq32d:
	TESTQ BX, BX
	JZ   seq32s
	VBROADCASTSS (SI), Y4
	VCVTPH2PS (R11), Y5
	VCVTPH2PS 16(R11), Y6
	VCVTPH2PS 32(R11), Y7
	VCVTPH2PS 48(R11), Y8
	VFMADD231PS Y5, Y4, Y0
	VFMADD231PS Y6, Y4, Y1
	VFMADD231PS Y7, Y4, Y2
	VFMADD231PS Y8, Y4, Y3
	ADDQ $4, SI
	ADDQ R9, R11
	DECQ BX
	JMP  seq32d

seq32s:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $64, DX
	SUBQ $32, CX
	JMP  seq32

seq8:
	CMPQ CX, $8
	JL   seqdone
	VXORPS Y0, Y0, Y0
	MOVQ q+8(FP), SI
	MOVQ DX, R11
	MOVQ R8, BX

seq8d:
	TESTQ BX, BX
	JZ   seq8s
	VBROADCASTSS (SI), Y4
	VCVTPH2PS (R11), Y5
	VFMADD231PS Y5, Y4, Y0
	ADDQ $4, SI
	ADDQ R9, R11
	DECQ BX
	JMP  seq8d

seq8s:
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $16, DX
	SUBQ $8, CX
	JMP  seq8

seqdone:
	VZEROUPPER
	RET
