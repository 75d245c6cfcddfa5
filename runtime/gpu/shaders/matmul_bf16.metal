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

struct _63
{
    uint _m0;
    uint _m1;
    uint _m2;
};

struct _89
{
    uint _m0[1];
};

struct _224
{
    float4 _m0[1];
};

struct _262
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(constant _63& _65 [[buffer(0)]], const device _89& _91 [[buffer(1)]], const device _224& _226 [[buffer(2)]], device _262& _264 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _302 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_302 >= _65._m0)
        {
            break;
        }
        uint _132 = _65._m1 / 32u;
        uint _137 = _65._m1 / 4u;
        spvUnsafeArray<float, 8> _165;
        spvUnsafeArray<float4, 8> _186;
        for (uint _364 = 0u; _364 < _65._m2; _364 += 8u)
        {
            uint _154 = min(8u, (_65._m2 - _364));
            for (uint _365 = 0u; _365 < 8u; )
            {
                _165[_365] = 0.0;
                _365++;
                continue;
            }
            for (uint _366 = 0u; _366 < _132; _366++)
            {
                uint _315 = ((_302 * _65._m1) + (_366 * 32u)) / 2u;
                for (uint _372 = 0u; _372 < 8u; )
                {
                    uint _325 = _315 + (2u * _372);
                    uint _333 = _325 + 1u;
                    _186[_372] = float4(as_type<float2>(uint2(_91._m0[_325] << 16u, _91._m0[_325] & 4294901760u)), as_type<float2>(uint2(_91._m0[_333] << 16u, _91._m0[_333] & 4294901760u)));
                    _372++;
                    continue;
                }
                spvUnsafeArray<float4, 8> _181;
                _181 = _186;
                for (uint _373 = 0u; _373 < 8u; _373++)
                {
                    if (_373 < _154)
                    {
                        uint _210 = ((_364 + _373) * _137) + (_366 * 8u);
                        float _380;
                        _380 = 0.0;
                        for (uint _378 = 0u; _378 < 8u; )
                        {
                            _380 += dot(_181[_378], _226._m0[_210 + _378]);
                            _378++;
                            continue;
                        }
                        _165[_373] += _380;
                    }
                }
            }
            for (uint _367 = 0u; _367 < 8u; _367++)
            {
                if (_367 < _154)
                {
                    _264._m0[((_364 + _367) * _65._m0) + _302] = _165[_367];
                }
            }
        }
        break;
    } while(false);
}

