// Macros shared by the Q4_0/Q8_0 (qdot_amd64.s) and MXFP4 (mxfp4_amd64.s)
// AVX2 dot-product kernels.

// ROW8 accumulates into ACC one Q8_0 activation block (scale at D, values
// at Q) times the decoded weight block: Y8 = w, Y9 = |w|, X14 = weight scale.
#define ROW8(D, Q, ACC) \
	HALF(D, X1) \
	VMULSS X14, X1, X1 \
	VBROADCASTSS X1, Y1 \
	VMOVDQU Q, Y2 \
	VPSIGNB Y8, Y2, Y2 \
	VPMADDUBSW Y2, Y9, Y2 \
	VPMADDWD Y15, Y2, Y2 \
	VCVTDQ2PS Y2, Y2 \
	VFMADD231PS Y2, Y1, ACC

// ROWS4 runs ROW8 for up to four activation rows (R8 of them, R9 bytes
// apart, R10 = 3*R9) at DI, then jumps to NEXT.
#define ROWS4(NEXT) \
	ROW8((DI), 2(DI), Y10) \
	CMPQ R8, $1 \
	JLE  NEXT \
	ROW8((DI)(R9*1), 2(DI)(R9*1), Y11) \
	CMPQ R8, $2 \
	JLE  NEXT \
	ROW8((DI)(R9*2), 2(DI)(R9*2), Y12) \
	CMPQ R8, $3 \
	JLE  NEXT \
	ROW8((DI)(R10*1), 2(DI)(R10*1), Y13)
