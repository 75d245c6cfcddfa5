// 64 invocations to a workgroup; groups past 65535, the guaranteed limit of
// the first dispatch dimension, go in the second.
layout(local_size_x = 64) in;

// invocationIndex numbers the invocations of a dispatch from 0.
uint invocationIndex() {
	return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}
