package kernels

import "fmt"

// DType is how a weight matrix is stored.
type DType uint8

// The storage formats. The GGUF block formats are laid out exactly as ggml
// lays them out (ggml-common.h).
const (
	F32 DType = iota
	F16
	BF16
	Q8_0
	Q4_0
	Q4_1
	Q5_0
	Q5_1
	Q4_K
	Q5_K
	Q6_K
	MXFP4 // OCP microscaling FP4: E8M0 scale, 32 E2M1 values (mxfp4.go)
	MLXAffine
)

// formats is the one table of the storage formats: the name, ggml's tensor
// type number for the formats a GGUF file holds (-1 for MLXAffine) and the
// block geometry, elements and bytes per block (ggml's for the GGUF
// formats; MLXAffine's groups are described by the Matrix).
var formats = [...]struct {
	name         string
	ggml         int
	elems, bytes int
}{
	F32:       {"F32", 0, 1, 4},
	F16:       {"F16", 1, 1, 2},
	BF16:      {"BF16", 30, 1, 2},
	Q8_0:      {"Q8_0", 8, qk, q8_0},
	Q4_0:      {"Q4_0", 2, qk, q4_0},
	Q4_1:      {"Q4_1", 3, qk, q4_1},
	Q5_0:      {"Q5_0", 6, qk, q5_0},
	Q5_1:      {"Q5_1", 7, qk, q5_1},
	Q4_K:      {"Q4_K", 12, qkK, q4K},
	Q5_K:      {"Q5_K", 13, qkK, q5K},
	Q6_K:      {"Q6_K", 14, qkK, q6K},
	MXFP4:     {"MXFP4", 39, qk, mxfp4},
	MLXAffine: {"MLXAffine", -1, 1, 0},
}

// String returns the usual name of the format ("Q4_K", "BF16", ...).
func (d DType) String() string {
	if int(d) < len(formats) {
		return formats[d].name
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// Block geometry of the GGUF formats (elements and bytes per block).
const (
	qk    = 32  // elements in a Q4_0 … Q8_1 block
	qkK   = 256 // elements in a K-quant super-block
	q8_0  = 34  // bytes: fp16 d, int8 qs[32]
	q8_1  = 36  // bytes: fp16 d, fp16 s, int8 qs[32]
	q4_0  = 18  // bytes: fp16 d, qs[16]
	q4_1  = 20  // bytes: fp16 d, fp16 m, qs[16]
	q5_0  = 22  // bytes: fp16 d, qh[4], qs[16]
	q5_1  = 24  // bytes: fp16 d, fp16 m, qh[4], qs[16]
	q4K   = 144 // bytes: fp16 d, fp16 dmin, scales[12], qs[128]
	q5K   = 176 // bytes: fp16 d, fp16 dmin, scales[12], qh[32], qs[128]
	q6K   = 210 // bytes: ql[128], qh[64], int8 scales[16], fp16 d
	mxfp4 = 17  // bytes: E8M0 e, qs[16]
	q8K   = 292 // bytes: float32 d, int8 qs[256], int16 bsums[16]
)

// blockElems returns the elements per block of a format (1 for the float
// formats and for MLXAffine).
func (d DType) blockElems() int {
	if int(d) < len(formats) {
		return formats[d].elems
	}
	return 1
}

// blockBytes returns the bytes per block of a format (0 for MLXAffine).
func (d DType) blockBytes() int {
	if int(d) < len(formats) {
		return formats[d].bytes
	}
	return 0
}

// actKind is the form the activations take for a weight format.
type actKind uint8

const (
	actF32      actKind = iota // float32 as given
	actQ8_0                    // ggml block_q8_0
	actQ8_1                    // ggml block_q8_1
	actQ8_K                    // ggml block_q8_K
	actPair                    // Q8_0 blocks in pairs, for the packed tile kernels
	actQ8_KP                   // Q8_K blocks reordered for the packed K-quant kernels (pack_kquant.go)
	actPairQ8x8                // actPair with each block's correction summed, for the eight-row Q8_0 kernels (pack_q8x8.go)
)

func (d DType) act() actKind {
	switch d {
	case Q8_0, Q4_0, Q5_0, MXFP4:
		return actQ8_0
	case Q4_1, Q5_1:
		return actQ8_1
	case Q4_K, Q5_K, Q6_K:
		return actQ8_K
	}
	return actF32
}

// rowBytes returns the bytes of one quantized activation row of cols elements.
func (a actKind) rowBytes(cols int) int {
	switch a {
	case actQ8_0:
		return cols / qk * q8_0
	case actQ8_1:
		return cols / qk * q8_1
	case actQ8_K:
		return cols / qkK * q8K
	case actPair, actPairQ8x8:
		return pairs(cols) * pairAct
	case actQ8_KP:
		return cols / qkK * kpAct
	}
	return 0
}

// FromGGML returns the DType of a ggml tensor type number (GGUF's tensor
// type field), and false for types the kernels do not compute.
func FromGGML(ggmlType uint32) (DType, bool) {
	for d, f := range formats {
		if f.ggml >= 0 && uint32(f.ggml) == ggmlType {
			return DType(d), true
		}
	}
	return 0, false
}
