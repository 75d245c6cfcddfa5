#version 450
// y = W·x for W of rows × cols IEEE half floats, row-major, two to a word
// (element i of the matrix is half i&1 of word i>>1).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

void main() {
	uint r = rowIndex();
	if (r >= shape.rows) {
		return;
	}
	uint base = r * shape.cols;
	float acc = 0.0;
	for (uint i = gl_LocalInvocationID.x; i < shape.cols; i += 64u) {
		uint e = base + i;
		acc += unpackHalf2x16(w[e >> 1u])[e & 1u] * x[i];
	}
	reduce(acc);
	if (gl_LocalInvocationID.x == 0u) {
		y[r] = part[0];
	}
}
