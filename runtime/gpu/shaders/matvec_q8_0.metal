#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct _84
{
    uint _m0[1];
};

struct _118
{
    uint _m0;
    uint _m1;
};

struct _186
{
    float _m0[1];
};

struct _217
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(const device _84& _86 [[buffer(0)]], constant _118& _120 [[buffer(1)]], const device _186& _188 [[buffer(2)]], device _217& _219 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    threadgroup float _49[64];
    do
    {
        uint _240 = (gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x;
        if (_240 >= _120._m0)
        {
            break;
        }
        uint _132 = _120._m1 / 32u;
        uint _136 = _240 * _132;
        uint _315;
        float _316;
        _316 = 0.0;
        _315 = gl_LocalInvocationID.x;
        float _205;
        for (; _315 < _132; _316 = _205, _315 += 64u)
        {
            uint _156 = 34u * (_136 + _315);
            uint _162 = _156 + 1u;
            float _320;
            _320 = 0.0;
            for (uint _319 = 0u; _319 < 32u; )
            {
                uint _182 = (_156 + 2u) + _319;
                _320 = fma(float(int(((_86._m0[_182 >> 2u] >> ((_182 & 3u) * 8u)) & 255u) << 24u) >> 24), _188._m0[(_315 * 32u) + _319], _320);
                _319++;
                continue;
            }
            _205 = fma(float2(as_type<half2>(((_86._m0[_156 >> 2u] >> ((_156 & 3u) * 8u)) & 255u) | (((_86._m0[_162 >> 2u] >> ((_162 & 3u) * 8u)) & 255u) << 8u))).x, _320, _316);
        }
        _49[gl_LocalInvocationID.x] = _316;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint _317 = 32u; _317 > 0u; _317 = _317 >> 1u)
        {
            if (gl_LocalInvocationID.x < _317)
            {
                _49[gl_LocalInvocationID.x] += _49[gl_LocalInvocationID.x + _317];
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (gl_LocalInvocationID.x == 0u)
        {
            _219._m0[_240] = _49[0];
        }
        break;
    } while(false);
}

