//go:build !noasm

#include "textflag.h"
#include "asm_amd64.h"
#include "qdot_amd64.h"

// Integer dot products of quantized weight rows with Q8 activation rows, the
// way ggml's AVX2 kernels compute them: VPSIGNB moves the weight's sign onto
// the activation so that VPMADDUBSW (unsigned × signed bytes → int16 pairs)
// can be used, VPMADDWD widens to int32, and the block scales are applied in
// float32 with FMA.

// Constants for spreading the 32 bits of a Q5 block's qh over 32 bytes.
DATA bitshuf<>+0(SB)/8, $0x0000000000000000
DATA bitshuf<>+8(SB)/8, $0x0101010101010101
DATA bitshuf<>+16(SB)/8, $0x0202020202020202
DATA bitshuf<>+24(SB)/8, $0x0303030303030303
GLOBL bitshuf<>(SB), RODATA|NOPTR, $32
DATA bitmask<>+0(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bitmask<>+8(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bitmask<>+16(SB)/8, $0x7fbfdfeff7fbfdfe
DATA bitmask<>+24(SB)/8, $0x7fbfdfeff7fbfdfe
GLOBL bitmask<>(SB), RODATA|NOPTR, $32
DATA bytesff<>+0(SB)/8, $-1
DATA bytesff<>+8(SB)/8, $-1
DATA bytesff<>+16(SB)/8, $-1
DATA bytesff<>+24(SB)/8, $-1
GLOBL bytesff<>(SB), RODATA|NOPTR, $32
DATA bytesf0<>+0(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA bytesf0<>+8(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA bytesf0<>+16(SB)/8, $0xf0f0f0f0f0f0f0f0
DATA bytesf0<>+24(SB)/8, $0xf0f0f0f0f0f0f0f0
GLOBL bytesf0<>(SB), RODATA|NOPTR, $32
DATA bytes10<>+0(SB)/8, $0x1010101010101010
DATA bytes10<>+8(SB)/8, $0x1010101010101010
DATA bytes10<>+16(SB)/8, $0x1010101010101010
DATA bytes10<>+24(SB)/8, $0x1010101010101010
GLOBL bytes10<>(SB), RODATA|NOPTR, $32

// BITS32 sets byte i of Y to 0xff if bit i of the 32-bit word at M is set,
// else to 0 (ggml's bytes_from_bits_32).
#define BITS32(M, Y) \
	VPBROADCASTD M, Y \
	VPSHUFB bitshuf<>(SB), Y, Y \
	VPOR bitmask<>(SB), Y, Y \
	VPCMPEQB bytesff<>(SB), Y, Y

// NIBBLES sets Y to the 32 nibbles of the 16 bytes at M, low nibbles first
// (ggml's bytes_from_nibbles_32); X is Y's low half, Y7 = 0x0f bytes.
#define NIBBLES(M, X, Y) \
	VMOVDQU M, X \
	VPSRLW $4, X, X2 \
	VINSERTI128 $1, X2, Y, Y \
	VPAND Y7, Y, Y

// ROW1 accumulates into ACC one Q8_1 activation block (scale at D, sum
// at S, values at Q) times an unsigned weight block: Y8 = q, X14 = weight
// scale; SACC += m·s with X0 = the weight block's m.
#define ROW1(D, S, Q, ACC, SACC) \
	HALF(D, X1) \
	VMULSS X14, X1, X1 \
	VBROADCASTSS X1, Y1 \
	VPMADDUBSW Q, Y8, Y2 \
	VPMADDWD Y15, Y2, Y2 \
	VCVTDQ2PS Y2, Y2 \
	VFMADD231PS Y2, Y1, ACC \
	HALF(S, X2) \
	VFMADD231SS X2, X0, SACC

// ROWS4Q81 runs ROW1 for up to four Q8_1 activation rows; the m·s sums go
// to X3–X6.
#define ROWS4Q81(NEXT) \
	ROW1((DI), 2(DI), 4(DI), Y10, X3) \
	CMPQ R8, $1 \
	JLE  NEXT \
	ROW1((DI)(R9*1), 2(DI)(R9*1), 4(DI)(R9*1), Y11, X4) \
	CMPQ R8, $2 \
	JLE  NEXT \
	ROW1((DI)(R9*2), 2(DI)(R9*2), 4(DI)(R9*2), Y12, X5) \
	CMPQ R8, $3 \
	JLE  NEXT \
	ROW1((DI)(R10*1), 2(DI)(R10*1), 4(DI)(R10*1), Y13, X6)

// FOLDS adds the m·s sums X3–X6 into lane 0 of the accumulators (their
// other lanes are zero).
#define FOLDS \
	VADDPS Y3, Y10, Y10 \
	VADDPS Y4, Y11, Y11 \
	VADDPS Y5, Y12, Y12 \
	VADDPS Y6, Y13, Y13

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

// func qdotQ5_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)
TEXT ·qdotQ5_0AVX2(SB), NOSPLIT, $0-48
	PROLOGUE
	BCAST32($0x0f0f0f0f, X7, Y7)

q50loop:
	TESTQ CX, CX
	JZ    q50done
	HALF((SI), X14)
	BITS32(2(SI), Y8)
	VPANDN bytesf0<>(SB), Y8, Y8
	NIBBLES(6(SI), X9, Y9)
	VPOR Y9, Y8, Y8
	VPSIGNB Y8, Y8, Y9
	ROWS4(q50next)

q50next:
	ADDQ $22, SI
	ADDQ $34, DI
	DECQ CX
	JMP  q50loop

q50done:
	EPILOGUE

// ZEROS clears the m·s sums.
#define ZEROS \
	VXORPS X3, X3, X3 \
	VXORPS X4, X4, X4 \
	VXORPS X5, X5, X5 \
	VXORPS X6, X6, X6

// func qdotQ4_1AVX2(w, x *byte, nb, xstride, nrows int, out *float32)
TEXT ·qdotQ4_1AVX2(SB), NOSPLIT, $0-48
	PROLOGUE
	ZEROS
	BCAST32($0x0f0f0f0f, X7, Y7)

q41loop:
	TESTQ CX, CX
	JZ    q41done
	HALF((SI), X14)
	HALF(2(SI), X0)
	NIBBLES(4(SI), X8, Y8)
	ROWS4Q81(q41next)

q41next:
	ADDQ $20, SI
	ADDQ $36, DI
	DECQ CX
	JMP  q41loop

q41done:
	FOLDS
	EPILOGUE

// func qdotQ5_1AVX2(w, x *byte, nb, xstride, nrows int, out *float32)
TEXT ·qdotQ5_1AVX2(SB), NOSPLIT, $0-48
	PROLOGUE
	ZEROS
	BCAST32($0x0f0f0f0f, X7, Y7)

q51loop:
	TESTQ CX, CX
	JZ    q51done
	HALF((SI), X14)
	HALF(2(SI), X0)
	BITS32(4(SI), Y8)
	VPAND bytes10<>(SB), Y8, Y8
	NIBBLES(8(SI), X9, Y9)
	VPOR Y9, Y8, Y8
	ROWS4Q81(q51next)

q51next:
	ADDQ $24, SI
	ADDQ $36, DI
	DECQ CX
	JMP  q51loop

q51done:
	FOLDS
	EPILOGUE
