#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Q4_K: super-blocks of 144 bytes for 256 weights: half scales d and dmin,
// twelve bytes packing a 6-bit scale and a 6-bit minimum for each of the
// eight sub-blocks of 32, then 128 bytes of 4-bit q (sub-block 2c in the low
// nibbles of bytes 32c to 32c+31, sub-block 2c+1 in their high nibbles);
// weight = d*scale*q - dmin*min.
void load32(uint r, uint b, out vec4 v[8]) {
	uint j = b & 7u;
	uint o = (r * (shape.cols / 256u) + b / 8u) * 144u;
	float d = halfAt(o), dmin = halfAt(o + 2u);
	uint s = o + 4u;
	uint sc, mn;
	if (j < 4u) {
		sc = byteAt(s + j) & 63u;
		mn = byteAt(s + j + 4u) & 63u;
	} else {
		sc = (byteAt(s + j + 4u) & 15u) | ((byteAt(s + j - 4u) >> 6u) << 4u);
		mn = (byteAt(s + j + 4u) >> 4u) | ((byteAt(s + j) >> 6u) << 4u);
	}
	float scale = d * float(sc), bias = dmin * float(mn);
	uint q = o + 16u + 32u * (j >> 1u);
	uint shift = 4u * (j & 1u);
	for (uint i = 0u; i < 8u; i++) {
		uint e = q + 4u * i;
		uvec4 n = (uvec4(byteAt(e), byteAt(e + 1u), byteAt(e + 2u), byteAt(e + 3u)) >> shift) & 15u;
		v[i] = scale * vec4(n) - bias;
	}
}

#include "matmul.glsl"
