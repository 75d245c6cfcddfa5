#version 450
// Rounds float32 activations, in place, to the values ggml's Q8_0 blocks
// hold, as the CPU kernels quantize them for Q8_0 and Q4_0 weights: for
// each block of 32, d = amax/127 (kept as a half float), q = x·127/amax
// rounded to nearest even, and x becomes d·q. The matrix kernels then sum
// exactly the products the CPU's integer dot products do.
#extension GL_GOOGLE_include_directive : require
#include "index.glsl"

layout(std430, binding = 0) buffer Activations { float x[]; };

// blocks is the number of 32-value blocks in x.
layout(push_constant) uniform Shape { uint blocks; } shape;

void main() {
	uint b = invocationIndex();
	if (b >= shape.blocks) {
		return;
	}
	uint o = 32u * b;
	float amax = 0.0;
	for (uint i = 0u; i < 32u; i++) {
		amax = max(amax, abs(x[o + i]));
	}
	float d = amax / 127.0;
	float id = amax != 0.0 ? 127.0 / amax : 0.0;
	float dh = unpackHalf2x16(packHalf2x16(vec2(d, 0.0))).x;
	for (uint i = 0u; i < 32u; i++) {
		x[o + i] = dh * roundEven(x[o + i] * id);
	}
}
