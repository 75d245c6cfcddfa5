#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Q4_0: blocks of 18 bytes for 32 weights, a half scale d then 16 bytes
// whose low nibbles are weights 0–15 and high nibbles weights 16–31;
// weight = d*(q-8).
void load32(uint r, uint b, out vec4 v[8]) {
	uint o = (r * (shape.cols / 32u) + b) * 18u;
	float d = halfAt(o);
	o += 2u;
	for (uint i = 0u; i < 4u; i++) {
		uvec4 q = uvec4(byteAt(o + 4u * i), byteAt(o + 4u * i + 1u), byteAt(o + 4u * i + 2u), byteAt(o + 4u * i + 3u));
		v[i] = d * (vec4(q & 15u) - 8.0);
		v[i + 4u] = d * (vec4(q >> 4u) - 8.0);
	}
}

#include "matmul.glsl"
