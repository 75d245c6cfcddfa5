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
