#version 450
// Rounds float32 activations, in place, to the values ggml's Q8_K blocks
// hold, as the CPU kernels quantize them for the K-quant weights: for each
// block of 256, the value of largest magnitude m maps to -127, q = x·(-127/m)
// rounded to nearest even and clamped at 127, and x becomes q·(m/-127).
#extension GL_GOOGLE_include_directive : require
#include "index.glsl"

layout(std430, binding = 0) buffer Activations { float x[]; };

// blocks is the number of 256-value blocks in x.
layout(push_constant) uniform Shape { uint blocks; } shape;

void main() {
	uint b = invocationIndex();
	if (b >= shape.blocks) {
		return;
	}
	uint o = 256u * b;
	float amax = 0.0, m = 0.0;
	for (uint i = 0u; i < 256u; i++) {
		float a = abs(x[o + i]);
		if (a > amax) {
			amax = a;
			m = x[o + i];
		}
	}
	if (amax == 0.0) {
		return;
	}
	float iscale = -127.0 / m;
	float d = 1.0 / iscale;
	for (uint i = 0u; i < 256u; i++) {
		x[o + i] = d * min(127.0, roundEven(iscale * x[o + i]));
	}
}
