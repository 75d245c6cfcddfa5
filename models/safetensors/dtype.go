package safetensors

import "fmt"

// DType is the element type of a tensor.
type DType uint8

// The element types this package accepts. Files with other types (F64, I16,
// U16, U64, BOOL, the F8 and F4/F6 formats, ...) are refused when opened,
// because the runtime cannot compute with them.
const (
	F32  DType = iota + 1 // IEEE 754 binary32
	F16                   // IEEE 754 binary16
	BF16                  // bfloat16, the upper half of a binary32
	I8                    // signed byte
	U8                    // unsigned byte
	I32                   // signed 32-bit integer
	U32                   // unsigned 32-bit integer, e.g. packed MLX 4-bit weights
	I64                   // signed 64-bit integer
)

var dtypeNames = [...]string{F32: "F32", F16: "F16", BF16: "BF16", I8: "I8", U8: "U8", I32: "I32", U32: "U32", I64: "I64"}

var dtypeSizes = [...]int{F32: 4, F16: 2, BF16: 2, I8: 1, U8: 1, I32: 4, U32: 4, I64: 8}

// knownUnsupported names the element types of the safetensors format that
// this package recognises but refuses.
var knownUnsupported = map[string]bool{
	"F64": true, "I16": true, "U16": true, "U64": true, "BOOL": true,
	"F8_E4M3": true, "F8_E5M2": true, "F8_E8M0": true, "F4": true, "F6_E2M3": true, "F6_E3M2": true,
}

// String returns the dtype's name as written in safetensors headers.
func (d DType) String() string {
	if d > 0 && int(d) < len(dtypeNames) {
		return dtypeNames[d]
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// Size returns the size of one element in bytes (0 for an invalid DType).
func (d DType) Size() int {
	if d > 0 && int(d) < len(dtypeSizes) {
		return dtypeSizes[d]
	}
	return 0
}

// parseDType maps a header dtype name to a DType.
func parseDType(s string) (DType, error) {
	for d, name := range dtypeNames {
		if d > 0 && name == s {
			return DType(d), nil
		}
	}
	if knownUnsupported[s] {
		return 0, fmt.Errorf("%w: dtype %s (supported: F32, F16, BF16, I8, U8, I32, U32, I64)", ErrUnsupported, s)
	}
	return 0, fmt.Errorf("%w: unknown dtype %.80q", ErrFormat, s)
}
