#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct _37
{
    uint _m0;
    uint _m1;
};

struct _75
{
    uint _m0[1];
};

struct _89
{
    float _m0[1];
};

struct _102
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(constant _37& _39 [[buffer(0)]], const device _75& _77 [[buffer(1)]], const device _89& _91 [[buffer(2)]], device _102& _104 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _128 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_128 >= _39._m0)
        {
            break;
        }
        uint _55 = _128 * _39._m1;
        float _130;
        _130 = 0.0;
        for (uint _129 = 0u; _129 < _39._m1; )
        {
            uint _73 = _55 + _129;
            _130 = fma(float2(as_type<half2>(_77._m0[_73 >> 1u]))[_73 & 1u], _91._m0[_129], _130);
            _129++;
            continue;
        }
        _104._m0[_128] = _130;
        break;
    } while(false);
}

