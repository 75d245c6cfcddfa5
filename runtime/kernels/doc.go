// Package kernels holds the compute kernels of the inference engine: weight
// matrices in their stored formats (F32, F16, BF16, the GGUF block formats
// Q8_0 … Q6_K and MXFP4, and MLX affine 4/8-bit), matrix × vector products
// split across a fixed pool of workers, and the vector primitives of a
// transformer layer (dot, axpy, RMSNorm, SiLU, softmax).
//
// Every operation has a plain Go reference implementation. On amd64 (AVX2,
// FMA, F16C) and arm64 (NEON, SDOT when present) the hot loops have assembly
// versions, chosen at start-up from golang.org/x/sys/cpu: the F32/F16/BF16
// dots, Axpy and AxpyF16, the F16 conversions, Q8_0 activation
// quantization, the integer dots of every GGUF format, and the 4-bit MLX
// group sums. The 32-element formats (and, on amd64, Q4_K and Q6_K) take four
// activation rows per weight block, which is what a prefill needs. The build
// tag noasm, or SetReference(true), forces the reference code everywhere;
// Cap limits the assembly to a lower instruction-set level than the CPU's
// (level.go); Implementation names the kernels in use.
//
// For the GGUF quantized formats the activations are quantized to 8 bits the
// way ggml does it (Q8_0, Q8_1 or Q8_K blocks) and the dot products are
// computed in integers, so results follow llama.cpp closely. MLX 4-bit
// matrices take the same road by default (repacked at load for the Q4_0
// tile kernels, affine_pack.go), with the group biases added in float:
// their results are within the bounds of Q4_0 against exact float math
// (2e-2 of Σ|w·x| per output in the tests), not within 1e-3 of MLX's
// own results. SetAffineInt8(false) keeps the float kernels, which are
// (the MLX fixture tests check both); MLX 8-bit and matrices whose scales
// are not exact in fp16 always use them.
//
// The kernels assume a little-endian host, as are all the platforms the
// project ships for; NewMatrix refuses to work on a big-endian one.
package kernels
