// Macros for the K-quant kernels (amd64).

// KUNPACK unpacks the 12 bytes of 6-bit scales and mins of the Q4_K/Q5_K
// super-block at SI into 16 int16 (8 scales, then 8 mins) in Y and at
// 0(SP), with 32-bit masks (0x3f…, 0x0f…, 0x03…) the way ggml's kmask code
// does; X is Y's low half. Clobbers AX, BX, DX, R10–R12.
#define KUNPACK(Y, X) \
	MOVL 4(SI), R10 \
	MOVL 8(SI), R11 \
	MOVL 12(SI), R12 \
	MOVL R12, AX \
	SHRL $4, AX \
	ANDL $0x0f0f0f0f, AX \
	MOVL R11, BX \
	SHRL $6, BX \
	ANDL $0x03030303, BX \
	SHLL $4, BX \
	ORL  BX, AX \
	MOVL R11, DX \
	ANDL $0x3f3f3f3f, DX \
	MOVL R12, R11 \
	ANDL $0x0f0f0f0f, R11 \
	MOVL R10, BX \
	SHRL $6, BX \
	ANDL $0x03030303, BX \
	SHLL $4, BX \
	ORL  BX, R11 \
	ANDL $0x3f3f3f3f, R10 \
	VMOVD R10, X \
	VPINSRD $1, R11, X, X \
	VPINSRD $2, DX, X, X \
	VPINSRD $3, AX, X, X \
	VPMOVZXBW X, Y \
	VMOVDQU Y, 0(SP)
