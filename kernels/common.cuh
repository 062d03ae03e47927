// Shared helpers for the tomospark CUDA back-projection kernels.
// Compiled by kernels/build-ptx.sh (PTX, committed) and by the Maven "cuda-kernels" profile (fatbin).
#pragma once
#include <cuda_fp16.h>
#include <stdint.h>

// Texture kernels read (cos, sin, offset, 0) from constant memory (seed paper Algorithm 1).
#define TS_MAX_CONST_PROJ 4096

// Double-precision projection table (cos, sin, offset) per projection, in global memory. The ALU kernels
// use it once per projection and block to place the block's sinogram window exactly; every kernel uses
// it for the rare nearest-neighbour fix-up below.
struct ProjD {
    double c, s, o;
};

// ---- vector types per slice count -------------------------------------------------------------------
template <int K> struct FVec;
template <> struct FVec<1> { float v[1]; };
template <> struct FVec<2> { float v[2]; };
template <> struct FVec<4> { float v[4]; };
template <> struct FVec<8> { float v[8]; };

// Storage of one compound bin: K slices, float32 or half.
template <int K, bool HALF> struct Bin;
template <> struct Bin<1, false> { typedef float T; };
template <> struct Bin<2, false> { typedef float2 T; };
template <> struct Bin<4, false> { typedef float4 T; };
template <> struct Bin<1, true> { typedef unsigned short T; };
template <> struct Bin<2, true> { typedef unsigned int T; };
template <> struct Bin<4, true> { typedef uint2 T; };
template <> struct Bin<8, true> { typedef uint4 T; };
// 8 float32 slices: two float4 (32 bytes).
struct Float8 { float4 a, b; };
template <> struct Bin<8, false> { typedef Float8 T; };

__device__ __forceinline__ float h2f(unsigned short h) { return __half2float(__ushort_as_half(h)); }
__device__ __forceinline__ float2 h22f(unsigned int u) {
    __half2 h = *reinterpret_cast<__half2*>(&u);
    return __half22float2(h);
}
__device__ __forceinline__ unsigned short f2h(float f) { return __half_as_ushort(__float2half_rn(f)); }
__device__ __forceinline__ unsigned int f22h(float a, float b) {
    __half2 h = __floats2half2_rn(a, b);
    return *reinterpret_cast<unsigned int*>(&h);
}

// Unpack a stored bin to K floats.
template <int K, bool HALF> __device__ __forceinline__ void unpack(const typename Bin<K, HALF>::T& b, float* o);
template <> __device__ __forceinline__ void unpack<1, false>(const float& b, float* o) { o[0] = b; }
template <> __device__ __forceinline__ void unpack<2, false>(const float2& b, float* o) { o[0] = b.x; o[1] = b.y; }
template <> __device__ __forceinline__ void unpack<4, false>(const float4& b, float* o) {
    o[0] = b.x; o[1] = b.y; o[2] = b.z; o[3] = b.w;
}
template <> __device__ __forceinline__ void unpack<8, false>(const Float8& b, float* o) {
    o[0] = b.a.x; o[1] = b.a.y; o[2] = b.a.z; o[3] = b.a.w; o[4] = b.b.x; o[5] = b.b.y; o[6] = b.b.z; o[7] = b.b.w;
}
template <> __device__ __forceinline__ void unpack<1, true>(const unsigned short& b, float* o) { o[0] = h2f(b); }
template <> __device__ __forceinline__ void unpack<2, true>(const unsigned int& b, float* o) {
    float2 f = h22f(b); o[0] = f.x; o[1] = f.y;
}
template <> __device__ __forceinline__ void unpack<4, true>(const uint2& b, float* o) {
    float2 f0 = h22f(b.x), f1 = h22f(b.y);
    o[0] = f0.x; o[1] = f0.y; o[2] = f1.x; o[3] = f1.y;
}
template <> __device__ __forceinline__ void unpack<8, true>(const uint4& b, float* o) {
    float2 f0 = h22f(b.x), f1 = h22f(b.y), f2 = h22f(b.z), f3 = h22f(b.w);
    o[0] = f0.x; o[1] = f0.y; o[2] = f1.x; o[3] = f1.y; o[4] = f2.x; o[5] = f2.y; o[6] = f3.x; o[7] = f3.y;
}

// Pack K floats into a stored bin.
template <int K, bool HALF> __device__ __forceinline__ typename Bin<K, HALF>::T pack(const float* v);
template <> __device__ __forceinline__ float pack<1, false>(const float* v) { return v[0]; }
template <> __device__ __forceinline__ float2 pack<2, false>(const float* v) { return make_float2(v[0], v[1]); }
template <> __device__ __forceinline__ float4 pack<4, false>(const float* v) { return make_float4(v[0], v[1], v[2], v[3]); }
template <> __device__ __forceinline__ Float8 pack<8, false>(const float* v) {
    Float8 r; r.a = make_float4(v[0], v[1], v[2], v[3]); r.b = make_float4(v[4], v[5], v[6], v[7]); return r;
}
template <> __device__ __forceinline__ unsigned short pack<1, true>(const float* v) { return f2h(v[0]); }
template <> __device__ __forceinline__ unsigned int pack<2, true>(const float* v) { return f22h(v[0], v[1]); }
template <> __device__ __forceinline__ uint2 pack<4, true>(const float* v) {
    return make_uint2(f22h(v[0], v[1]), f22h(v[2], v[3]));
}
template <> __device__ __forceinline__ uint4 pack<8, true>(const float* v) {
    return make_uint4(f22h(v[0], v[1]), f22h(v[2], v[3]), f22h(v[4], v[5]), f22h(v[6], v[7]));
}

template <int K, bool HALF> __device__ __forceinline__ typename Bin<K, HALF>::T zeroBin() {
    float z[K];
#pragma unroll
    for (int i = 0; i < K; i++) z[i] = 0.f;
    return pack<K, HALF>(z);
}

// ---- exact nearest-neighbour index ------------------------------------------------------------------
// The Java reference computes t = off + x*cos - y*sin in double and takes floor(t + 0.5). A float
// computation differs from it only within a few 1e-6..1e-4 pixels of a half-integer; where the float
// fraction falls that close (rare), recompute in double with the Java operation order (no FMA contraction).
__device__ __forceinline__ int exactNearest(const ProjD* __restrict__ pd, int p, double x, double y) {
    double c = __ldg(&pd[p].c), s = __ldg(&pd[p].s), o = __ldg(&pd[p].o);
    double t = __dsub_rn(__dadd_rn(o, __dmul_rn(x, c)), __dmul_rn(y, s));
    return (int)floor(__dadd_rn(t, 0.5));
}
