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

struct _94
{
    uint _m0;
    uint _m1;
    uint _m2;
};

struct _352
{
    float4 _m0[1];
};

struct _390
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(const device _54& _56 [[buffer(0)]], constant _94& _96 [[buffer(1)]], const device _352& _354 [[buffer(2)]], device _390& _392 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _430 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_430 >= _96._m0)
        {
            break;
        }
        uint _262 = _96._m1 / 32u;
        uint _266 = _96._m1 / 4u;
        spvUnsafeArray<float, 8> _294;
        spvUnsafeArray<float4, 8> _314;
        for (uint _755 = 0u; _755 < _96._m2; _755 += 8u)
        {
            uint _283 = min(8u, (_96._m2 - _755));
            for (uint _756 = 0u; _756 < 8u; )
            {
                _294[_756] = 0.0;
                _756++;
                continue;
            }
            for (uint _757 = 0u; _757 < _262; _757++)
            {
                uint _459 = _757 & 7u;
                uint _468 = ((_430 * (_96._m1 / 256u)) + (_757 / 8u)) * 144u;
                uint _582 = _468 + 1u;
                uint _472 = _468 + 2u;
                uint _617 = _468 + 3u;
                uint _475 = _468 + 4u;
                uint _763;
                uint _764;
                if (_459 < 4u)
                {
                    uint _481 = _475 + _459;
                    uint _487 = _481 + 4u;
                    _764 = ((_56._m0[_487 >> 2u] >> ((_487 & 3u) * 8u)) & 255u) & 63u;
                    _763 = ((_56._m0[_481 >> 2u] >> ((_481 & 3u) * 8u)) & 255u) & 63u;
                }
                else
                {
                    uint _493 = _475 + _459;
                    uint _494 = _493 + 4u;
                    uint _670 = _494 >> 2u;
                    uint _675 = (_494 & 3u) * 8u;
                    uint _500 = _493 - 4u;
                    _764 = (((_56._m0[_670] >> _675) & 255u) >> 4u) | ((((_56._m0[_493 >> 2u] >> ((_493 & 3u) * 8u)) & 255u) >> 6u) << 4u);
                    _763 = (((_56._m0[_670] >> _675) & 255u) & 15u) | ((((_56._m0[_500 >> 2u] >> ((_500 & 3u) * 8u)) & 255u) >> 6u) << 4u);
                }
                float _522 = float2(as_type<half2>(((_56._m0[_468 >> 2u] >> ((_468 & 3u) * 8u)) & 255u) | (((_56._m0[_582 >> 2u] >> ((_582 & 3u) * 8u)) & 255u) << 8u))).x * float(_763);
                float _526 = float2(as_type<half2>(((_56._m0[_472 >> 2u] >> ((_472 & 3u) * 8u)) & 255u) | (((_56._m0[_617 >> 2u] >> ((_617 & 3u) * 8u)) & 255u) << 8u))).x * float(_764);
                uint _532 = (_468 + 16u) + (32u * (_459 >> 1u));
                uint _535 = 4u * (_459 & 1u);
                for (uint _765 = 0u; _765 < 8u; )
                {
                    uint _544 = _532 + (4u * _765);
                    uint _548 = _544 + 1u;
                    uint _551 = _544 + 2u;
                    uint _554 = _544 + 3u;
                    _314[_765] = (float4((uint4((_56._m0[_544 >> 2u] >> ((_544 & 3u) * 8u)) & 255u, (_56._m0[_548 >> 2u] >> ((_548 & 3u) * 8u)) & 255u, (_56._m0[_551 >> 2u] >> ((_551 & 3u) * 8u)) & 255u, (_56._m0[_554 >> 2u] >> ((_554 & 3u) * 8u)) & 255u) >> uint4(_535)) & uint4(15u)) * _522) - float4(_526);
                    _765++;
                    continue;
                }
                spvUnsafeArray<float4, 8> _309;
                _309 = _314;
                for (uint _766 = 0u; _766 < 8u; _766++)
                {
                    if (_766 < _283)
                    {
                        uint _338 = ((_755 + _766) * _266) + (_757 * 8u);
                        float _775;
                        _775 = 0.0;
                        for (uint _773 = 0u; _773 < 8u; )
                        {
                            _775 += dot(_309[_773], _354._m0[_338 + _773]);
                            _773++;
                            continue;
                        }
                        _294[_766] += _775;
                    }
                }
            }
            for (uint _758 = 0u; _758 < 8u; _758++)
            {
                if (_758 < _283)
                {
                    _392._m0[((_755 + _758) * _96._m0) + _430] = _294[_758];
                }
            }
        }
        break;
    } while(false);
}

