//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"

// Integer dot products of quantized weight rows with Q8 activation rows, the
// way ggml's AVX2 kernels compute them: VPSIGNB moves the weight's sign onto
// the activation so that VPMADDUBSW (unsigned × signed bytes → int16 pairs)
// can be used, VPMADDWD widens to int32, and the block scales are applied in
// float32 with FMA.



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

// PROLOGUE loads the arguments shared by the 4-row kernels and clears the
// accumulators; Y15 = int16 ones.
#define PROLOGUE \
	MOVQ w+0(FP), SI \
	MOVQ x+8(FP), DI \
	MOVQ nb+16(FP), CX \
	MOVQ xstride+24(FP), R9 \
	MOVQ nrows+32(FP), R8 \
	LEAQ (R9)(R9*2), R10 \
	VXORPS Y10, Y10, Y10 \
	VXORPS Y11, Y11, Y11 \
	VXORPS Y12, Y12, Y12 \
	VXORPS Y13, Y13, Y13 \
	BCAST32($0x00010001, X15, Y15)

// EPILOGUE stores the sums of the first R8 accumulators to out.
#define EPILOGUE \
	MOVQ out+40(FP), DX \
	HSUM8(Y10, X10, X1) \
	VMOVSS X10, (DX) \
	CMPQ R8, $1 \
	JLE  ret \
	HSUM8(Y11, X11, X1) \
	VMOVSS X11, 4(DX) \
	CMPQ R8, $2 \
	JLE  ret \
	HSUM8(Y12, X12, X1) \
	VMOVSS X12, 8(DX) \
	CMPQ R8, $3 \
	JLE  ret \
	HSUM8(Y13, X13, X1) \
	VMOVSS X13, 12(DX) \
ret: \
	VZEROUPPER \
	RET

// func qdotQ8_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)
TEXT ·qdotQ8_0AVX2(SB), NOSPLIT, $0-48
	PROLOGUE

q8loop:
	TESTQ CX, CX
	JZ    q8done
	HALF((SI), X14)
	VMOVDQU 2(SI), Y8
	VPSIGNB Y8, Y8, Y9
	ROWS4(q8next)

q8next:
	ADDQ $34, SI
	ADDQ $34, DI
	DECQ CX
	JMP  q8loop

q8done:
	EPILOGUE

// func qdotQ4_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)
TEXT ·qdotQ4_0AVX2(SB), NOSPLIT, $0-48
	PROLOGUE
	BCAST32($0x0f0f0f0f, X7, Y7)
	BCAST32($0x08080808, X6, Y6)

q4loop:
	TESTQ CX, CX
	JZ    q4done
	HALF((SI), X14)
	VMOVDQU 2(SI), X8
	VPSRLW $4, X8, X9
	VINSERTI128 $1, X9, Y8, Y8
	VPAND Y7, Y8, Y8
	VPSUBB Y6, Y8, Y8
	VPSIGNB Y8, Y8, Y9
	ROWS4(q4next)

q4next:
	ADDQ $18, SI
	ADDQ $34, DI
	DECQ CX
	JMP  q4loop

q4done:
	EPILOGUE
