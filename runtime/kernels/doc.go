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
// tile kernels, pack_affine.go), with the group biases added in float:
// their results are within the bounds of Q4_0 against exact float math
// (2e-2 of Σ|w·x| per output in the tests), not within 1e-3 of MLX's
// own results. SetAffineInt8(false) keeps the float kernels, which multiply
// the weights with the float activations (within 1e-5 of Σ|w·x| in the
// tests; the MLX fixture tests check both ways); MLX 8-bit and matrices
// whose scales are not exact in fp16 always use them.
//
// # Where each operation lives
//
// Files follow internal/bytealg: OP.go holds the reference code and its
// documentation, OP_amd64.go and OP_arm64.go the //go:noescape declarations
// of OP_amd64.s and OP_arm64.s and the function that installs them, and
// dispatch_*.go the choice of kernels for the CPU. OP_asm.go holds the
// slice-checking wrappers that both architectures share.
//
//	operation                             reference             amd64                 arm64
//	kernel choice, Cap, Implementation    dispatch.go level.go  dispatch_amd64.go     dispatch_arm64.go
//	  (no assembly: other GOARCH, noasm)  dispatch_generic.go
//	float dot, axpy, F16/BF16 dot         dot.go                dot_amd64.s           dot_arm64.s
//	half ↔ float conversion               half.go               dot_amd64.s           dot_arm64.s
//	exp, SiLU·up, softmax's shifted sum   exp.go                exp_amd64.s           -
//	RMSNorm, softmax, scale, add          ops.go                -                     -
//	GELU, GELU·up, softcap                act.go                -                     -
//	attention over a KV cache block       attn.go               attn_amd64.s          -
//	attention over Q8_0/Q4_0 cache rows   kvquant.go            kvquant_amd64.s       kvquant_arm64.s
//	  (asm wrappers; arm64 scores)        kvquant_asm.go        -                     qdot_arm64.s
//	activations to Q8_0, Q8_1, Q8_K       quantize.go           quantize_amd64.s      quantize_arm64.s
//	activations for packed K-quants       quantizekp.go         quantizekp_amd64.s    -
//	GGUF block decoding, Decode, Row      blocks.go dequant.go  -                     -
//	row dot Q8_0 Q4_0 Q4_1 Q5_0 Q5_1      qdot.go qdot_asm.go   qdot_amd64.s          qdot_arm64.s
//	row dot Q4_K Q5_K Q6_K                qdot.go               qdotk_amd64.s         qdot_arm64.s
//	row dot MXFP4, MXFP4 from HF          mxfp4.go              mxfp4_amd64.s         qdot_arm64.s
//	MLX affine row (group sums)           affine.go             affine_amd64.s        affine_arm64.s
//	MLX affine bias term                  affine_bias.go        affine_bias_amd64.s   -
//	pack Q4_0 Q8_0 MXFP4 (4-row tiles)    pack.go               -                     -
//	pack Q8_0 (8-row tiles)               pack_q8x8.go          -                     -
//	pack Q5_0 as Q8_0                     pack_q5.go            -                     -
//	pack Q4_K Q6_K                        pack_kquant.go        -                     -
//	pack MLX 4-bit as Q4_0                pack_affine.go        -                     -
//	read a packed row back                unpack.go             -                     -
//	tile matmul Q4_0 Q8_0 MXFP4           gemm.go               gemm_amd64.s          -
//	tile matmul Q8_0, 8-row groups        gemm.go               gemm8_amd64.s         -
//	tile matmul Q4_K Q6_K                 gemm.go               gemmk_amd64.s         -
//	  (AVX2)                              -                     gemmk_avx2_amd64.s    -
//	tile matmul F16 BF16                  gemmhalf.go           gemmhalf_amd64.s      -
//	matmul driver, worker pool            matmul.go pool.go     -                     -
//	prefetch of strided rows              prefetch.go           prefetch_amd64.s      -
//	weight matrix, formats, row split     matrix.go dtype.go split.go
//
// Every .s file has its .go file of the same name; the shared assembly
// macros are in asm_amd64.h, asm_arm64.h, qdot_amd64.h, qdot_arm64.h and
// kquant_amd64.h.
//
// The kernels assume a little-endian host, as are all the platforms the
// project ships for; NewMatrix refuses to work on a big-endian one.
package kernels
