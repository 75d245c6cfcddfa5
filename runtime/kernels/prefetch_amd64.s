//go:build !noasm

#include "textflag.h"

// func prefetchRowsT1(p unsafe.Pointer, rows, n, stride int)
// Asks for rows runs of n > 0 bytes, the first at p, stride bytes apart, in
// the L2 cache, one 64-byte line at a time, without waiting for them.
TEXT ·prefetchRowsT1(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ rows+8(FP), DX
	MOVQ n+16(FP), BX
	MOVQ stride+24(FP), R8
	TESTQ DX, DX
	JLE  pdone

prow:
	MOVQ SI, DI
	LEAQ -1(SI)(BX*1), CX
	ANDQ $-64, DI
	ANDQ $-64, CX

pline:
	PREFETCHT1 (DI)
	ADDQ $64, DI
	CMPQ DI, CX
	JLE  pline
	ADDQ R8, SI
	DECQ DX
	JNZ  prow

pdone:
	RET
