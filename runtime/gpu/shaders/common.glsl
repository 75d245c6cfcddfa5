// One invocation computes one output row, 64 rows to a workgroup; groups
// past 65535, the guaranteed limit of the first dispatch dimension, go in
// the second. Without shared memory or barriers it suits CPU drivers such
// as lavapipe, where a workgroup barrier is expensive; a GPU-tuned form
// (a subgroup reduction per row) is left for when it can be measured.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Weights { uint w[]; };
layout(std430, binding = 1) readonly buffer Input { float x[]; };
layout(std430, binding = 2) writeonly buffer Output { float y[]; };

layout(push_constant) uniform Shape {
	uint rows;
	uint cols;
} shape;

// rowIndex is the output row of this invocation.
uint rowIndex() {
	return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}
