#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// F32: row-major float32 weights.
void load32(uint r, uint b, out vec4 v[8]) {
	uint o = r * shape.cols + b * 32u;
	for (uint i = 0u; i < 8u; i++) {
		uint e = o + 4u * i;
		v[i] = uintBitsToFloat(uvec4(w[e], w[e + 1u], w[e + 2u], w[e + 3u]));
	}
}

#include "matmul.glsl"
