#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wmissing-braces"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

template<typename T, size_t Num>
struct spvUnsafeArray
{
    T elements[Num ? Num : 1];
    
    thread T& operator [] (size_t pos) thread
    {
        return elements[pos];
    }
    constexpr const thread T& operator [] (size_t pos) const thread
    {
        return elements[pos];
    }
    
    device T& operator [] (size_t pos) device
    {
        return elements[pos];
    }
    constexpr const device T& operator [] (size_t pos) const device
    {
        return elements[pos];
    }
    
    constexpr const constant T& operator [] (size_t pos) const constant
    {
        return elements[pos];
    }
    
    threadgroup T& operator [] (size_t pos) threadgroup
    {
        return elements[pos];
    }
    constexpr const threadgroup T& operator [] (size_t pos) const threadgroup
    {
        return elements[pos];
    }
};

struct _59
{
    uint _m0[1];
};

struct _114
{
    uint _m0;
    uint _m1;
    uint _m2;
};

struct _343
{
    float4 _m0[1];
};

struct _381
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(const device _59& _61 [[buffer(0)]], constant _114& _116 [[buffer(1)]], const device _343& _345 [[buffer(2)]], device _381& _383 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _421 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_421 >= _116._m0)
        {
            break;
        }
        uint _253 = _116._m1 / 32u;
        uint _257 = _116._m1 / 4u;
        spvUnsafeArray<float, 8> _285;
        spvUnsafeArray<float4, 8> _305;
        float4 _440;
        for (uint _620 = 0u; _620 < _116._m2; _620 += 8u)
        {
            uint _274 = min(8u, (_116._m2 - _620));
            for (uint _621 = 0u; _621 < 8u; )
            {
                _285[_621] = 0.0;
                _621++;
                continue;
            }
            for (uint _622 = 0u; _622 < _253; _622++)
            {
                uint _443 = _622 & 7u;
                uint _445 = _443 >> 2u;
                uint _447 = _443 & 3u;
                uint _456 = ((_421 * (_116._m1 / 256u)) + (_622 / 8u)) * 210u;
                uint _458 = _456 + 208u;
                uint _550 = _456 + 209u;
                float2 _554 = float2(as_type<half2>(((_61._m0[_458 >> 2u] >> ((_458 & 3u) * 8u)) & 255u) | (((_61._m0[_550 >> 2u] >> ((_550 & 3u) * 8u)) & 255u) << 8u)));
                float _555 = _554.x;
                uint _467 = (_456 + (64u * _445)) + (32u * (_447 & 1u));
                uint _472 = (_456 + 128u) + (32u * _445);
                uint _475 = 4u * (_447 >> 1u);
                uint _477 = 2u * _447;
                for (uint _628 = 0u; _628 < 8u; _628++)
                {
                    uint _490 = 4u * _628;
                    uint _495 = (((_456 + 192u) + (8u * _445)) + (_490 / 16u)) + _477;
                    for (uint _638 = 0u; _638 < 4u; )
                    {
                        uint _507 = _490 + _638;
                        uint _510 = _467 + _507;
                        uint _517 = _472 + _507;
                        _440[_638] = float(int(((((_61._m0[_510 >> 2u] >> ((_510 & 3u) * 8u)) & 255u) >> _475) & 15u) | (((((_61._m0[_517 >> 2u] >> ((_517 & 3u) * 8u)) & 255u) >> _477) & 3u) << 4u)) - 32);
                        _638++;
                        continue;
                    }
                    _305[_628] = _440 * (_555 * float(int(((_61._m0[_495 >> 2u] >> ((_495 & 3u) * 8u)) & 255u) << 24u) >> 24));
                }
                spvUnsafeArray<float4, 8> _300;
                _300 = _305;
                for (uint _629 = 0u; _629 < 8u; _629++)
                {
                    if (_629 < _274)
                    {
                        uint _329 = ((_620 + _629) * _257) + (_622 * 8u);
                        float _636;
                        _636 = 0.0;
                        for (uint _634 = 0u; _634 < 8u; )
                        {
                            _636 += dot(_300[_634], _345._m0[_329 + _634]);
                            _634++;
                            continue;
                        }
                        _285[_629] += _636;
                    }
                }
            }
            for (uint _623 = 0u; _623 < 8u; _623++)
            {
                if (_623 < _274)
                {
                    _383._m0[((_620 + _623) * _116._m0) + _421] = _285[_623];
                }
            }
        }
        break;
    } while(false);
}

