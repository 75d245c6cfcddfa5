//go:build !noasm

#include "textflag.h"
#include "asm_arm64.h"

// func quantQ8_0NEON(dst *byte, src *float32, nb int)
// ggml's Q8_0 activation quantization: d = amax/127 stored as fp16, values
// x*(127/amax) rounded to nearest even (FCVTNS) and saturated to int8.
TEXT ·quantQ8_0NEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD nb+16(FP), R2
	FMOVS $127.0, F30
	CBZ  R2, qdone

qloop:
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x4ea0f810 // fabs v16.4s, v0.4s
	WORD $0x4ea0f831 // fabs v17.4s, v1.4s
	WORD $0x4ea0f852 // fabs v18.4s, v2.4s
	WORD $0x4ea0f873 // fabs v19.4s, v3.4s
	WORD $0x4ea0f894 // fabs v20.4s, v4.4s
	WORD $0x4ea0f8b5 // fabs v21.4s, v5.4s
	WORD $0x4ea0f8d6 // fabs v22.4s, v6.4s
	WORD $0x4ea0f8f7 // fabs v23.4s, v7.4s
	WORD $0x4e31f610 // fmax v16.4s, v16.4s, v17.4s
	WORD $0x4e33f652 // fmax v18.4s, v18.4s, v19.4s
	WORD $0x4e35f694 // fmax v20.4s, v20.4s, v21.4s
	WORD $0x4e37f6d6 // fmax v22.4s, v22.4s, v23.4s
	WORD $0x4e32f610 // fmax v16.4s, v16.4s, v18.4s
	WORD $0x4e36f694 // fmax v20.4s, v20.4s, v22.4s
	WORD $0x4e34f610 // fmax v16.4s, v16.4s, v20.4s
	WORD $0x6e30fa10 // fmaxv s16, v16.4s
	FDIVS F30, F16, F17
	FCVTSH F17, F18
	FMOVS F18, R3
	MOVH R3, (R0)
	VEOR V19.B16, V19.B16, V19.B16
	FCMPS $(0.0), F16
	BEQ  qzero
	FDIVS F16, F30, F19

qzero:
	WORD $0x4f939000 // fmul v0.4s, v0.4s, v19.s[0]
	WORD $0x4f939021 // fmul v1.4s, v1.4s, v19.s[0]
	WORD $0x4f939042 // fmul v2.4s, v2.4s, v19.s[0]
	WORD $0x4f939063 // fmul v3.4s, v3.4s, v19.s[0]
	WORD $0x4f939084 // fmul v4.4s, v4.4s, v19.s[0]
	WORD $0x4f9390a5 // fmul v5.4s, v5.4s, v19.s[0]
	WORD $0x4f9390c6 // fmul v6.4s, v6.4s, v19.s[0]
	WORD $0x4f9390e7 // fmul v7.4s, v7.4s, v19.s[0]
	WORD $0x4e21a800 // fcvtns v0.4s, v0.4s
	WORD $0x4e21a821 // fcvtns v1.4s, v1.4s
	WORD $0x4e21a842 // fcvtns v2.4s, v2.4s
	WORD $0x4e21a863 // fcvtns v3.4s, v3.4s
	WORD $0x4e21a884 // fcvtns v4.4s, v4.4s
	WORD $0x4e21a8a5 // fcvtns v5.4s, v5.4s
	WORD $0x4e21a8c6 // fcvtns v6.4s, v6.4s
	WORD $0x4e21a8e7 // fcvtns v7.4s, v7.4s
	WORD $0x0e614800 // sqxtn v0.4h, v0.4s
	WORD $0x4e614820 // sqxtn2 v0.8h, v1.4s
	WORD $0x0e614842 // sqxtn v2.4h, v2.4s
	WORD $0x4e614862 // sqxtn2 v2.8h, v3.4s
	WORD $0x0e614884 // sqxtn v4.4h, v4.4s
	WORD $0x4e6148a4 // sqxtn2 v4.8h, v5.4s
	WORD $0x0e6148c6 // sqxtn v6.4h, v6.4s
	WORD $0x4e6148e6 // sqxtn2 v6.8h, v7.4s
	WORD $0x0e214800 // sqxtn v0.8b, v0.8h
	WORD $0x4e214840 // sqxtn2 v0.16b, v2.8h
	WORD $0x0e214881 // sqxtn v1.8b, v4.8h
	WORD $0x4e2148c1 // sqxtn2 v1.16b, v6.8h
	ADD  $2, R0, R4
	VST1 [V0.B16, V1.B16], (R4)
	ADD  $34, R0
	SUBS $1, R2
	BNE  qloop

qdone:
	RET
