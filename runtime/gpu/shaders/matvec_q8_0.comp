#version 450
// y = W·x for W in ggml's Q8_0 blocks: 34 bytes per 32 weights, a half
// scale d then 32 signed bytes q, weight = d*q. Blocks are not word aligned,
// so bytes are read out of the words that hold them.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

uint byteAt(uint o) {
	return (w[o >> 2u] >> ((o & 3u) * 8u)) & 0xffu;
}

float signedByte(uint o) {
	return float(int(byteAt(o) << 24u) >> 24);
}

void main() {
	uint r = rowIndex();
	if (r >= shape.rows) {
		return;
	}
	uint nb = shape.cols / 32u;
	uint base = r * nb * 34u;
	float acc = 0.0;
	for (uint b = 0u; b < nb; b++) {
		uint o = base + b * 34u;
		float d = unpackHalf2x16(byteAt(o) | (byteAt(o + 1u) << 8u)).x;
		float s = 0.0;
		for (uint i = 0u; i < 32u; i++) {
			s += signedByte(o + 2u + i) * x[b * 32u + i];
		}
		acc += d * s;
	}
	y[r] = acc;
}
