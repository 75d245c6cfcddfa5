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

struct _47
{
    uint _m0;
    uint _m1;
    uint _m2;
};

struct _77
{
    uint _m0[1];
};

struct _209
{
    float4 _m0[1];
};

struct _247
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(constant _47& _49 [[buffer(0)]], const device _77& _79 [[buffer(1)]], const device _209& _211 [[buffer(2)]], device _247& _249 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _287 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_287 >= _49._m0)
        {
            break;
        }
        uint _118 = _49._m1 / 32u;
        uint _122 = _49._m1 / 4u;
        spvUnsafeArray<float, 8> _150;
        spvUnsafeArray<float4, 8> _171;
        for (uint _331 = 0u; _331 < _49._m2; _331 += 8u)
        {
            uint _139 = min(8u, (_49._m2 - _331));
            for (uint _332 = 0u; _332 < 8u; )
            {
                _150[_332] = 0.0;
                _332++;
                continue;
            }
            for (uint _333 = 0u; _333 < _118; _333++)
            {
                uint _298 = (_287 * _49._m1) + (_333 * 32u);
                for (uint _339 = 0u; _339 < 8u; )
                {
                    uint _307 = _298 + (4u * _339);
                    _171[_339] = as_type<float4>(uint4(_79._m0[_307], _79._m0[_307 + 1u], _79._m0[_307 + 2u], _79._m0[_307 + 3u]));
                    _339++;
                    continue;
                }
                spvUnsafeArray<float4, 8> _166;
                _166 = _171;
                for (uint _340 = 0u; _340 < 8u; _340++)
                {
                    if (_340 < _139)
                    {
                        uint _195 = ((_331 + _340) * _122) + (_333 * 8u);
                        float _347;
                        _347 = 0.0;
                        for (uint _345 = 0u; _345 < 8u; )
                        {
                            _347 += dot(_166[_345], _211._m0[_195 + _345]);
                            _345++;
                            continue;
                        }
                        _150[_340] += _347;
                    }
                }
            }
            for (uint _334 = 0u; _334 < 8u; _334++)
            {
                if (_334 < _139)
                {
                    _249._m0[((_331 + _334) * _49._m0) + _287] = _150[_334];
                }
            }
        }
        break;
    } while(false);
}

