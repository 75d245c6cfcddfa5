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
	for (uint i = 0u; i < shape.cols; i++) {
		uint e = base + i;
		acc += unpackHalf2x16(w[e >> 1u])[e & 1u] * x[i];
	}
	y[r] = acc;
}
