// One workgroup computes one output row: its 64 invocations stride over the
// row, then a tree reduction in shared memory sums their parts. Rows past
// 65535 go in the second dispatch dimension, the minimum limit of the first.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Input { float x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

layout(push_constant) uniform Shape {
	uint rows;
	uint cols;
} shape;

shared float part[64];

// rowIndex is the output row of this workgroup.
uint rowIndex() {
	return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

// reduce sums part[] into part[0]; every invocation must call it.
void reduce(float acc) {
	uint t = gl_LocalInvocationID.x;
	part[t] = acc;
	barrier();
	for (uint s = 32u; s > 0u; s >>= 1u) {
		if (t < s) {
			part[t] += part[t + s];
		}
		barrier();
	}
}
