//go:build !noasm

#include "textflag.h"
#include "asm_arm64.h"

// func affineGroups4NEON(row *byte, x *float32, ngroups, gsize int, out *float32)
// out[g] = Σ q_i*x_i over the gsize (a multiple of 16) elements of group g,
// q_i the 4-bit values of row, low nibble first.
TEXT ·affineGroups4NEON(SB), NOSPLIT, $0-40
	MOVD row+0(FP), R0
	MOVD x+8(FP), R1
	MOVD ngroups+16(FP), R2
	MOVD gsize+24(FP), R3
	LSR  $4, R3
	MOVD out+32(FP), R5
	VMOVI $15, V28.B16
	CBZ  R2, adone

agroup:
	ZERO4
	MOVD R3, R4

a16:
	VLD1.P 8(R0), [V0.B8]
	VAND V28.B8, V0.B8, V1.B8
	VUSHR $4, V0.B8, V2.B8
	VZIP1 V2.B8, V1.B8, V3.B8
	VZIP2 V2.B8, V1.B8, V4.B8
	VUXTL V3.B8, V3.H8
	VUXTL V4.B8, V4.H8
	VUXTL V3.H4, V5.S4
	VUXTL2 V3.H8, V6.S4
	VUXTL V4.H4, V7.S4
	VUXTL2 V4.H8, V8.S4
	WORD $0x6e21d8a5 // ucvtf v5.4s, v5.4s
	WORD $0x6e21d8c6 // ucvtf v6.4s, v6.4s
	WORD $0x6e21d8e7 // ucvtf v7.4s, v7.4s
	WORD $0x6e21d908 // ucvtf v8.4s, v8.4s
	VLD1.P 64(R1), [V20.S4, V21.S4, V22.S4, V23.S4]
	VFMLA V5.S4, V20.S4, V16.S4
	VFMLA V6.S4, V21.S4, V17.S4
	VFMLA V7.S4, V22.S4, V18.S4
	VFMLA V8.S4, V23.S4, V19.S4
	SUBS $1, R4
	BNE  a16

	SUM4
	FMOVS.P F16, 4(R5)
	SUBS $1, R2
	BNE  agroup

adone:
	RET
