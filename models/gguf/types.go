package gguf

import "fmt"

// TensorType is a ggml tensor element type, numbered as in ggml.
type TensorType uint32

// Tensor types. Numbers 4, 5, 31–33 and 36–38 belonged to layouts that
// ggml has removed; they are named but have no size.
const (
	TypeF32     TensorType = 0
	TypeF16     TensorType = 1
	TypeQ4_0    TensorType = 2
	TypeQ4_1    TensorType = 3
	TypeQ5_0    TensorType = 6
	TypeQ5_1    TensorType = 7
	TypeQ8_0    TensorType = 8
	TypeQ8_1    TensorType = 9
	TypeQ2_K    TensorType = 10
	TypeQ3_K    TensorType = 11
	TypeQ4_K    TensorType = 12
	TypeQ5_K    TensorType = 13
	TypeQ6_K    TensorType = 14
	TypeQ8_K    TensorType = 15
	TypeIQ2_XXS TensorType = 16
	TypeIQ2_XS  TensorType = 17
	TypeIQ3_XXS TensorType = 18
	TypeIQ1_S   TensorType = 19
	TypeIQ4_NL  TensorType = 20
	TypeIQ3_S   TensorType = 21
	TypeIQ2_S   TensorType = 22
	TypeIQ4_XS  TensorType = 23
	TypeI8      TensorType = 24
	TypeI16     TensorType = 25
	TypeI32     TensorType = 26
	TypeI64     TensorType = 27
	TypeF64     TensorType = 28
	TypeIQ1_M   TensorType = 29
	TypeBF16    TensorType = 30
	TypeTQ1_0   TensorType = 34
	TypeTQ2_0   TensorType = 35
	TypeMXFP4   TensorType = 39
)

// typeInfo is what ggml's type traits say about a type: its name, the
// elements per block and the bytes per block (0 when the layout is unknown).
type typeInfo struct {
	name        string
	block, size int
}

var typeInfos = map[TensorType]typeInfo{
	TypeF32: {"F32", 1, 4}, TypeF16: {"F16", 1, 2}, TypeBF16: {"BF16", 1, 2}, TypeF64: {"F64", 1, 8},
	TypeI8: {"I8", 1, 1}, TypeI16: {"I16", 1, 2}, TypeI32: {"I32", 1, 4}, TypeI64: {"I64", 1, 8},
	TypeQ4_0: {"Q4_0", 32, 18}, TypeQ4_1: {"Q4_1", 32, 20},
	TypeQ5_0: {"Q5_0", 32, 22}, TypeQ5_1: {"Q5_1", 32, 24},
	TypeQ8_0: {"Q8_0", 32, 34}, TypeQ8_1: {"Q8_1", 32, 36},
	TypeQ2_K: {"Q2_K", 256, 84}, TypeQ3_K: {"Q3_K", 256, 110}, TypeQ4_K: {"Q4_K", 256, 144},
	TypeQ5_K: {"Q5_K", 256, 176}, TypeQ6_K: {"Q6_K", 256, 210}, TypeQ8_K: {"Q8_K", 256, 292},
	TypeIQ2_XXS: {"IQ2_XXS", 256, 66}, TypeIQ2_XS: {"IQ2_XS", 256, 74}, TypeIQ2_S: {"IQ2_S", 256, 82},
	TypeIQ3_XXS: {"IQ3_XXS", 256, 98}, TypeIQ3_S: {"IQ3_S", 256, 110},
	TypeIQ1_S: {"IQ1_S", 256, 50}, TypeIQ1_M: {"IQ1_M", 256, 56},
	TypeIQ4_NL: {"IQ4_NL", 32, 18}, TypeIQ4_XS: {"IQ4_XS", 256, 136},
	TypeTQ1_0: {"TQ1_0", 256, 54}, TypeTQ2_0: {"TQ2_0", 256, 66},
	TypeMXFP4: {"MXFP4", 32, 17},
	// Removed from ggml, or newer than this table: named only.
	4: {name: "Q4_2"}, 5: {name: "Q4_3"},
	31: {name: "Q4_0_4_4"}, 32: {name: "Q4_0_4_8"}, 33: {name: "Q4_0_8_8"},
	36: {name: "IQ4_NL_4_4"}, 37: {name: "IQ4_NL_4_8"}, 38: {name: "IQ4_NL_8_8"},
	40: {name: "NVFP4"}, 41: {name: "Q1_0"},
}

// String returns the ggml name of the type ("F32", "Q4_K", ...).
func (t TensorType) String() string {
	if ti, ok := typeInfos[t]; ok {
		return ti.name
	}
	return fmt.Sprintf("TensorType(%d)", uint32(t))
}

// BlockSize returns the number of elements in one block: 1 for plain
// types, 32 or 256 for quantized ones, 0 when the layout is unknown.
func (t TensorType) BlockSize() int { return typeInfos[t].block }

// TypeSize returns the number of bytes in one block, 0 when unknown.
func (t TensorType) TypeSize() int { return typeInfos[t].size }
