// Package shaders holds the GPU compute kernels: GLSL sources (*.comp),
// their SPIR-V for Vulkan (*.spv, embedded here) and the Metal Shading
// Language translated from the same SPIR-V (*.metal, not yet run anywhere).
// The generated files are committed so that go build needs no shader
// compiler; go generate remakes them with glslc and spirv-cross.
package shaders

import _ "embed"

//go:generate sh generate.sh

// Every kernel computes y[i*rows + r] = Σ_k W[r,k]·x[i*cols + k] for n
// float32 input vectors: it reads the weights at binding 0 (32-bit words, in
// their stored format), the inputs at binding 1 and writes the float32
// outputs at binding 2, with the push constants {rows, cols, n uint32}.
// cols is a multiple of the format's block (32, or 256 for the K-quants).

// MatMulF32 is the product with row-major float32 weights.
//
//go:embed matmul_f32.spv
var MatMulF32 []byte

// MatMulF16 is the product with row-major IEEE half weights.
//
//go:embed matmul_f16.spv
var MatMulF16 []byte

// MatMulBF16 is the product with row-major bfloat16 weights.
//
//go:embed matmul_bf16.spv
var MatMulBF16 []byte

// MatMulQ8_0 is the product with weights in ggml's Q8_0 blocks.
//
//go:embed matmul_q8_0.spv
var MatMulQ8_0 []byte

// MatMulQ4_0 is the product with weights in ggml's Q4_0 blocks.
//
//go:embed matmul_q4_0.spv
var MatMulQ4_0 []byte

// MatMulQ4_K is the product with weights in ggml's Q4_K super-blocks.
//
//go:embed matmul_q4_k.spv
var MatMulQ4_K []byte

// MatMulQ6_K is the product with weights in ggml's Q6_K super-blocks.
//
//go:embed matmul_q6_k.spv
var MatMulQ6_K []byte

// The activation kernels round float32 activations in place (binding 0) to
// the values of ggml's 8-bit blocks, with the push constant {blocks uint32}.

// QuantQ8_0 rounds blocks of 32 activations as Q8_0 holds them.
//
//go:embed quant_q8_0.spv
var QuantQ8_0 []byte

// QuantQ8_K rounds blocks of 256 activations as Q8_K holds them.
//
//go:embed quant_q8_k.spv
var QuantQ8_K []byte
