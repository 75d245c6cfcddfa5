#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct _37
{
    uint _m0;
};

struct _69
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(constant _37& _39 [[buffer(0)]], device _69& _71 [[buffer(1)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _152 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_152 >= _39._m0)
        {
            break;
        }
        uint _53 = 256u * _152;
        float _154;
        float _155;
        _155 = 0.0;
        _154 = 0.0;
        float _162;
        float _159;
        for (uint _153 = 0u; _153 < 256u; _155 = _159, _154 = _162, _153++)
        {
            uint _74 = _53 + _153;
            float _78 = abs(_71._m0[_74]);
            bool _81 = _78 > _154;
            if (_81)
            {
                _159 = _71._m0[_74];
            }
            else
            {
                _159 = _155;
            }
            _162 = _81 ? _78 : _154;
        }
        if (_154 == 0.0)
        {
            break;
        }
        float _101 = (-127.0) / _155;
        float _105 = (-0.0078740157186985015869140625) * _155;
        for (uint _156 = 0u; _156 < 256u; )
        {
            uint _116 = _53 + _156;
            _71._m0[_116] = _105 * fast::min(127.0, rint(_101 * _71._m0[_116]));
            _156++;
            continue;
        }
        break;
    } while(false);
}

