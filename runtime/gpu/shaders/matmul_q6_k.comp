#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Q6_K: super-blocks of 210 bytes for 256 weights: 128 bytes of the low
// four bits (ql), 64 bytes of the high two bits (qh), sixteen signed 8-bit
// scales (one per 16 weights) and a half scale d; weight = d*scale*(q-32).
// Each half of 128 weights takes 64 bytes of ql, 32 of qh and 8 scales; its
// quarter k (32 weights) reads ql bytes 32*(k&1) on, nibble k>>1, and bits
// 2k of qh.
void load32(uint r, uint b, out vec4 v[8]) {
	uint j = b & 7u, h = j >> 2u, k = j & 3u;
	uint o = (r * (shape.cols / 256u) + b / 8u) * 210u;
	float d = halfAt(o + 208u);
	uint ql = o + 64u * h + 32u * (k & 1u), qh = o + 128u + 32u * h;
	uint lshift = 4u * (k >> 1u), hshift = 2u * k;
	for (uint i = 0u; i < 8u; i++) {
		float scale = d * float(signedByteAt(o + 192u + 8u * h + (4u * i) / 16u + 2u * k));
		vec4 t;
		for (uint c = 0u; c < 4u; c++) {
			uint l = 4u * i + c;
			uint q = ((byteAt(ql + l) >> lshift) & 15u) | (((byteAt(qh + l) >> hshift) & 3u) << 4u);
			t[c] = float(int(q) - 32);
		}
		v[i] = scale * t;
	}
}

#include "matmul.glsl"
