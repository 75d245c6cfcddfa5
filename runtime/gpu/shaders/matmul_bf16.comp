#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// BF16: row-major bfloat16, the upper halves of float32s, two to a word.
vec2 bf16x2(uint u) {
	return uintBitsToFloat(uvec2(u << 16u, u & 0xffff0000u));
}

void load32(uint r, uint b, out vec4 v[8]) {
	uint o = (r * shape.cols + b * 32u) / 2u;
	for (uint i = 0u; i < 8u; i++) {
		v[i] = vec4(bf16x2(w[o + 2u * i]), bf16x2(w[o + 2u * i + 1u]));
	}
}

#include "matmul.glsl"
