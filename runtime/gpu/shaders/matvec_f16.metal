#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct _78
{
    uint _m0;
    uint _m1;
};

struct _115
{
    uint _m0[1];
};

struct _129
{
    float _m0[1];
};

struct _150
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(constant _78& _80 [[buffer(0)]], const device _115& _117 [[buffer(1)]], const device _129& _131 [[buffer(2)]], device _150& _152 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    threadgroup float _41[64];
    do
    {
        uint _173 = (gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x;
        if (_173 >= _80._m0)
        {
            break;
        }
        uint _95 = _173 * _80._m1;
        float _207;
        _207 = 0.0;
        for (uint _206 = gl_LocalInvocationID.x; _206 < _80._m1; )
        {
            uint _113 = _95 + _206;
            _207 = fma(float2(as_type<half2>(_117._m0[_113 >> 1u]))[_113 & 1u], _131._m0[_206], _207);
            _206 += 64u;
            continue;
        }
        _41[gl_LocalInvocationID.x] = _207;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint _208 = 32u; _208 > 0u; _208 = _208 >> 1u)
        {
            if (gl_LocalInvocationID.x < _208)
            {
                _41[gl_LocalInvocationID.x] += _41[gl_LocalInvocationID.x + _208];
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (gl_LocalInvocationID.x == 0u)
        {
            _152._m0[_173] = _41[0];
        }
        break;
    } while(false);
}

