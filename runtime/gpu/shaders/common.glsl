// The bindings and helpers every matrix kernel shares. One invocation
// computes one output row for every input vector. Without shared memory or
// barriers it suits CPU drivers such as lavapipe, where a workgroup barrier
// is expensive; a GPU-tuned form (a subgroup reduction per row) is left for
// when it can be measured.
#include "index.glsl"

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Input { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

// rows × cols is the weight matrix, n the number of input vectors.
layout(push_constant) uniform Shape {
	uint rows;
	uint cols;
	uint n;
} shape;

// byteAt is byte o of the weights (the block formats are not word aligned).
uint byteAt(uint o) {
	return (w[o >> 2u] >> ((o & 3u) * 8u)) & 0xffu;
}

// signedByteAt is byte o of the weights as a two's complement integer.
int signedByteAt(uint o) {
	return int(byteAt(o) << 24u) >> 24;
}

// halfAt is the little-endian IEEE half float at byte o of the weights.
float halfAt(uint o) {
	return unpackHalf2x16(byteAt(o) | (byteAt(o + 1u) << 8u)).x;
}

// load32 decodes weights 32b to 32b+31 of row r into v; every kernel
// defines it before including matmul.glsl.
void load32(uint r, uint b, out vec4 v[8]);
