//go:build !noasm

#include "textflag.h"

// Quantized dot products for arm64: the bodies are in qdot_arm64.h, built
// twice, with SDOT and with SMULL/SADALP for CPUs without the dot-product
// extension.

// Bit selectors and TBL indices of HIGH5 (qdot_arm64.h).
DATA q5consts<>+0(SB)/8, $0x8040201008040201
DATA q5consts<>+8(SB)/8, $0x8040201008040201
DATA q5consts<>+16(SB)/8, $0x0000000000000000
DATA q5consts<>+24(SB)/8, $0x0101010101010101
DATA q5consts<>+32(SB)/8, $0x0202020202020202
DATA q5consts<>+40(SB)/8, $0x0303030303030303
GLOBL q5consts<>(SB), RODATA|NOPTR, $48

// The E2M1 values doubled, as int8 (mxfp4Values).
DATA mxfp4lut<>+0(SB)/8, $0x0c08060403020100
DATA mxfp4lut<>+8(SB)/8, $0xf4f8fafcfdfeff00
GLOBL mxfp4lut<>(SB), RODATA|NOPTR, $16

#define Q8_0NAME ·qdotQ8_0SDOT
#define Q4_0NAME ·qdotQ4_0SDOT
#define Q4_KNAME ·qdotQ4_KSDOT
#define Q6_KNAME ·qdotQ6_KSDOT
#define Q5_KNAME ·qdotQ5_KSDOT
#define Q4_1NAME ·qdotQ4_1SDOT
#define Q5_0NAME ·qdotQ5_0SDOT
#define Q5_1NAME ·qdotQ5_1SDOT
#define MXFP4NAME ·qdotMXFP4SDOT

#define DOT2 \
	VEOR V4.B16, V4.B16, V4.B16 \
	WORD $0x4e829404 /* sdot v4.4s, v0.16b, v2.16b */ \
	WORD $0x4e839424 // sdot v4.4s, v1.16b, v3.16b

#define DOTA \
	VEOR V6.B16, V6.B16, V6.B16 \
	WORD $0x4e909446 /* sdot v6.4s, v2.16b, v16.16b */ \
	WORD $0x4e919466 // sdot v6.4s, v3.16b, v17.16b

#define DOTB \
	VEOR V7.B16, V7.B16, V7.B16 \
	WORD $0x4e929487 /* sdot v7.4s, v4.16b, v18.16b */ \
	WORD $0x4e9394a7 // sdot v7.4s, v5.16b, v19.16b

#define DOTP \
	VEOR V8.B16, V8.B16, V8.B16 \
	VEOR V9.B16, V9.B16, V9.B16 \
	WORD $0x4e9094c8 /* sdot v8.4s, v6.16b, v16.16b */ \
	WORD $0x4e9194e9 // sdot v9.4s, v7.16b, v17.16b

#include "qdot_arm64.h"

#undef Q8_0NAME
#undef Q4_0NAME
#undef Q4_KNAME
#undef Q6_KNAME
#undef Q5_KNAME
#undef Q4_1NAME
#undef Q5_0NAME
#undef Q5_1NAME
#undef MXFP4NAME
#undef DOT2
#undef DOTA
#undef DOTB
#undef DOTP

#define Q8_0NAME ·qdotQ8_0NEON
#define Q4_0NAME ·qdotQ4_0NEON
#define Q4_KNAME ·qdotQ4_KNEON
#define Q6_KNAME ·qdotQ6_KNEON
#define Q5_KNAME ·qdotQ5_KNEON
#define Q4_1NAME ·qdotQ4_1NEON
#define Q5_0NAME ·qdotQ5_0NEON
#define Q5_1NAME ·qdotQ5_1NEON
#define MXFP4NAME ·qdotMXFP4NEON

#define DOT2 \
	WORD $0x0e22c004 /* smull v4.8h, v0.8b, v2.8b */ \
	WORD $0x4e22c00a /* smull2 v10.8h, v0.16b, v2.16b */ \
	WORD $0x0e23c02b /* smull v11.8h, v1.8b, v3.8b */ \
	WORD $0x4e23c02c /* smull2 v12.8h, v1.16b, v3.16b */ \
	WORD $0x4e602884 /* saddlp v4.4s, v4.8h */ \
	WORD $0x4e606944 /* sadalp v4.4s, v10.8h */ \
	WORD $0x4e606964 /* sadalp v4.4s, v11.8h */ \
	WORD $0x4e606984 // sadalp v4.4s, v12.8h

#define DOTA \
	WORD $0x0e30c046 /* smull v6.8h, v2.8b, v16.8b */ \
	WORD $0x4e30c04a /* smull2 v10.8h, v2.16b, v16.16b */ \
	WORD $0x0e31c06b /* smull v11.8h, v3.8b, v17.8b */ \
	WORD $0x4e31c06c /* smull2 v12.8h, v3.16b, v17.16b */ \
	WORD $0x4e6028c6 /* saddlp v6.4s, v6.8h */ \
	WORD $0x4e606946 /* sadalp v6.4s, v10.8h */ \
	WORD $0x4e606966 /* sadalp v6.4s, v11.8h */ \
	WORD $0x4e606986 // sadalp v6.4s, v12.8h

#define DOTB \
	WORD $0x0e32c087 /* smull v7.8h, v4.8b, v18.8b */ \
	WORD $0x4e32c08a /* smull2 v10.8h, v4.16b, v18.16b */ \
	WORD $0x0e33c0ab /* smull v11.8h, v5.8b, v19.8b */ \
	WORD $0x4e33c0ac /* smull2 v12.8h, v5.16b, v19.16b */ \
	WORD $0x4e6028e7 /* saddlp v7.4s, v7.8h */ \
	WORD $0x4e606947 /* sadalp v7.4s, v10.8h */ \
	WORD $0x4e606967 /* sadalp v7.4s, v11.8h */ \
	WORD $0x4e606987 // sadalp v7.4s, v12.8h

#define DOTP \
	WORD $0x0e30c0c8 /* smull v8.8h, v6.8b, v16.8b */ \
	WORD $0x4e30c0ca /* smull2 v10.8h, v6.16b, v16.16b */ \
	WORD $0x0e31c0e9 /* smull v9.8h, v7.8b, v17.8b */ \
	WORD $0x4e31c0eb /* smull2 v11.8h, v7.16b, v17.16b */ \
	WORD $0x4e602908 /* saddlp v8.4s, v8.8h */ \
	WORD $0x4e606948 /* sadalp v8.4s, v10.8h */ \
	WORD $0x4e602929 /* saddlp v9.4s, v9.8h */ \
	WORD $0x4e606969 // sadalp v9.4s, v11.8h

#include "qdot_arm64.h"
