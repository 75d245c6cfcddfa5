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

struct _73
{
    uint _m0[1];
};

struct _207
{
    float4 _m0[1];
};

struct _245
{
    float _m0[1];
};

constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(64u, 1u, 1u);

kernel void main0(constant _47& _49 [[buffer(0)]], const device _73& _75 [[buffer(1)]], const device _207& _209 [[buffer(2)]], device _245& _247 [[buffer(3)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    do
    {
        uint _285 = (((gl_WorkGroupID.y * gl_NumWorkGroups.x) + gl_WorkGroupID.x) * 64u) + gl_LocalInvocationID.x;
        if (_285 >= _49._m0)
        {
            break;
        }
        uint _115 = _49._m1 / 32u;
        uint _120 = _49._m1 / 4u;
        spvUnsafeArray<float, 8> _148;
        spvUnsafeArray<float4, 8> _169;
        for (uint _328 = 0u; _328 < _49._m2; _328 += 8u)
        {
            uint _137 = min(8u, (_49._m2 - _328));
            for (uint _329 = 0u; _329 < 8u; )
            {
                _148[_329] = 0.0;
                _329++;
                continue;
            }
            for (uint _330 = 0u; _330 < _115; _330++)
            {
                uint _296 = ((_285 * _49._m1) + (_330 * 32u)) / 2u;
                for (uint _336 = 0u; _336 < 8u; )
                {
                    uint _306 = _296 + (2u * _336);
                    _169[_336] = float4(float2(as_type<half2>(_75._m0[_306])), float2(as_type<half2>(_75._m0[_306 + 1u])));
                    _336++;
                    continue;
                }
                spvUnsafeArray<float4, 8> _164;
                _164 = _169;
                for (uint _337 = 0u; _337 < 8u; _337++)
                {
                    if (_337 < _137)
                    {
                        uint _193 = ((_328 + _337) * _120) + (_330 * 8u);
                        float _344;
                        _344 = 0.0;
                        for (uint _342 = 0u; _342 < 8u; )
                        {
                            _344 += dot(_164[_342], _209._m0[_193 + _342]);
                            _342++;
                            continue;
                        }
                        _148[_337] += _344;
                    }
                }
            }
            for (uint _331 = 0u; _331 < 8u; _331++)
            {
                if (_331 < _137)
                {
                    _247._m0[((_328 + _331) * _49._m0) + _285] = _148[_331];
                }
            }
        }
        break;
    } while(false);
}

