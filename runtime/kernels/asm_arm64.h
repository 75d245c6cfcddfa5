// Macros shared by the arm64 assembly files.

// ZERO4 clears V16–V19, the four accumulators of the float kernels.
#define ZERO4 \
	VEOR V16.B16, V16.B16, V16.B16 \
	VEOR V17.B16, V17.B16, V17.B16 \
	VEOR V18.B16, V18.B16, V18.B16 \
	VEOR V19.B16, V19.B16, V19.B16

// SUM4 adds the sixteen floats of V16–V19 into F16.
#define SUM4 \
	WORD $0x4e31d610 /* fadd v16.4s, v16.4s, v17.4s */ \
	WORD $0x4e33d652 /* fadd v18.4s, v18.4s, v19.4s */ \
	WORD $0x4e32d610 /* fadd v16.4s, v16.4s, v18.4s */ \
	WORD $0x6e30d610 /* faddp v16.4s, v16.4s, v16.4s */ \
	WORD $0x7e30da10 // faddp s16, v16.2s

// FMA4 adds V0–V3 times V4–V7 to V16–V19.
#define FMA4 \
	VFMLA V4.S4, V0.S4, V16.S4 \
	VFMLA V5.S4, V1.S4, V17.S4 \
	VFMLA V6.S4, V2.S4, V18.S4 \
	VFMLA V7.S4, V3.S4, V19.S4

// AXPY4 adds V0 (alpha in every lane) times V4–V7 to the 16 floats at R1
// and moves R1 on.
#define AXPY4 \
	VLD1 (R1), [V16.S4, V17.S4, V18.S4, V19.S4] \
	VFMLA V0.S4, V4.S4, V16.S4 \
	VFMLA V0.S4, V5.S4, V17.S4 \
	VFMLA V0.S4, V6.S4, V18.S4 \
	VFMLA V0.S4, V7.S4, V19.S4 \
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R1)

// HTOF4 converts the 16 halves in V2, V3 to floats in V4–V7.
#define HTOF4 \
	WORD $0x0e217844 /* fcvtl v4.4s, v2.4h */ \
	WORD $0x4e217845 /* fcvtl2 v5.4s, v2.8h */ \
	WORD $0x0e217866 /* fcvtl v6.4s, v3.4h */ \
	WORD $0x4e217867 // fcvtl2 v7.4s, v3.8h

// DOTARGS loads the slices of func(a []T, b []float32) float32 into R0
// (a), R2 (length) and R1 (b) and clears the accumulators.
#define DOTARGS \
	MOVD a_base+0(FP), R0 \
	MOVD a_len+8(FP), R2 \
	MOVD b_base+24(FP), R1 \
	ZERO4
