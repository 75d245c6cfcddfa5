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
