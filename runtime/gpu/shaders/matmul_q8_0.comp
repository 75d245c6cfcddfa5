#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Q8_0: blocks of 34 bytes for 32 weights, a half scale d then 32 signed
// bytes q; weight = d*q.
void load32(uint r, uint b, out vec4 v[8]) {
	uint o = (r * (shape.cols / 32u) + b) * 34u;
	float d = halfAt(o);
	o += 2u;
	for (uint i = 0u; i < 8u; i++) {
		uint q = o + 4u * i;
		v[i] = d * vec4(signedByteAt(q), signedByteAt(q + 1u), signedByteAt(q + 2u), signedByteAt(q + 3u));
	}
}

#include "matmul.glsl"
