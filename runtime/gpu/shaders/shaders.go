// Package shaders holds the GPU compute kernels: GLSL sources (*.comp),
// their SPIR-V for Vulkan (*.spv, embedded here) and the Metal Shading
// Language translated from the same SPIR-V (*.metal, not yet run anywhere).
// The generated files are committed so that go build needs no shader
// compiler; go generate remakes them with glslc and spirv-cross.
package shaders

import _ "embed"

//go:generate sh generate.sh

// Every kernel reads its weights at binding 0 (32-bit words), the input
// vector at binding 1 and writes the output at binding 2 (float32), with the
// push constants {rows, cols uint32}.

// MatVecF16 is y = W·x for a row-major F16 matrix.
//
//go:embed matvec_f16.spv
var MatVecF16 []byte

// MatVecQ8_0 is y = W·x for a matrix in ggml's Q8_0 blocks.
//
//go:embed matvec_q8_0.spv
var MatVecQ8_0 []byte
