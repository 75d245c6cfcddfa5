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

struct _54
{
    uint _m0[1];
};

struct _90
{
    uint _m0;
    uint _m1;
    uint _m2;
};

struct _280
{
    float4 _m0[1];
};

struct _318
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(const device _54& _56 [[buffer(0)]], constant _90& _92 [[buffer(1)]], const device _280& _282 [[buffer(2)]], device _318& _320 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _358 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_358 >= _92._m0)
        {
            break;
        }
        uint _190 = _92._m1 / 32u;
        uint _194 = _92._m1 / 4u;
        spvUnsafeArray<float, 8> _222;
        spvUnsafeArray<float4, 8> _242;
        for (uint _514 = 0u; _514 < _92._m2; _514 += 8u)
        {
            uint _211 = min(8u, (_92._m2 - _514));
            for (uint _515 = 0u; _515 < 8u; )
            {
                _222[_515] = 0.0;
                _515++;
                continue;
            }
            for (uint _516 = 0u; _516 < _190; _516++)
            {
                uint _376 = ((_358 * _190) + _516) * 18u;
                uint _442 = _376 + 1u;
                float2 _446 = float2(as_type<half2>(((_56._m0[_376 >> 2u] >> ((_376 & 3u) * 8u)) & 255u) | (((_56._m0[_442 >> 2u] >> ((_442 & 3u) * 8u)) & 255u) << 8u)));
                float _447 = _446.x;
                uint _380 = _376 + 2u;
                for (uint _522 = 0u; _522 < 4u; )
                {
                    uint _389 = _380 + (4u * _522);
                    uint _395 = _389 + 1u;
                    uint _401 = _389 + 2u;
                    uint _407 = _389 + 3u;
                    uint4 _409 = uint4((_56._m0[_389 >> 2u] >> ((_389 & 3u) * 8u)) & 255u, (_56._m0[_395 >> 2u] >> ((_395 & 3u) * 8u)) & 255u, (_56._m0[_401 >> 2u] >> ((_401 & 3u) * 8u)) & 255u, (_56._m0[_407 >> 2u] >> ((_407 & 3u) * 8u)) & 255u);
                    _242[_522] = (float4(_409 & uint4(15u)) - float4(8.0)) * _447;
                    _242[_522 + 4u] = (float4(_409 >> uint4(4u)) - float4(8.0)) * _447;
                    _522++;
                    continue;
                }
                spvUnsafeArray<float4, 8> _237;
                _237 = _242;
                for (uint _523 = 0u; _523 < 8u; _523++)
                {
                    if (_523 < _211)
                    {
                        uint _266 = ((_514 + _523) * _194) + (_516 * 8u);
                        float _530;
                        _530 = 0.0;
                        for (uint _528 = 0u; _528 < 8u; )
                        {
                            _530 += dot(_237[_528], _282._m0[_266 + _528]);
                            _528++;
                            continue;
                        }
                        _222[_523] += _530;
                    }
                }
            }
            for (uint _517 = 0u; _517 < 8u; _517++)
            {
                if (_517 < _211)
                {
                    _320._m0[((_514 + _517) * _92._m0) + _358] = _222[_517];
                }
            }
        }
        break;
    } while(false);
}

