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

struct _104
{
    uint _m0;
    uint _m1;
    uint _m2;
};

struct _269
{
    float4 _m0[1];
};

struct _307
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(const device _59& _61 [[buffer(0)]], constant _104& _106 [[buffer(1)]], const device _269& _271 [[buffer(2)]], device _307& _309 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _347 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_347 >= _106._m0)
        {
            break;
        }
        uint _179 = _106._m1 / 32u;
        uint _183 = _106._m1 / 4u;
        spvUnsafeArray<float, 8> _211;
        spvUnsafeArray<float4, 8> _231;
        for (uint _515 = 0u; _515 < _106._m2; _515 += 8u)
        {
            uint _200 = min(8u, (_106._m2 - _515));
            for (uint _516 = 0u; _516 < 8u; )
            {
                _211[_516] = 0.0;
                _516++;
                continue;
            }
            for (uint _517 = 0u; _517 < _179; _517++)
            {
                uint _365 = ((_347 * _179) + _517) * 34u;
                uint _410 = _365 + 1u;
                float2 _414 = float2(as_type<half2>(((_61._m0[_365 >> 2u] >> ((_365 & 3u) * 8u)) & 255u) | (((_61._m0[_410 >> 2u] >> ((_410 & 3u) * 8u)) & 255u) << 8u)));
                float _415 = _414.x;
                uint _369 = _365 + 2u;
                for (uint _523 = 0u; _523 < 8u; )
                {
                    uint _378 = _369 + (4u * _523);
                    uint _385 = _378 + 1u;
                    uint _389 = _378 + 2u;
                    uint _393 = _378 + 3u;
                    _231[_523] = float4(float(int(((_61._m0[_378 >> 2u] >> ((_378 & 3u) * 8u)) & 255u) << 24u) >> 24), float(int(((_61._m0[_385 >> 2u] >> ((_385 & 3u) * 8u)) & 255u) << 24u) >> 24), float(int(((_61._m0[_389 >> 2u] >> ((_389 & 3u) * 8u)) & 255u) << 24u) >> 24), float(int(((_61._m0[_393 >> 2u] >> ((_393 & 3u) * 8u)) & 255u) << 24u) >> 24)) * _415;
                    _523++;
                    continue;
                }
                spvUnsafeArray<float4, 8> _226;
                _226 = _231;
                for (uint _524 = 0u; _524 < 8u; _524++)
                {
                    if (_524 < _200)
                    {
                        uint _255 = ((_515 + _524) * _183) + (_517 * 8u);
                        float _531;
                        _531 = 0.0;
                        for (uint _529 = 0u; _529 < 8u; )
                        {
                            _531 += dot(_226[_529], _271._m0[_255 + _529]);
                            _529++;
                            continue;
                        }
                        _211[_524] += _531;
                    }
                }
            }
            for (uint _518 = 0u; _518 < 8u; _518++)
            {
                if (_518 < _200)
                {
                    _309._m0[((_515 + _518) * _106._m0) + _347] = _211[_518];
                }
            }
        }
        break;
    } while(false);
}

