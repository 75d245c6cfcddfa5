#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct _37
{
    uint _m0;
};

struct _68
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(constant _37& _39 [[buffer(0)]], device _68& _70 [[buffer(1)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _147 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_147 >= _39._m0)
        {
            break;
        }
        uint _53 = 32u * _147;
        float _149;
        _149 = 0.0;
        for (uint _148 = 0u; _148 < 32u; )
        {
            _149 = fast::max(_149, abs(_70._m0[_53 + _148]));
            _148++;
            continue;
        }
        float _150;
        if (_149 != 0.0)
        {
            _150 = 127.0 / _149;
        }
        else
        {
            _150 = 0.0;
        }
        float2 _101 = float2(as_type<half2>(as_type<uint>(half2(float2(_149 * 0.0078740157186985015869140625, 0.0)))));
        float _102 = _101.x;
        for (uint _151 = 0u; _151 < 32u; )
        {
            uint _113 = _53 + _151;
            _70._m0[_113] = _102 * rint(_70._m0[_113] * _150);
            _151++;
            continue;
        }
        break;
    } while(false);
}

