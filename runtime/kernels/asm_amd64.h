// Macros shared by the amd64 assembly files.

// HSUM8 adds the eight floats of Y into the low float of X (its low half),
// using T as scratch.
#define HSUM8(Y, X, T) \
	VEXTRACTF128 $1, Y, T \
	VADDPS T, X, X \
	VMOVHLPS X, X, T \
	VADDPS T, X, X \
	VMOVSHDUP X, T \
	VADDSS T, X, X

// HALF loads the IEEE half at M into the low float of X (clobbers AX).
#define HALF(M, X) \
	MOVWLZX M, AX \
	VMOVD AX, X \
	VCVTPH2PS X, X

// BCAST32 broadcasts the 32-bit constant C to every lane of Y (clobbers AX).
#define BCAST32(C, X, Y) \
	MOVL C, AX \
	VMOVD AX, X \
	VPBROADCASTD X, Y

// The stores of the tile kernels (gemm_amd64.s, gemmk_amd64.s).

// HSUMS4 leaves in XA the four sums of the lanes of A, B, C, D (XA, XB are
// the low halves of A, B); it adds lanes in the same order for every kernel.
#define HSUMS4(A, B, C, D, XA, XB) \
	VHADDPS B, A, A \
	VHADDPS D, C, C \
	VHADDPS C, A, A \
	VEXTRACTF128 $1, A, XB \
	VADDPS XB, XA, XA

// HSUM4 stores the four sums of HSUMS4 at DST.
#define HSUM4(A, B, C, D, XA, XB, DST) \
	HSUMS4(A, B, C, D, XA, XB) \
	VMOVUPS XA, DST

// STOREROW stores the four sums of one row (the lanes of Y0–Y3, columns
// 0–3, added as HSUM4 adds them) at OFF(DX) of each column, R8 being
// ostride in bytes and R11 three times that.
#define STOREROW(OFF) \
	HSUMS4(Y0, Y1, Y2, Y3, X0, X1) \
	VMOVSS X0, OFF(DX) \
	VEXTRACTPS $1, X0, OFF(DX)(R8*1) \
	VEXTRACTPS $2, X0, OFF(DX)(R8*2) \
	VEXTRACTPS $3, X0, OFF(DX)(R11*1)

// STORE16 stores the 4×4 sums (accumulator Y(4r+c) holds row r, column c).
#define STORE16 \
	LEAQ (R8)(R8*2), R11 \
	HSUM4(Y0, Y4, Y8, Y12, X0, X4, (DX)) \
	HSUM4(Y1, Y5, Y9, Y13, X1, X5, (DX)(R8*1)) \
	HSUM4(Y2, Y6, Y10, Y14, X2, X6, (DX)(R8*2)) \
	HSUM4(Y3, Y7, Y11, Y15, X3, X7, (DX)(R11*1)) \
	VZEROUPPER \
	RET

// STORE4 stores the sums of rows 0–3 (one column) and returns.
#define STORE4 \
	HSUM4(Y0, Y1, Y2, Y3, X0, X1, (DX)) \
	VZEROUPPER \
	RET

// NIBDOT16 adds the products of 16 four-bit values at SI (8 bytes, value i
// in bits 4i..4i+3) with 16 floats at DX to the lanes of Y0 and Y1, and
// moves SI and DX past them. Y15 holds the nibble shifts 0, 4, …, 28 and Y14
// the mask 0x0f in every lane; Y2, Y3 are scratch.
#define NIBDOT16 \
	VPBROADCASTD (SI), Y2 \
	VPBROADCASTD 4(SI), Y3 \
	VPSRLVD Y15, Y2, Y2 \
	VPSRLVD Y15, Y3, Y3 \
	VPAND Y14, Y2, Y2 \
	VPAND Y14, Y3, Y3 \
	VCVTDQ2PS Y2, Y2 \
	VCVTDQ2PS Y3, Y3 \
	VFMADD231PS (DX), Y2, Y0 \
	VFMADD231PS 32(DX), Y3, Y1 \
	ADDQ $8, SI \
	ADDQ $64, DX

// VNNIARGS loads the arguments of a tile kernel, func(w, x *byte, np,
// xstride int, out *float32, ostride int): SI weights, DI activations, CX
// pairs, R9 xstride, R10 3*xstride, DX out, R8 ostride in bytes; and the
// nibble mask in Y31.
#define VNNIARGS \
	MOVQ w+0(FP), SI \
	MOVQ x+8(FP), DI \
	MOVQ np+16(FP), CX \
	MOVQ xstride+24(FP), R9 \
	MOVQ out+32(FP), DX \
	MOVQ ostride+40(FP), R8 \
	SHLQ $2, R8 \
	LEAQ (R9)(R9*2), R10 \
	MOVL $0x0f0f0f0f, AX \
	VPBROADCASTD AX, Y31
