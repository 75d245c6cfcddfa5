#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct _44
{
    uint _m0[1];
};

struct _79
{
    uint _m0;
    uint _m1;
};

struct _148
{
    float _m0[1];
};

struct _171
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(const device _44& _46 [[buffer(0)]], constant _79& _81 [[buffer(1)]], const device _148& _150 [[buffer(2)]], device _171& _173 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _197 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_197 >= _81._m0)
        {
            break;
        }
        uint _95 = _81._m1 / 32u;
        uint _99 = _197 * _95;
        uint _240;
        float _241;
        _241 = 0.0;
        _240 = 0u;
        float _167;
        for (; _240 < _95; _241 = _167, _240++)
        {
            uint _118 = 34u * (_99 + _240);
            uint _124 = _118 + 1u;
            float _243;
            _243 = 0.0;
            for (uint _242 = 0u; _242 < 32u; )
            {
                uint _144 = (_118 + 2u) + _242;
                _243 = fma(float(int(((_46._m0[_144 >> 2u] >> ((_144 & 3u) * 8u)) & 255u) << 24u) >> 24), _150._m0[(_240 * 32u) + _242], _243);
                _242++;
                continue;
            }
            _167 = fma(float2(as_type<half2>(((_46._m0[_118 >> 2u] >> ((_118 & 3u) * 8u)) & 255u) | (((_46._m0[_124 >> 2u] >> ((_124 & 3u) * 8u)) & 255u) << 8u))).x, _243, _241);
        }
        _173._m0[_197] = _241;
        break;
    } while(false);
}

