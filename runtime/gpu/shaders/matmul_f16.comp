#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// F16: row-major IEEE half floats, two to a word, the lower one first.
void load32(uint r, uint b, out vec4 v[8]) {
	uint o = (r * shape.cols + b * 32u) / 2u;
	for (uint i = 0u; i < 8u; i++) {
		v[i] = vec4(unpackHalf2x16(w[o + 2u * i]), unpackHalf2x16(w[o + 2u * i + 1u]));
	}
}

#include "matmul.glsl"
