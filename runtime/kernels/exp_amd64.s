//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// A vector exp for float32 (AVX2 + FMA), after Cephes' expf: n = round(x·log2 e),
// r = x − n·ln 2 (in two parts), e^r by a degree-7 polynomial, then n added to
// the exponent. Inputs are clamped to [-86.5, 88]; below -86.5 (and -Inf,
// NaN) the result is 0. Relative error about 2e-7.

#define VEC(name, bits) \
	DATA name<>+0(SB)/4, $bits \
	DATA name<>+4(SB)/4, $bits \
	DATA name<>+8(SB)/4, $bits \
	DATA name<>+12(SB)/4, $bits \
	DATA name<>+16(SB)/4, $bits \
	DATA name<>+20(SB)/4, $bits \
	DATA name<>+24(SB)/4, $bits \
	DATA name<>+28(SB)/4, $bits \
	GLOBL name<>(SB), RODATA|NOPTR, $32

VEC(explo, 0xc2ad0000)    // -86.5
VEC(exphi, 0x42b00000)    // 88
VEC(explog2e, 0x3fb8aa3b) // 1.44269504
VEC(expc1, 0x3f318000)    // 0.693359375
VEC(expc2, 0xb95e8083)    // -2.12194440e-4
VEC(expp5, 0x39506967)    // 1.9875691500e-4
VEC(expp4, 0x3ab743ce)    // 1.3981999507e-3
VEC(expp3, 0x3c088908)    // 8.3334519073e-3
VEC(expp2, 0x3d2aa9c1)    // 4.1665795894e-2
VEC(expp1, 0x3e2aaaaa)    // 1.6666665459e-1
VEC(expp0, 0x3f000000)    // 5.0000001201e-1
VEC(expone, 0x3f800000)   // 1

// EXP sets Y0 to exp(Y0), using Y1–Y4.
#define EXP \
	VCMPPS $0x1d, explo<>(SB), Y0, Y3 \
	VMINPS exphi<>(SB), Y0, Y0 \
	VMAXPS explo<>(SB), Y0, Y0 \
	VMULPS explog2e<>(SB), Y0, Y1 \
	VROUNDPS $0, Y1, Y1 \
	VFNMADD231PS expc1<>(SB), Y1, Y0 \
	VFNMADD231PS expc2<>(SB), Y1, Y0 \
	VMULPS Y0, Y0, Y2 \
	VMOVUPS expp5<>(SB), Y4 \
	VFMADD213PS expp4<>(SB), Y0, Y4 \
	VFMADD213PS expp3<>(SB), Y0, Y4 \
	VFMADD213PS expp2<>(SB), Y0, Y4 \
	VFMADD213PS expp1<>(SB), Y0, Y4 \
	VFMADD213PS expp0<>(SB), Y0, Y4 \
	VFMADD213PS Y0, Y2, Y4 \
	VADDPS expone<>(SB), Y4, Y4 \
	VCVTPS2DQ Y1, Y1 \
	VPSLLD $23, Y1, Y1 \
	VPADDD Y1, Y4, Y0 \
	VANDPS Y3, Y0, Y0

// func expShiftAVX2(x *float32, n int, m float32) float64
// x[i] = exp(x[i] − m) for n (a multiple of 8) values; returns their sum,
// added in float64.
TEXT ·expShiftAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS m+16(FP), Y15
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

es8:
	CMPQ CX, $8
	JL   esdone
	VMOVUPS (DI), Y0
	VSUBPS Y15, Y0, Y0
	EXP
	VMOVUPS Y0, (DI)
	VCVTPS2PD X0, Y1
	VEXTRACTF128 $1, Y0, X2
	VCVTPS2PD X2, Y2
	VADDPD Y1, Y6, Y6
	VADDPD Y2, Y7, Y7
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  es8

esdone:
	VADDPD Y7, Y6, Y6
	VEXTRACTF128 $1, Y6, X7
	VADDPD X7, X6, X6
	VUNPCKHPD X6, X6, X7
	VADDSD X7, X6, X6
	VMOVSD X6, ret+24(FP)
	VZEROUPPER
	RET

// func siluMulAVX2(gate, up *float32, n int)
// gate[i] = gate[i] / (1 + exp(−gate[i])) · up[i] for n (a multiple of 8).
TEXT ·siluMulAVX2(SB), NOSPLIT, $0-24
	MOVQ gate+0(FP), DI
	MOVQ up+8(FP), SI
	MOVQ n+16(FP), CX
	BCAST32($0x80000000, X14, Y14)

sm8:
	CMPQ CX, $8
	JL   smdone
	VMOVUPS (DI), Y5
	VXORPS Y14, Y5, Y0
	EXP
	VADDPS expone<>(SB), Y0, Y0
	VDIVPS Y0, Y5, Y5
	VMULPS (SI), Y5, Y5
	VMOVUPS Y5, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  sm8

smdone:
	VZEROUPPER
	RET

// func expAVX2(x *float32, n int)
// x[i] = exp(x[i]) for n (a multiple of 8) values.
TEXT ·expAVX2(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), DI
	MOVQ n+8(FP), CX

ex8:
	CMPQ CX, $8
	JL   exdone
	VMOVUPS (DI), Y0
	EXP
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  ex8

exdone:
	VZEROUPPER
	RET

// ggml's vector exp (ExpShiftGGML), its constants as ggml_v_expf has them.
VEC(gexpr, 0x4b400000)      // 0x1.8p23
VEC(gexplog2e, 0x3fb8aa3b)  // 0x1.715476p+0
VEC(gexpln2hi, 0x3f317200)  // 0x1.62e4p-1
VEC(gexpln2lo, 0x35bfbe8e)  // 0x1.7f7d1cp-20
VEC(gexpc4, 0x3c072010)     // 0x1.0e4020p-7
VEC(gexpc3, 0x3d2b9f17)     // 0x1.573e2ep-5
VEC(gexpc2, 0x3e2aaf33)     // 0x1.555e66p-3
VEC(gexpc1, 0x3efffedb)     // 0x1.fffdb6p-2
VEC(gexpc0, 0x3f7ffff6)     // 0x1.ffffecp-1
VEC(gexp126, 0x42fc0000)    // 126
VEC(gexp192, 0x43400000)    // 192
VEC(gexpabs, 0x7fffffff)
VEC(gexpg, 0x82000000)
VEC(gexp7f, 0x7f000000)

// func expShiftGGMLAVX2(x *float32, n int, m float32, sum float64) float64
// x[i] = e^(x[i]−m) as expGGML for n (a multiple of 8) values; returns
// sum plus the sum of each eight added by HSUM8, the eights added in
// float64 one after the other.
TEXT ·expShiftGGMLAVX2(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), DI
	MOVQ n+8(FP), CX
	VBROADCASTSS m+16(FP), Y15
	MOVSD sum+24(FP), X14

gexploop:
	CMPQ CX, $8
	JL   gexpdone
	VMOVUPS (DI), Y0
	VSUBPS Y15, Y0, Y0                  // x − m
	VMOVUPS gexpr<>(SB), Y1
	VFMADD231PS gexplog2e<>(SB), Y0, Y1 // z = x·log2e + r
	VSUBPS gexpr<>(SB), Y1, Y2          // n = z − r
	VMOVUPS Y0, Y3
	VFNMADD231PS gexpln2hi<>(SB), Y2, Y3
	VFNMADD231PS gexpln2lo<>(SB), Y2, Y3 // b = x − n·ln2
	VPSLLD $23, Y1, Y4                  // e
	VPADDD expone<>(SB), Y4, Y5        // k
	VANDPS gexpabs<>(SB), Y2, Y6        // |n|
	VCMPPS $0x1e, gexp126<>(SB), Y6, Y7 // c = |n| > 126
	VMULPS Y3, Y3, Y8                   // u = b·b
	VMOVUPS gexpc4<>(SB), Y9
	VFMADD213PS gexpc3<>(SB), Y3, Y9
	VMOVUPS gexpc2<>(SB), Y10
	VFMADD213PS gexpc1<>(SB), Y3, Y10
	VFMADD213PS Y10, Y8, Y9
	VMULPS gexpc0<>(SB), Y3, Y11
	VFMADD213PS Y11, Y8, Y9             // j
	VMOVUPS Y5, Y12
	VFMADD231PS Y9, Y5, Y12             // k·j + k
	VMOVMSKPS Y7, AX
	TESTL AX, AX
	JZ    gexpstore
	VXORPS Y13, Y13, Y13
	VCMPPS $0x12, Y13, Y2, Y13          // n <= 0
	VANDPS gexpg<>(SB), Y13, Y13        // g
	VPADDD gexp7f<>(SB), Y13, Y1        // s1
	VPSUBD Y13, Y4, Y0                  // s2
	VCMPPS $0x1e, gexp192<>(SB), Y6, Y13 // d = |n| > 192
	VMULPS Y1, Y1, Y10                  // s1·s1
	VMOVUPS Y0, Y11
	VFMADD231PS Y9, Y0, Y11
	VMULPS Y1, Y11, Y11                 // (s2·j + s2)·s1
	VANDPS Y7, Y11, Y11
	VANDNPS Y12, Y7, Y12
	VORPS Y11, Y12, Y12
	VANDPS Y13, Y10, Y10
	VANDNPS Y12, Y13, Y12
	VORPS Y10, Y12, Y12

gexpstore:
	VMOVUPS Y12, (DI)
	HSUM8(Y12, X12, X13)
	VCVTSS2SD X12, X12, X12
	VADDSD X12, X14, X14
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  gexploop

gexpdone:
	VZEROUPPER
	MOVSD X14, ret+32(FP)
	RET
