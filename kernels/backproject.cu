// tomospark: parallel-beam back-projection kernels (seed paper: Chilingaryan et al. 2020, sect. 5-7).
//
// Every kernel computes, for ROI pixel (row r, col c) and projection p, t = off[p] + c*cos[p] - r*sin[p]
// and sums the (linearly or nearest) interpolated bin of the filtered sinogram over all projections, K
// slices at once (compound sinogram of K interleaved slices). Bins outside [0, width) count as 0.
//
// Families (instantiated at the end of this file from the rows of variants.def; kernels/manifest.cpp describes the
// same rows to the Java side):
//   bp_std_*  Algorithm 1: texture fetch, one pixel per thread, 16x16 blocks, constants in __constant__;
//             with K=2/4 the plain interleaved float2/float4/half4 texture; "z" = Algorithm 2 Z-order remap.
//   bp_tex_*  Algorithm 3/4: Z-order remap, 4 projections in parallel per block, 4 pixels per thread,
//             reduction through shared memory.
//   bp_alu_*  Algorithm 6 (+9): sinogram window cached in shared memory, several pixels per thread,
//             standard or advanced caching (bin pairs: value+difference for float, value+next for half);
//             with ST > 0 it is the hybrid of sect. 7.1: ST of every SD+ST projections are read through the
//             texture unit, the rest from the shared-memory cache. Half modes may interpolate in packed half2
//             (HM). Without a texture, grid z runs over the groups of a chunk (one launch per chunk).
//   bp_alu_*_a  the same arithmetic with an asynchronous, double-buffered cache filled by cp.async from an
//             array of cache entries (bpAluAsync).
//   bp_alu_k8_h_lin_win_*  the register-window kernel (bpAluWin): bins cached, each thread walks a column of
//             adjacent pixels with the two bins of the current pixel in registers, one 16-byte load per update;
//             its compound sinogram is packed scaled (bp_absmax_k8, bp_pack_k8_h_win).
//   bp_pack_* interleaves K float sinograms into the compound layout (float or half), on the device.
//   bp_entries_* builds the array of cache entries (value and difference per bin) from the compound layout,
//             for the asynchronous cache and for the entries hybrid (TX 2).
#include "layout.cuh"
#include "signatures.cuh"
#include "variants.cuh"

__constant__ float4 c_proj[TS_MAX_CONST_PROJ];  // cos, sin, offset, 0

template <int K> struct TexT;
template <> struct TexT<1> { typedef float T; };
template <> struct TexT<2> { typedef float2 T; };
template <> struct TexT<4> { typedef float4 T; };

template <int K> __device__ __forceinline__ void texAdd(cudaTextureObject_t tex, float x, float y, float* acc);
template <> __device__ __forceinline__ void texAdd<1>(cudaTextureObject_t tex, float x, float y, float* acc) {
    acc[0] += tex2D<float>(tex, x, y);
}
template <> __device__ __forceinline__ void texAdd<2>(cudaTextureObject_t tex, float x, float y, float* acc) {
    float2 v = tex2D<float2>(tex, x, y);
    acc[0] += v.x; acc[1] += v.y;
}
template <> __device__ __forceinline__ void texAdd<4>(cudaTextureObject_t tex, float x, float y, float* acc) {
    float4 v = tex2D<float4>(tex, x, y);
    acc[0] += v.x; acc[1] += v.y; acc[2] += v.z; acc[3] += v.w;
}

template <int K> __device__ __forceinline__ void texFetch(cudaTextureObject_t tex, float x, float y, float* v);
template <> __device__ __forceinline__ void texFetch<1>(cudaTextureObject_t tex, float x, float y, float* v) {
    v[0] = tex2D<float>(tex, x, y);
}
template <> __device__ __forceinline__ void texFetch<2>(cudaTextureObject_t tex, float x, float y, float* v) {
    float2 t = tex2D<float2>(tex, x, y);
    v[0] = t.x; v[1] = t.y;
}
template <> __device__ __forceinline__ void texFetch<4>(cudaTextureObject_t tex, float x, float y, float* v) {
    float4 t = tex2D<float4>(tex, x, y);
    v[0] = t.x; v[1] = t.y; v[2] = t.z; v[3] = t.w;
}

// Fraction band around .5 inside which a float nearest index might differ from the double reference.
#define TS_EPS_TEX 1.0e-3f
#define TS_EPS_ALU 5.0e-5f

// Texture x coordinate for nearest mode: the centre of bin floor(t + 0.5), exact as the Java reference.
__device__ __forceinline__ float nearestCoord(float t, const ProjD* __restrict__ pd, int p, float x, float y) {
    float u = t + 0.5f;
    float fl = floorf(u);
    float fr = u - fl;
    if (fr < TS_EPS_TEX || fr > 1.0f - TS_EPS_TEX) fl = (float)exactNearest(pd, p, (double)x, (double)y);
    return fl + 0.5f;
}

// ------------------------------------------------------------------------------------------------------
// Algorithm 1 (+ Algorithm 2 remap when ZORDER). Block: 256 threads (1-D), 16x16 pixels.
template <int K, bool NEAREST, bool ZORDER>
__device__ __forceinline__ void bpStd(cudaTextureObject_t tex, const ProjD* __restrict__ pd, float* __restrict__ out,
                                      int rows, int cols, long long plane, int np) {
    int t = threadIdx.x, lx, ly;
    if (ZORDER) {
        int blockn = t >> 4, squaren = (t & 15) >> 2, pixeln = t & 3;
        lx = 4 * (blockn & 3) + 2 * (squaren & 1) + (pixeln & 1);
        ly = 4 * (blockn >> 2) + 2 * (squaren >> 1) + (pixeln >> 1);
    } else {
        lx = t & 15;
        ly = t >> 4;
    }
    int c = blockIdx.x * TS_TEX_TILE + lx, r = blockIdx.y * TS_TEX_TILE + ly;
    if (c >= cols || r >= rows) return;
    float x = (float)c, y = (float)r;
    float acc[K];
#pragma unroll
    for (int s = 0; s < K; s++) acc[s] = 0.f;
#pragma unroll 4
    for (int p = 0; p < np; p++) {
        float4 pc = c_proj[p];
        float h = pc.z + x * pc.x - y * pc.y;
        float xc = NEAREST ? nearestCoord(h, pd, p, x, y) : h + 0.5f;
        texAdd<K>(tex, xc, p + 0.5f, acc);
    }
    size_t o = (size_t)r * cols + c;
#pragma unroll
    for (int s = 0; s < K; s++) out[s * plane + o] = acc[s];
}

// ------------------------------------------------------------------------------------------------------
// Algorithm 3 with the shuffle-free shared-memory reduction: 256 threads, 16x16 pixels; the low 4 bits of
// the thread index follow a Z-order curve inside a 4x4 square, the next 2 bits pick the square along x,
// the top 2 bits pick one of 4 projections processed in parallel. Each thread sums 4 pixels (rows +4q).
template <int K, bool NEAREST>
__device__ __forceinline__ void bpTex(cudaTextureObject_t tex, const ProjD* __restrict__ pd, float* __restrict__ out,
                                      int rows, int cols, long long plane, int np) {
    __shared__ float red[4][K][256];
    int t = threadIdx.x;
    int pz = t & 15, sq = (t >> 4) & 3, mp = t >> 6;
    int lx = sq * 4 + ((pz & 1) | ((pz >> 1) & 2));
    int ly0 = ((pz >> 1) & 1) | ((pz >> 2) & 2);
    float x = (float)(blockIdx.x * TS_TEX_TILE + lx), y0 = (float)(blockIdx.y * TS_TEX_TILE + ly0);
    float acc[4][K];
#pragma unroll
    for (int q = 0; q < 4; q++)
#pragma unroll
        for (int s = 0; s < K; s++) acc[q][s] = 0.f;
#pragma unroll 2
    for (int p = mp; p < np; p += 4) {
        float4 pc = c_proj[p];
        float h = pc.z + x * pc.x - y0 * pc.y;
        float st = 4.f * pc.y;
#pragma unroll
        for (int q = 0; q < 4; q++) {
            float hq = fmaf(-(float)q, st, h);
            float xc = NEAREST ? nearestCoord(hq, pd, p, x, y0 + 4.f * q) : hq + 0.5f;
            texAdd<K>(tex, xc, p + 0.5f, acc[q]);
        }
    }
#pragma unroll
    for (int q = 0; q < 4; q++) {
        int pix = (ly0 + 4 * q) * 16 + lx;
#pragma unroll
        for (int s = 0; s < K; s++) red[mp][s][pix] = acc[q][s];
    }
    __syncthreads();
    int c = blockIdx.x * TS_TEX_TILE + (t & 15), r = blockIdx.y * TS_TEX_TILE + (t >> 4);
    if (c < cols && r < rows) {
        size_t o = (size_t)r * cols + c;
#pragma unroll
        for (int s = 0; s < K; s++) out[s * plane + o] = red[0][s][t] + red[1][s][t] + red[2][s][t] + red[3][s][t];
    }
}

// ------------------------------------------------------------------------------------------------------
// ALU kernel (Algorithm 6), advanced caching (Algorithm 9 idea), hybrid (sect. 7.1). Cache entries and widths:
// layout.cuh.

template <int K, bool HALF>
__device__ __forceinline__ typename Bin<K, HALF>::T loadBin(const typename Bin<K, HALF>::T* __restrict__ sino,
                                                             size_t rowBase, int col, int width) {
    if (col >= 0 && col < width) return sino[rowBase + col];
    return zeroBin<K, HALF>();
}

#define TS_MAGIC 12582912.0f  // 1.5 * 2^23: x + MAGIC rounds x to an integer held in the low mantissa bits

// Packed-half arithmetic (half storage, linear, advanced caching only), HM:
//   0: bins converted to float, interpolated and accumulated in float (exact up to float rounding);
//   1: cache holds (v0, v1-v0) in half; v0 + f*d is one HFMA2 per 2 slices, converted and accumulated in float;
//   2: as 1, but two projections are combined in half2 before one conversion to float;
//   3: as 1, but four projections are combined in half2 before one conversion to float;
//   4: as 1, but eight projections are combined in half2 before one conversion to float.
// HM 1-3 round the interpolated value (and HM 2/3 the partial sums) to half: a half-precision mode.
template <int K> __device__ __forceinline__ void h2Interp(const typename Bin<K, true>::T& a, const typename Bin<K, true>::T& d,
                                                          __half2 f2, __half2* r) {
    const unsigned int* pa = reinterpret_cast<const unsigned int*>(&a);
    const unsigned int* pd = reinterpret_cast<const unsigned int*>(&d);
#pragma unroll
    for (int w = 0; w < K / 2; w++) {
        unsigned int ua = pa[w], ud = pd[w];
        r[w] = __hfma2(f2, *reinterpret_cast<__half2*>(&ud), *reinterpret_cast<__half2*>(&ua));
    }
}
template <int K> __device__ __forceinline__ void h2Accumulate(const __half2* r, float* acc) {
#pragma unroll
    for (int w = 0; w < K / 2; w++) {
        float2 v = __half22float2(r[w]);
        acc[2 * w] += v.x;
        acc[2 * w + 1] += v.y;
    }
}

// Advanced-caching entry for bins a (at t) and b (at t+1):
//   float32: (mid, diff) = ((a+b)/2, b-a): value = mid + (f-1/2)*diff;
//   half, HM 0: (a, b), interpolated in float; half, HM > 0: (a, b-a) in half, value = a + f*(b-a) by HFMA2.
template <int K, bool HALF, int HM>
__device__ __forceinline__ CacheEntry<K, HALF, true> makeEntry(const typename Bin<K, HALF>::T& a, const typename Bin<K, HALF>::T& b) {
    CacheEntry<K, HALF, true> ent;
    if constexpr (HALF && HM > 0) {
        float va[K], vb[K], d[K];
        unpack<K, HALF>(a, va);
        unpack<K, HALF>(b, vb);
#pragma unroll
        for (int s = 0; s < K; s++) d[s] = vb[s] - va[s];
        ent.a = a;
        ent.b = pack<K, HALF>(d);
    } else if constexpr (HALF) {
        ent.a = a;
        ent.b = b;
    } else {
        float va[K], vb[K], m[K], d[K];
        unpack<K, HALF>(a, va);
        unpack<K, HALF>(b, vb);
#pragma unroll
        for (int s = 0; s < K; s++) {
            m[s] = 0.5f * (va[s] + vb[s]);
            d[s] = vb[s] - va[s];
        }
        ent.a = pack<K, HALF>(m);
        ent.b = pack<K, HALF>(d);
    }
    return ent;
}

// Point fetch of one cache entry from a 32-bit-integer texture of entries; x is the entry's centre. Entries of
// 32 bytes (8 half slices) take two uint4 texels, 2e and 2e+1.
template <typename E> __device__ __forceinline__ E texEntry(cudaTextureObject_t tex, float x, float y) {
    E e;
    if constexpr (sizeof(E) == 32) {
        uint4 v[2];
        v[0] = tex2D<uint4>(tex, 2.0f * x - 0.5f, y);
        v[1] = tex2D<uint4>(tex, 2.0f * x + 0.5f, y);
        memcpy(&e, v, 32);
    } else if constexpr (sizeof(E) == 16) {
        uint4 v = tex2D<uint4>(tex, x, y);
        memcpy(&e, &v, 16);
    } else if constexpr (sizeof(E) == 8) {
        uint2 v = tex2D<uint2>(tex, x, y);
        memcpy(&e, &v, 8);
    } else {
        static_assert(sizeof(E) == 4, "entry textures hold 4-, 8-, 16- or 32-byte entries");
        unsigned int v = tex2D<unsigned int>(tex, x, y);
        memcpy(&e, &v, 4);
    }
    return e;
}

// Byte offset of cache row j, minus the magic's bits scaled to entries: adding (bits(uu) << log2(sizeof E))
// in wrapping 32-bit arithmetic gives the offset of entry floor/rn(x) of row j (uu = x + TS_MAGIC).
template <typename E, int CW> __device__ __forceinline__ unsigned cacheRowAdj(int j) {
    static_assert((sizeof(E) & (sizeof(E) - 1)) == 0, "cache entries must be a power of two in size");
    return (unsigned)(j * CW * (int)sizeof(E)) - 0x4B400000u * (unsigned)sizeof(E);
}
template <typename E> __device__ __forceinline__ E cacheEntry(const char* cbytes, float uu, unsigned adj) {
    const unsigned off = (unsigned)__float_as_int(uu) * (unsigned)sizeof(E) + adj;
    return *reinterpret_cast<const E*>(cbytes + off);
}

// The shared-memory part of the ALU kernel: ns projections whose windows are cache[0..ns) (entries E, CW per
// row), with per-projection constants spc/shm and projection index p0 of row 0.
template <int K, bool HALF, bool NEAREST, bool ADV, int CW, int PPT, int ROWSTEP, int HM, typename E>
__device__ __forceinline__ void accumulateCached(const E (*cache)[CW], const float4* spc, const int* shm, int ns, int p0,
                                                 const ProjD* __restrict__ pd, int X0, int Y0, int lx, int ly,
                                                 float (&acc)[PPT][K]) {
    const float flx = (float)lx, fly = (float)ly;
    // Projections read from the shared-memory cache. Addressing: uu = x + MAGIC holds floor(x) (or rn(x)) in its
    // low mantissa bits, so the byte offset of the entry is (bits(uu) << log2(sizeof E)) + a per-row constant
    // with the magic's bits folded in: one LEA per update, 32-bit, wrapping (see cacheRowAdj).
    const char* cbytes = reinterpret_cast<const char*>(&cache[0][0]);
    if constexpr (HM > 0 && HALF && ADV && !NEAREST && K >= 2) {
        // packed half arithmetic: HM 2/3/4 combine 2/4/8 projections in half2 before converting to float.
        // floor(t) by one FADD rounding toward -inf, so f = t - floor(t) in [0, 1) needs no +1/2.
        constexpr int STEP = HM == 4 ? 8 : HM == 3 ? 4 : HM == 2 ? 2 : 1;
        int j = 0;
#pragma unroll 1
        for (; j + STEP <= ns; j += STEP) {
            float hA[STEP], stA[STEP];
            unsigned adj[STEP];
#pragma unroll
            for (int u = 0; u < STEP; u++) {
                const float4 pc = spc[j + u];
                hA[u] = fmaf(flx, pc.x, fmaf(-fly, pc.y, pc.z));
                stA[u] = (float)ROWSTEP * pc.y;
                adj[u] = cacheRowAdj<E, CW>(j + u);
            }
#pragma unroll
            for (int q = 0; q < PPT; q++) {
                __half2 r[K / 2];
#pragma unroll
                for (int u = 0; u < STEP; u++) {
                    const float hq = fmaf(-(float)q, stA[u], hA[u]);
                    const float uu = __fadd_rd(hq, TS_MAGIC);
                    const __half2 f2 = __float2half2_rn(hq - (uu - TS_MAGIC));
                    const E ent = cacheEntry<E>(cbytes, uu, adj[u]);
                    if (u == 0) {
                        h2Interp<K>(ent.a, ent.b, f2, r);
                    } else {
                        __half2 r2[K / 2];
                        h2Interp<K>(ent.a, ent.b, f2, r2);
#pragma unroll
                        for (int w = 0; w < K / 2; w++) r[w] = __hadd2(r[w], r2[w]);
                    }
                }
                h2Accumulate<K>(r, acc[q]);
            }
        }
        for (; j < ns; j++) {  // tail (HM 2-4)
            const float4 pc = spc[j];
            const float h = fmaf(flx, pc.x, fmaf(-fly, pc.y, pc.z));
            const float st = (float)ROWSTEP * pc.y;
            const unsigned adj = cacheRowAdj<E, CW>(j);
#pragma unroll
            for (int q = 0; q < PPT; q++) {
                const float hq = fmaf(-(float)q, st, h);
                const float uu = __fadd_rd(hq, TS_MAGIC);
                const __half2 f2 = __float2half2_rn(hq - (uu - TS_MAGIC));
                const E ent = cacheEntry<E>(cbytes, uu, adj);
                __half2 r[K / 2];
                h2Interp<K>(ent.a, ent.b, f2, r);
                h2Accumulate<K>(r, acc[q]);
            }
        }
    } else
#pragma unroll 2
    for (int j = 0; j < ns; j++) {
        const float4 pc = spc[j];
        const unsigned adj = cacheRowAdj<E, CW>(j);
        // linear: h' = h - 1/2 so that rn(h') = floor(h) (ties land on f = 1 or 0, both exact)
        const float base = NEAREST ? pc.z : pc.z - 0.5f;
        const float h = fmaf(flx, pc.x, fmaf(-fly, pc.y, base));
        const float st = (float)ROWSTEP * pc.y;
#pragma unroll
        for (int q = 0; q < PPT; q++) {
            const float hq = fmaf(-(float)q, st, h);
            const float u = hq + TS_MAGIC;
            const float fl = u - TS_MAGIC;
            const float fr = hq - fl;  // in [-1/2, 1/2]
            if constexpr (NEAREST) {
                float v[K];
                if (fabsf(fr) > 0.5f - TS_EPS_ALU) {
                    const int idx = exactNearest(pd, p0 + j, (double)(X0 + lx), (double)(Y0 + ly + q * ROWSTEP))
                                    - shm[j];
                    unpack<K, HALF>(cache[j][idx].a, v);
                } else {
                    unpack<K, HALF>(cacheEntry<E>(cbytes, u, adj).a, v);
                }
#pragma unroll
                for (int s = 0; s < K; s++) acc[q][s] += v[s];
            } else if constexpr (ADV && !HALF) {
                // value = mid + (f - 1/2) * diff, with f - 1/2 = fr
                const E ent = cacheEntry<E>(cbytes, u, adj);
                float m[K], d[K];
                unpack<K, HALF>(ent.a, m);
                unpack<K, HALF>(ent.b, d);
#pragma unroll
                for (int s = 0; s < K; s++) acc[q][s] = fmaf(fr, d[s], acc[q][s] + m[s]);
            } else {
                float v0[K], v1[K];
                if constexpr (ADV) {
                    const E ent = cacheEntry<E>(cbytes, u, adj);
                    unpack<K, HALF>(ent.a, v0);
                    unpack<K, HALF>(ent.b, v1);
                } else {
                    const int idx = __float_as_int(u) - 0x4B400000;
                    unpack<K, HALF>(cache[j][idx].a, v0);
                    unpack<K, HALF>(cache[j][idx + 1].a, v1);
                }
                const float f = fr + 0.5f, g = 0.5f - fr;
#pragma unroll
                for (int s = 0; s < K; s++) acc[q][s] = fmaf(g, v0[s], fmaf(f, v1[s], acc[q][s]));
            }
        }
    }
}

// TX (hybrid, linear): how the texture share of the projections is read.
//   0: hardware linear filtering (8-bit weights);
//   1: the two neighbouring bins fetched at their centres, where the hardware weights are exactly 0, and
//      interpolated in float: texture bandwidth without the 8-bit weight error;
//   2: the cache entry itself (makeEntry: the same bytes the shared-memory cache holds) point-fetched from a
//      device array of entries (bp_entries_*), one fetch per update, and interpolated exactly as from the cache.
template <int K, bool HALF, bool NEAREST, bool ADV, int TILE, int NT, int SD, int ST, int HM = 0, int TX = 0>
__device__ __forceinline__ void bpAlu(const typename Bin<K, HALF>::T* __restrict__ sino, int pitch, int width, int np,
                                      const ProjD* __restrict__ pd, cudaTextureObject_t tex,
                                      float* __restrict__ out, int rows, int cols, long long plane) {
    typedef typename Bin<K, HALF>::T B;
    typedef CacheEntry<K, HALF, ADV && !NEAREST> E;
    constexpr int CW = CacheW<TILE>::value;
    constexpr int ROWSTEP = NT / TILE;  // rows covered by the block in one step
    // grid z runs over the groups of a chunk (one compound sinogram of np * pitch bins and K output planes each);
    // hybrids read one texture and are launched per group
    if (ST == 0 && blockIdx.z > 0) {
        sino += (size_t)blockIdx.z * np * pitch;
        out += (size_t)blockIdx.z * K * plane;
    }
    constexpr int PPT = TILE / ROWSTEP; // pixels per thread
    constexpr int SQX = TILE / 4;       // 4x4 squares along x
    constexpr int NB = SD + ST;         // projections per batch
    static_assert(NT % TILE == 0 && ROWSTEP % 4 == 0, "tile/thread mapping");
    // the texture share reads at most 4 slices per fetch, except whole cache entries (TX 2, linear, advanced caching)
    static_assert(ST == 0 || K <= 4 || TX == 2, "an 8-slice hybrid needs TX 2");
    static_assert(TX != 2 || (ADV && !NEAREST), "TX 2 reads advanced-caching entries: linear only");
    __shared__ E cache[SD > 0 ? SD : 1][CW];
    __shared__ float4 spc[NB];
    __shared__ int shm[NB];

    const int tid = threadIdx.x;
    const int sqi = tid >> 4, pz = tid & 15;
    const int lx = (sqi % SQX) * 4 + ((pz & 1) | ((pz >> 1) & 2));
    const int ly = (sqi / SQX) * 4 + (((pz >> 1) & 1) | ((pz >> 2) & 2));
    const int X0 = blockIdx.x * TILE, Y0 = blockIdx.y * TILE;
    const float flx = (float)lx, fly = (float)ly;

    float acc[PPT][K];
#pragma unroll
    for (int q = 0; q < PPT; q++)
#pragma unroll
        for (int s = 0; s < K; s++) acc[q][s] = 0.f;

    for (int pb = 0; pb < np; pb += NB) {
        const int nb = min(NB, np - pb);
        if (tid < nb) {
            // Place this block's window in double precision: t at the block origin and the smallest t over
            // the tile; the cache starts one bin left of it.
            int p = pb + tid;
            double c = pd[p].c, s = pd[p].s, o = pd[p].o;
            double tb = o + (double)X0 * c - (double)Y0 * s;
            double tmin = tb + fmin(0.0, (TILE - 1) * c) + fmin(0.0, -(TILE - 1) * s);
            int hm = (int)floor(tmin) - 1;
            shm[tid] = hm;
            // z: position of the tile origin inside the window; w: window start + 0.5 (texture coordinate)
            spc[tid] = make_float4((float)c, (float)s, (float)(tb - (double)hm), (float)hm + 0.5f);
        }
        __syncthreads();
        if (SD > 0) {
            for (int e = tid; e < SD * CW; e += NT) {
                int j = e / CW, i = e - j * CW;
                int pj = ST + j;
                if (pj < nb) {
                    size_t rowBase = (size_t)(pb + pj) * pitch;
                    int col = shm[pj] + i;
                    B a = loadBin<K, HALF>(sino, rowBase, col, width);
                    E ent;
                    if constexpr (ADV && !NEAREST) {
                        ent = makeEntry<K, HALF, HM>(a, loadBin<K, HALF>(sino, rowBase, col + 1, width));
                    } else {
                        ent.a = a;
                    }
                    cache[j][i] = ent;
                }
            }
        }
        __syncthreads();

        // Projections read through the texture unit (hybrid).
        if (ST > 0) {
            const int nt = min(ST, nb);
            for (int j = 0; j < nt; j++) {
                float4 pc = spc[j];
                float h = fmaf(flx, pc.x, fmaf(-fly, pc.y, pc.z));
                float st = (float)ROWSTEP * pc.y;
                float py = (float)(pb + j) + 0.5f;
#pragma unroll
                for (int q = 0; q < PPT; q++) {
                    float hq = fmaf(-(float)q, st, h);
                    if constexpr (TX == 2 && ADV && !NEAREST) {
                        // entry e = floor(t) + 1 of the entries array (entry 0 is column -1); fl + pc.w + 1 is
                        // its centre as a float, so no integer conversion is needed
                        const float hh = hq - 0.5f;
                        const float u = hh + TS_MAGIC;
                        const float fl = u - TS_MAGIC;
                        const float fr = hh - fl;  // in [-1/2, 1/2]
                        const E ent = texEntry<E>(tex, fl + pc.w + 1.0f, py);
                        if constexpr (HALF && HM > 0) {
                            __half2 r[K / 2];
                            h2Interp<K>(ent.a, ent.b, __float2half2_rn(fr + 0.5f), r);
                            h2Accumulate<K>(r, acc[q]);
                        } else if constexpr (HALF) {
                            float v0[K], v1[K];
                            unpack<K, HALF>(ent.a, v0);
                            unpack<K, HALF>(ent.b, v1);
                            const float f = fr + 0.5f, g = 0.5f - fr;
#pragma unroll
                            for (int s = 0; s < K; s++) acc[q][s] = fmaf(g, v0[s], fmaf(f, v1[s], acc[q][s]));
                        } else {
                            float m[K], d[K];
                            unpack<K, HALF>(ent.a, m);
                            unpack<K, HALF>(ent.b, d);
#pragma unroll
                            for (int s = 0; s < K; s++) acc[q][s] = fmaf(fr, d[s], acc[q][s] + m[s]);
                        }
                    } else if constexpr (K <= 4 && TX == 1 && !NEAREST) {
                        const float hh = hq - 0.5f;
                        const float u = hh + TS_MAGIC;
                        const float fl = u - TS_MAGIC;
                        const float fr = hh - fl;
                        const float x0 = (float)(__float_as_int(u) - 0x4B400000 + shm[j]) + 0.5f;
                        float v0[K], v1[K];
                        texFetch<K>(tex, x0, py, v0);
                        texFetch<K>(tex, x0 + 1.0f, py, v1);
                        const float f = fr + 0.5f, g = 0.5f - fr;
#pragma unroll
                        for (int s = 0; s < K; s++) acc[q][s] = fmaf(g, v0[s], fmaf(f, v1[s], acc[q][s]));
                    } else if constexpr (K <= 4) {
                        float xc;
                        if (NEAREST) {
                            float u = hq + TS_MAGIC;
                            float fl = u - TS_MAGIC;
                            float fr = hq - fl;
                            int idx = __float_as_int(u) - 0x4B400000 + shm[j];
                            if (fabsf(fr) > 0.5f - TS_EPS_ALU)
                                idx = exactNearest(pd, pb + j, (double)(X0 + lx), (double)(Y0 + ly + q * ROWSTEP));
                            xc = (float)idx + 0.5f;
                        } else {
                            xc = hq + pc.w;
                        }
                        texAdd<(K <= 4 ? K : 4)>(tex, xc, py, acc[q]);
                    }
                }
            }
        }

        // Projections read from the shared-memory cache.
        accumulateCached<K, HALF, NEAREST, ADV, CW, PPT, ROWSTEP, HM>(cache, spc + ST, shm + ST, nb - ST, pb + ST, pd, X0, Y0,
                                                                     lx, ly, acc);
        __syncthreads();
    }

    const int c = X0 + lx;
    if (c < cols) {
#pragma unroll
        for (int q = 0; q < PPT; q++) {
            int r = Y0 + ly + q * ROWSTEP;
            if (r < rows) {
                size_t o = (size_t)r * cols + c;
#pragma unroll
                for (int s = 0; s < K; s++) out[s * plane + o] = acc[q][s];
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------
// ALU kernel with an asynchronous, double-buffered cache (linear, advanced caching; name suffix _a). The windows
// are copied with cp.async straight from the entries array (bp_entries_*: the same entries the register fill of
// bpAlu computes), so the copy of batch b+1 overlaps the arithmetic of batch b and no thread waits on global
// loads. Window constants are triple-buffered: batch b+1 is placed before the barrier of batch b, while batch
// b-1's are no longer read.
// Window of one projection for a TILE x TILE block at (X0, Y0): hm = the first cached column (one below the lowest
// t of the block), pc = (cos, sin, t of the block origin relative to hm, hm + 1/2), in double like exactNearest.
template <int TILE> __device__ __forceinline__ void placeWindow(const ProjD& d, int X0, int Y0, int& hm, float4& pc) {
    const double tb = d.o + (double)X0 * d.c - (double)Y0 * d.s;
    const double tmin = tb + fmin(0.0, (TILE - 1) * d.c) + fmin(0.0, -(TILE - 1) * d.s);
    hm = (int)floor(tmin) - 1;
    pc = make_float4((float)d.c, (float)d.s, (float)(tb - (double)hm), (float)hm + 0.5f);
}

// Window constants of projection batch b (SD projections, one per thread of the first SD threads).
template <int TILE, int SD>
__device__ __forceinline__ void placeBatch(const ProjD* __restrict__ pd, int np, int b, int X0, int Y0, int* shm, float4* spc) {
    const int p = b * SD + threadIdx.x;
    if (threadIdx.x < SD && p < np) placeWindow<TILE>(pd[p], X0, Y0, shm[threadIdx.x], spc[threadIdx.x]);
}

// The double-buffered cp.async pipeline over projection batches of SD: issue(b) copies batch b's windows into buffer
// b & 1 (and commits them), body(b, nb) consumes batch b of nb projections while batch b+1 is in flight. Window
// constants are triple-buffered: batch b+1's are placed before the barrier of batch b, when b-1's are no longer read.
template <int TILE, int SD, typename Issue, typename Body>
__device__ __forceinline__ void pipelineBatches(const ProjD* __restrict__ pd, int np, int X0, int Y0, int (*shm)[SD],
                                                float4 (*spc)[SD], Issue&& issue, Body&& body) {
    const int nbat = (np + SD - 1) / SD;
    placeBatch<TILE, SD>(pd, np, 0, X0, Y0, shm[0], spc[0]);
    __syncthreads();
    issue(0);
    for (int b = 0; b < nbat; b++) {
        if (b + 1 < nbat) placeBatch<TILE, SD>(pd, np, b + 1, X0, Y0, shm[(b + 1) % 3], spc[(b + 1) % 3]);
        asm volatile("cp.async.wait_all;\n" ::: "memory");
        __syncthreads();
        if (b + 1 < nbat) issue(b + 1);
        body(b, min(SD, np - b * SD));
    }
}

template <int P, int K> __device__ __forceinline__ void zeroAcc(float (&acc)[P][K]) {
#pragma unroll
    for (int q = 0; q < P; q++)
#pragma unroll
        for (int s = 0; s < K; s++) acc[q][s] = 0.f;
}

// cp.async of CB bytes (zero-filled when !ok) to a shared-space address: 16 bytes bypass L1 (cg), smaller copies go
// through it (ca)
template <int CB> __device__ __forceinline__ void cpAsyncShared(unsigned sdst, const void* gmem, bool ok) {
    if constexpr (CB == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sdst), "l"(gmem), "r"(ok ? 16 : 0) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(sdst), "l"(gmem), "n"(CB), "r"(ok ? CB : 0) : "memory");
}
template <int CB> __device__ __forceinline__ void cpAsync(void* smem, const void* gmem, bool ok) {
    cpAsyncShared<CB>((unsigned)__cvta_generic_to_shared(smem), gmem, ok);
}

template <int K, bool HALF, int TILE, int NT, int SD, int HM>
__device__ __forceinline__ void bpAluAsync(const CacheEntry<K, HALF, true>* __restrict__ ents, int epitch, int width, int np,
                                           const ProjD* __restrict__ pd, float* __restrict__ out, int rows, int cols,
                                           long long plane) {
    typedef CacheEntry<K, HALF, true> E;
    constexpr int CW = CacheW<TILE>::value;
    constexpr int ROWSTEP = NT / TILE;
    constexpr int PPT = TILE / ROWSTEP;
    constexpr int SQX = TILE / 4;
    ents += (size_t)blockIdx.z * np * epitch;  // grid z: group of the chunk (entries array and K output planes each)
    out += (size_t)blockIdx.z * K * plane;
    constexpr int CB = sizeof(E) >= 16 ? 16 : (int)sizeof(E);  // bytes per copy
    constexpr int CH = (int)sizeof(E) / CB;                     // copies per entry
    static_assert(NT % TILE == 0 && ROWSTEP % 4 == 0, "tile/thread mapping");
    __shared__ __align__(16) E cache[2][SD][CW];
    __shared__ float4 spc[3][SD];
    __shared__ int shm[3][SD];

    const int tid = threadIdx.x;
    const int sqi = tid >> 4, pz = tid & 15;
    const int lx = (sqi % SQX) * 4 + ((pz & 1) | ((pz >> 1) & 2));
    const int ly = (sqi / SQX) * 4 + (((pz >> 1) & 1) | ((pz >> 2) & 2));
    const int X0 = blockIdx.x * TILE, Y0 = blockIdx.y * TILE;

    float acc[PPT][K];
    zeroAcc(acc);

    auto issue = [&](int b) {
        const int pb = b * SD, nb = min(SD, np - pb), buf = b & 1;
        for (int x = tid; x < SD * CW * CH; x += NT) {
            const int j = x / (CW * CH), r = x - j * (CW * CH), i = r / CH, h = r - i * CH;
            if (j < nb) {
                const int e = shm[b % 3][j] + i + 1;  // entry e holds columns (e-1, e)
                const bool ok = e >= 0 && e <= width;
                const char* src = reinterpret_cast<const char*>(ents + (size_t)(pb + j) * epitch + (ok ? e : 0)) + h * CB;
                cpAsync<CB>(reinterpret_cast<char*>(&cache[buf][j][i]) + h * CB, src, ok);
            }
        }
        asm volatile("cp.async.commit_group;\n" ::: "memory");
    };

    pipelineBatches<TILE, SD>(pd, np, X0, Y0, shm, spc, issue, [&](int b, int nb) {
        accumulateCached<K, HALF, false, true, CW, PPT, ROWSTEP, HM>(cache[b & 1], spc[b % 3], shm[b % 3], nb, b * SD, pd,
                                                                     X0, Y0, lx, ly, acc);
    });

    const int c = X0 + lx;
    if (c < cols) {
#pragma unroll
        for (int q = 0; q < PPT; q++) {
            int r = Y0 + ly + q * ROWSTEP;
            if (r < rows) {
                size_t o = (size_t)r * cols + c;
#pragma unroll
                for (int s = 0; s < K; s++) out[s * plane + o] = acc[q][s];
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------
// ALU kernel with a register window (8 half slices, linear; name infix _win, variant ":win"). The cache holds
// bins (16 bytes: 8 half slices), not entries, filled by cp.async from the compound sinogram and double-buffered
// (batches of SD projections; the rows of a last, partial batch are zero and add nothing). Each thread owns a
// column of PPT adjacent pixels (y, y+1, ...) and walks it downwards. Along the column t changes by -sin per pixel
// and |sin| <= 1, so the walk coordinate v = t (sin >= 0) or v = -t (sin < 0) falls by |sin| per pixel and
// floor(v) by 0 or 1: the upper bin of the next pixel is the current pixel's lower or upper bin, both in
// registers, and one 16-byte load serves each update instead of 32 bytes (value and difference).
// - The fraction of v is a 32-bit fixed-point number F: a step subtracts S = |sin| * 2^32, and a borrow is the
//   crossing into the next bin (the byte offset moves by one bin, the old lower bin becomes the upper one).
// - The weights are (1 - f, f) rounded to 11 bits n / 2048, as the half bit patterns n and 2048 - n: both mean
//   n * 2^-24 exactly (subnormals and the first binade have the same spacing), built by one integer multiply-add.
//   v carries + 2^-12 so that truncating the fraction to 11 bits rounds it. The products are 2^-13 of the true
//   ones; so each group's compound sinogram is packed scaled by 2^e (bp_pack_k8_h_win; e = WIN_EXP_BIAS minus the
//   binary exponent of the group's largest magnitude, found by bp_absmax_k8), which keeps the half products in the
//   normal range for data of any magnitude, and the result is scaled back once at the end.
// - Sums of STEP (4 or 8: h4p / h8p) projections are kept in half2 before each addition to the float accumulators.
// Window constants per projection (placeWinBatch): the block's window starts at column hm (one below its lowest t);
// v + MAG = x*C + y*Y + Zm for the pixel at (x, y) of the block, with MAG = 1.5 * 2^ME, so that the float's low FB =
// 23 - ME mantissa bits hold the fraction of v and the bits above them floor(v) + constant.
#define WIN_EXP_BIAS 13  // the packed data stays below 2^13 in magnitude; products below 2^0
template <int TILE> struct WinMag {
    static const int ME = TILE <= 32 ? 7 : 8;  // |v| < 2^(ME-1): t relative to the window is below 1.42 * TILE + 4
    static const int FB = 23 - ME;
};
// Window constants of batch b (one projection per thread of the first SD): spc = (C, Y, Zm, hm as int bits),
// sps = (S = |sin| * 2^32, ob, nd, 0) with the byte offset of bin floor(v) = ob + (bits(v + MAG) >> FB) * nd and
// nd = -(the byte step of that offset when v crosses down), scp = (hm, bin index of column hm in the group's
// compound sinogram) for the copies. Rows past the last projection get a zero step and a zero-filled row.
template <int TILE, int SD, int CW>
__device__ __forceinline__ void placeWinBatch(const ProjD* __restrict__ pd, int np, int b, int X0, int Y0, float4* spc,
                                              int4* sps, int2* scp, int pitch, unsigned cacheBase) {
    const int j = threadIdx.x;
    if (j >= SD) return;
    const int p = b * SD + j;
    constexpr int ME = WinMag<TILE>::ME, FB = WinMag<TILE>::FB;
    const double mag = 1.5 * (double)(1 << ME);
    const unsigned magHi = (unsigned)__float_as_int((float)mag) >> FB;  // bits(v + MAG) >> FB = magHi + floor(v)
    const unsigned rowbase = cacheBase + (unsigned)(j * CW * 16);
    if (p < np) {
        const ProjD d = pd[p];
        const double tb = d.o + (double)X0 * d.c - (double)Y0 * d.s;
        const double tmin = tb + fmin(0.0, (TILE - 1) * d.c) + fmin(0.0, -(TILE - 1) * d.s);
        const int hm = (int)floor(tmin) - 1;
        const bool neg = d.s < 0;
        const double z = tb - (double)hm;  // t of the block origin, relative to the window
        const int doff = neg ? 16 : -16;  // byte step of bin floor(v) when v crosses down: t bins fall, -t bins rise
        spc[j] = make_float4((float)(neg ? -d.c : d.c), (float)(-fabs(d.s)), (float)((neg ? -z : z) + 1.0 / 4096.0 + mag),
                             __int_as_float(hm));
        // floor(v) = (bits >> FB) - magHi; the t bin is floor(v) (walk t) or -floor(v) (walk -t)
        const int fl0 = (int)magHi;
        sps[j] = make_int4((int)(unsigned)fmin(fabs(d.s) * 4294967296.0, 4294967295.0),
                           (int)(rowbase + (unsigned)(fl0 * doff)), -doff, 0);
        scp[j] = make_int2(hm, p * pitch + hm);
    } else {  // past the last projection: zero cache row, zero step, v = 1: adds nothing
        spc[j] = make_float4(0.f, 0.f, (float)(mag + 1.0), __int_as_float(0));
        const int fl0 = (int)magHi;
        sps[j] = make_int4(0, (int)(rowbase + (unsigned)(fl0 * -16)), 16, 0);
        scp[j] = make_int2(-(1 << 30), 0);  // every column out of range: the copy zero-fills the row
    }
}

__device__ __forceinline__ uint4 ldsU4(unsigned a) {
    uint4 v;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a));
    return v;
}

// Power-of-two exponent e for a group whose largest magnitude has the bits gmax: data * 2^e stays below
// 2^WIN_EXP_BIAS (0 for an all-zero group).
__device__ __forceinline__ int winExp(unsigned gmax) {
    const float m = __int_as_float((int)gmax);
    if (!(m > 0.f) || !(m < 3.0e38f)) return 0;  // zero, NaN or inf: no scaling (NaN/inf stay as they are)
    int ex;
    frexpf(m, &ex);  // m = f * 2^ex, f in [0.5, 1)
    return WIN_EXP_BIAS - ex;
}

// The register-window kernels' results: the K slices of the thread's column of PPT pixels from (c, r), times scale,
// where they fall inside the rows x cols ROI.
template <int PPT, int K>
__device__ __forceinline__ void storeColumn(const float (&acc)[PPT][K], float* __restrict__ out, int c, int r, int rows,
                                            int cols, long long plane, float scale) {
    if (c >= cols) return;
#pragma unroll
    for (int q = 0; q < PPT; q++) {
        if (r + q < rows) {
            const size_t o = (size_t)(r + q) * cols + c;
#pragma unroll
            for (int s = 0; s < K; s++) out[s * plane + o] = acc[q][s] * scale;
        }
    }
}

// The cp.async copies of projection batch b into the double-buffered cache of the register-window kernels: SD rows of
// CW bins of V 16-byte units, row j taken from the compound sinogram's columns cp[j].x + i (bin index cp[j].y + i),
// zero-filled outside [0, width), into buffer b & 1; then one commit. Thread tid < RG * CW * V copies unit
// tid % (CW * V) of rows tid / (CW * V) + k * RG.
template <int NT, int SD, int CW, int V>
__device__ __forceinline__ void issueWinCopies(unsigned cbase0, int b, const int2* cp, const uint4* __restrict__ sino,
                                               int width) {
    constexpr int CWV = CW * V;   // 16-byte copies per cache row
    constexpr int RG = NT / CWV;  // row groups
    const int tid = threadIdx.x, ci = tid % CWV, cg = tid / CWV, cbin = ci / V, cpart = ci % V;
    if (cg < RG) {
        const unsigned dst0 = cbase0 + (unsigned)(((b & 1) * SD * CWV + cg * CWV + ci) * 16);
#pragma unroll
        for (int k = 0; k < (SD + RG - 1) / RG; k++) {
            const int j = cg + k * RG;
            if (SD % RG == 0 || j < SD) {
                const int2 h = cp[j];
                const bool ok = (unsigned)(h.x + cbin) < (unsigned)width;
                cpAsyncShared<16>(dst0 + (unsigned)(k * RG * CWV * 16), sino + (ok ? (unsigned)(h.y + cbin) * V + cpart : 0u),
                                  ok);
            }
        }
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int TILE, int NT, int SD, int STEP>
__device__ __forceinline__ void bpAluWin(const uint4* __restrict__ sino, int pitch, int width, int np,
                                         const ProjD* __restrict__ pd, float* __restrict__ out, int rows, int cols,
                                         long long plane, const unsigned* __restrict__ gmax) {
    constexpr int K = 8;
    typedef WinLayout<TILE, SD> L;
    constexpr int CW = L::CW;
    constexpr int SEGS = NT / TILE;
    constexpr int PPT = TILE / SEGS;
    constexpr int FB = WinMag<TILE>::FB;
    static_assert(NT % TILE == 0 && SD % STEP == 0 && SD <= NT, "mapping");
    sino += (size_t)blockIdx.z * np * pitch;
    out += (size_t)blockIdx.z * K * plane;
    // dynamic shared memory (WinLayout, the manifest's dynamicShared): double-buffered cache, triple-buffered constants
    extern __shared__ __align__(16) uint4 dsm[];
    uint4 (*cache)[SD][CW] = reinterpret_cast<uint4 (*)[SD][CW]>(dsm);
    float4 (*spc)[SD] = reinterpret_cast<float4 (*)[SD]>(dsm + L::SPC);
    int4 (*sps)[SD] = reinterpret_cast<int4 (*)[SD]>(dsm + L::SPS);
    int2 (*scp)[SD] = reinterpret_cast<int2 (*)[SD]>(dsm + L::SCP);
    const int tid = threadIdx.x;
    const int lx = tid % TILE, ly0 = (tid / TILE) * PPT;
    const int X0 = blockIdx.x * TILE, Y0 = blockIdx.y * TILE;
    const unsigned cbase0 = (unsigned)__cvta_generic_to_shared(&cache[0][0][0]);
    float acc[PPT][K];
    zeroAcc(acc);
    const int nbat = (np + SD - 1) / SD;
    const float outScale = ldexpf(1.f, WIN_EXP_BIAS - winExp(gmax[blockIdx.z]));  // weights 2^-13, data 2^e
    auto issue = [&](int b) { issueWinCopies<NT, SD, CW, 1>(cbase0, b, scp[b % 3], sino, width); };
    placeWinBatch<TILE, SD, CW>(pd, np, 0, X0, Y0, spc[0], sps[0], scp[0], pitch, cbase0);
    __syncthreads();
    issue(0);
    const float flx = (float)lx, fly = (float)ly0;
    for (int b = 0; b < nbat; b++) {
        if (b + 1 < nbat)
            placeWinBatch<TILE, SD, CW>(pd, np, b + 1, X0, Y0, spc[(b + 1) % 3], sps[(b + 1) % 3], scp[(b + 1) % 3], pitch,
                                      cbase0 + (unsigned)(((b + 1) & 1) * SD * CW * 16));
        asm volatile("cp.async.wait_all;\n" ::: "memory");
        __syncthreads();
        if (b + 1 < nbat) issue(b + 1);
        const float4* pc = spc[b % 3];
        const int4* ps = sps[b % 3];
        for (int j0 = 0; j0 < SD; j0 += STEP) {
            __half2 r[PPT][4];
#pragma unroll
            for (int u = 0; u < STEP; u++) {
                const int j = j0 + u;
                const float4 c4 = pc[j];
                const int4 sd = ps[j];
                const unsigned S = (unsigned)sd.x, ndoff = (unsigned)sd.z;
                // bits of v + MAG at the thread's first pixel: the low FB bits are the fraction of v, those above
                // floor(v) + magHi
                const unsigned vb = (unsigned)__float_as_int(fmaf(flx, c4.x, fmaf(fly, c4.y, c4.z)));
                unsigned F = vb << (32 - FB);                        // fraction, 32-bit fixed point
                unsigned off = (unsigned)sd.y + (vb >> FB) * ndoff;  // lower bin (in walk order); B the upper
                uint4 A = ldsU4(off);
                uint4 B = ldsU4(off + ndoff);
#pragma unroll
                for (int q = 0; q < PPT; q++) {
                    if (q > 0) {
                        // one pixel on: F -= S; on a borrow, off moves one bin on and B takes A; then A is loaded
                        asm("{\n\t.reg .pred p;\n\t"
                            "setp.lt.u32 p, %0, %6;\n\t"
                            "sub.u32 %0, %0, %6;\n\t"
                            "@p sub.u32 %1, %1, %7;\n\t"
                            "selp.b32 %2, %8, %2, p;\n\t"
                            "selp.b32 %3, %9, %3, p;\n\t"
                            "selp.b32 %4, %10, %4, p;\n\t"
                            "selp.b32 %5, %11, %5, p;\n\t}"
                            : "+r"(F), "+r"(off), "+r"(B.x), "+r"(B.y), "+r"(B.z), "+r"(B.w)
                            : "r"(S), "r"(ndoff), "r"(A.x), "r"(A.y), "r"(A.z), "r"(A.w));
                        A = ldsU4(off);
                    }
                    // weights as half bit patterns: lo n (f), hi 2048 - n (1 - f), both n * 2^-24 (x 2^-13)
                    const unsigned wb = (F >> 21) * 0xFFFF0001u + 0x08000000u;
                    const __half2 w = *reinterpret_cast<const __half2*>(&wb);
                    const __half2 ff = __low2half2(w), gg = __high2half2(w);
                    const unsigned* pa = reinterpret_cast<const unsigned*>(&A);
                    const unsigned* pb2 = reinterpret_cast<const unsigned*>(&B);
#pragma unroll
                    for (int x = 0; x < 4; x++) {
                        const __half2 av = *reinterpret_cast<const __half2*>(&pa[x]);
                        const __half2 bv = *reinterpret_cast<const __half2*>(&pb2[x]);
                        if (u == 0) r[q][x] = __hmul2(gg, av);
                        else r[q][x] = __hfma2(gg, av, r[q][x]);
                        r[q][x] = __hfma2(ff, bv, r[q][x]);
                    }
                }
            }
            // fold the half2 partials into the float accumulators
#pragma unroll
            for (int q = 0; q < PPT; q++)
#pragma unroll
                for (int x = 0; x < 4; x++) {
                    const float2 v = __half22float2(r[q][x]);
                    acc[q][2 * x] += v.x;
                    acc[q][2 * x + 1] += v.y;
                }
        }
    }
    storeColumn(acc, out, X0 + lx, Y0 + ly0, rows, cols, plane, outScale);
}

// ------------------------------------------------------------------------------------------------------
// ALU kernel with a register window in float32 (4 or 8 float32 slices, linear; name infix _f_lin_win, variant ":win"
// of the float32 modes). The walk is bpAluWin's: the cache holds bins (16 or 32 bytes) filled by cp.async from the
// compound sinogram, each thread walks a column of PPT adjacent pixels downwards, and one bin load serves each
// update, the other bin of the pair coming from the pixel above. What keeps float32 accuracy:
// - The walk coordinate v of the thread's first pixel is computed in 32-bit fixed point with WINF_FRAC fraction bits
//   (integer multiply-adds of the pixel's small integer offsets, exact), so no float rounding enters the bin or
//   its fraction; the 32-bit fraction F then steps by S = |sin| * 2^32 as in bpAluWin.
// - The weights (1 - f, f) are floats with 23 fraction bits taken from F (no rounding offset, no scaling), and
//   every product is added to the float accumulators with one FMA: 2 FMA per slice and pixel, as the float32 ALU
//   kernels with advanced caching, with half their shared-memory bytes per update.
// Window constants per projection (placeWinBatchF): spc = (C, Y, Z, hm) with v = (Z + x*C + y*Y) / 2^WINF_FRAC for
// the pixel at (x, y) of the block (C, Y, Z: the walk's cos, -|sin| and block origin relative to the window,
// rounded to fixed point), sps = (S, byte offset of the row's bin 0, nd = byte step of bin floor(v) as v rises, 0),
// scp = (hm, bin index of column hm in the group's compound sinogram) for the copies.
#define WINF_FRAC 25  // |v| < 64 for tiles up to 32 (t relative to the window stays below 1.42 * TILE + 4)
template <int TILE, int SD, int CW, int BB>
__device__ __forceinline__ void placeWinBatchF(const ProjD* __restrict__ pd, int np, int b, int X0, int Y0, int4* spc,
                                               int4* sps, int2* scp, int pitch, unsigned cacheBase) {
    static_assert(TILE <= 32, "WINF_FRAC leaves 6 integer bits of v");
    const int j = threadIdx.x;
    if (j >= SD) return;
    const int p = b * SD + j;
    const unsigned rowbase = cacheBase + (unsigned)(j * CW * BB);
    const double one = (double)(1 << WINF_FRAC);
    if (p < np) {
        const ProjD d = pd[p];
        const double tb = d.o + (double)X0 * d.c - (double)Y0 * d.s;
        const double tmin = tb + fmin(0.0, (TILE - 1) * d.c) + fmin(0.0, -(TILE - 1) * d.s);
        const int hm = (int)floor(tmin) - 1;
        const bool neg = d.s < 0;  // walk -t: t rises down the column
        const double z = tb - (double)hm;
        spc[j] = make_int4((int)llrint((neg ? -d.c : d.c) * one), (int)llrint(-fabs(d.s) * one),
                           (int)llrint((neg ? -z : z) * one), hm);
        sps[j] = make_int4((int)(unsigned)fmin(fabs(d.s) * 4294967296.0, 4294967295.0), (int)rowbase, neg ? -BB : BB, 0);
        scp[j] = make_int2(hm, p * pitch + hm);
    } else {  // past the last projection: zero cache row, zero step, v = 1: adds nothing
        spc[j] = make_int4(0, 0, 1 << WINF_FRAC, 0);
        sps[j] = make_int4(0, (int)rowbase, BB, 0);
        scp[j] = make_int2(-(1 << 30), 0);  // every column out of range: the copy zero-fills the row
    }
}

template <int K, int TILE, int NT, int SD>
__device__ __forceinline__ void bpAluWinF(const uint4* __restrict__ sino, int pitch, int width, int np,
                                          const ProjD* __restrict__ pd, float* __restrict__ out, int rows, int cols,
                                          long long plane) {
    static_assert(K == 4 || K == 8, "4 or 8 float32 slices a bin");
    constexpr int V = K / 4;  // 16-byte units a bin
    constexpr int BB = 16 * V;
    typedef WinLayout<TILE, SD, V> L;
    constexpr int CW = L::CW;
    constexpr int SEGS = NT / TILE;
    constexpr int PPT = TILE / SEGS;
    static_assert(NT % TILE == 0 && SD <= NT && NT >= CW * V, "mapping");
    sino += (size_t)blockIdx.z * np * pitch * V;
    out += (size_t)blockIdx.z * K * plane;
    // dynamic shared memory (WinLayout, the manifest's dynamicShared): double-buffered cache, triple-buffered constants
    extern __shared__ __align__(16) uint4 dsm[];
    int4 (*spc)[SD] = reinterpret_cast<int4 (*)[SD]>(dsm + L::SPC);
    int4 (*sps)[SD] = reinterpret_cast<int4 (*)[SD]>(dsm + L::SPS);
    int2 (*scp)[SD] = reinterpret_cast<int2 (*)[SD]>(dsm + L::SCP);
    const int tid = threadIdx.x;
    const int lx = tid % TILE, ly0 = (tid / TILE) * PPT;
    const int X0 = blockIdx.x * TILE, Y0 = blockIdx.y * TILE;
    const unsigned cbase0 = (unsigned)__cvta_generic_to_shared(dsm);
    float acc[PPT][K];
    zeroAcc(acc);
    const int nbat = (np + SD - 1) / SD;
    auto issue = [&](int b) { issueWinCopies<NT, SD, CW, V>(cbase0, b, scp[b % 3], sino, width); };
    placeWinBatchF<TILE, SD, CW, BB>(pd, np, 0, X0, Y0, spc[0], sps[0], scp[0], pitch, cbase0);
    __syncthreads();
    issue(0);
    for (int b = 0; b < nbat; b++) {
        if (b + 1 < nbat)
            placeWinBatchF<TILE, SD, CW, BB>(pd, np, b + 1, X0, Y0, spc[(b + 1) % 3], sps[(b + 1) % 3], scp[(b + 1) % 3],
                                             pitch, cbase0 + (unsigned)(((b + 1) & 1) * SD * CW * BB));
        asm volatile("cp.async.wait_all;\n" ::: "memory");
        __syncthreads();
        if (b + 1 < nbat) issue(b + 1);
        const int4* pc = spc[b % 3];
        const int4* ps = sps[b % 3];
#pragma unroll 2
        for (int j = 0; j < SD; j++) {
            const int4 c4 = pc[j];
            const int4 sd = ps[j];
            const unsigned S = (unsigned)sd.x, nd = (unsigned)sd.z;
            const int vq = c4.z + lx * c4.x + ly0 * c4.y;  // v of the first pixel, WINF_FRAC fraction bits
            unsigned F = (unsigned)vq << (32 - WINF_FRAC);  // fraction of v, 32-bit fixed point
            unsigned off = (unsigned)sd.y + (unsigned)(vq >> WINF_FRAC) * nd;  // bin floor(v); the upper bin at off + nd
            uint4 A[V], B[V];
#pragma unroll
            for (int i = 0; i < V; i++) {
                A[i] = ldsU4(off + 16 * i);
                B[i] = ldsU4(off + nd + 16 * i);
            }
#pragma unroll
            for (int q = 0; q < PPT; q++) {
                if (q > 0) {
                    // one pixel on: F -= S; on a borrow, floor(v) falls by one: the bin moves, B takes A, A is loaded
                    const bool borrow = F < S;
                    F -= S;
                    if (borrow) {
                        off -= nd;
#pragma unroll
                        for (int i = 0; i < V; i++) B[i] = A[i];
                    }
#pragma unroll
                    for (int i = 0; i < V; i++) A[i] = ldsU4(off + 16 * i);
                }
                // f = fraction of v with 23 bits, from a float in [1, 2) built from F's top bits; g = 1 - f, both exact
                const float f1 = __uint_as_float(0x3F800000u | (F >> 9));
                const float f = f1 - 1.f, g = 2.f - f1;
#pragma unroll
                for (int i = 0; i < V; i++) {
                    const float* a = reinterpret_cast<const float*>(&A[i]);
                    const float* bb = reinterpret_cast<const float*>(&B[i]);
#pragma unroll
                    for (int x = 0; x < 4; x++) acc[q][4 * i + x] = fmaf(f, bb[x], fmaf(g, a[x], acc[q][4 * i + x]));
                }
            }
        }
    }
    storeColumn(acc, out, X0 + lx, Y0 + ly0, rows, cols, plane, 1.f);
}

// Largest magnitude of a group's K float sinograms (slices < nValid), as float bits, atomically into *gmax (which
// the caller zeroes): the scale of the register-window and tensor-core kernels' packing.
template <int K>
__device__ __forceinline__ void absMax(const float* __restrict__ raw, int width, int np, long long sliceStride, int nValid,
                                       unsigned* gmax) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x, p = blockIdx.y;
    float m = 0.f;
    if (col < width && p < np)
        for (int s = 0; s < K && s < nValid; s++) m = fmaxf(m, fabsf(raw[s * sliceStride + (size_t)p * width + col]));
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if ((threadIdx.x & 31) == 0 && m > 0.f) atomicMax(gmax, (unsigned)__float_as_int(m));
}

// ------------------------------------------------------------------------------------------------------
// Tensor-core kernel (8 or 4 half slices per bin, linear; name bp_tc_kKB_h_lin_tWxH_sN, variant "tc"). Back-projection
// as small matrix products on the tensor cores (mma.sync m16n8k16, f16 in, f32 accumulate):
//   D[m][n] += sum_k A[m][k] * B[k][n],  m: a pixel of a 4x4 patch (16), n: a slice of a cache row (8),
//   k: 8 consecutive bins of projection j, then 8 of projection j + 1 (16).
// - B is the compound sinogram itself: 8 bins of 16 bytes (8 half slices) are an 8x8 matrix, and ldmatrix.trans
//   loads it from the bin cache straight into the mma's B fragment. One ldmatrix.x4 serves two groups and two
//   projections; 32 slices per block (4 groups of 8, or 8 groups of 4) share the weights. With 4 slices per bin
//   the cache fill puts the bins of groups 2c and 2c + 1 side by side, so the cache holds 8-slice entries either way.
// - A holds the linear-interpolation weights relu(1 - |tau - b|) of bin b for a pixel at tau (in bins from the
//   patch's window start): two per pixel are non-zero. A patch spans at most 3 |cos| + 3 |sin| < 4.25 bins, so
//   its bins fit an 8-bin window starting at floor(t_min) of the patch. Lane 4g + t builds the weights of bins 2t
//   and 2t + 1 for pixels g and g + 8 of the patch (rows g and g + 8 of A), as the mma fragment layout asks.
// - D stays in registers across all projections: each thread holds pixels g and g + 8 of each of its warp's four
//   patches (an 8x8 region) for slices 2t and 2t + 1 of each 8-slice cache row: 4 patches x 4 rows x 4 floats.
// The cache holds, per projection of the batch and per 8-slice row (a group, or two groups of 4), CWT entries from
// one below the tile's lowest t (double buffered, filled by cp.async from the compound sinograms, zero outside
// [0, width), past the last projection and for groups past ngroups). The data is packed scaled by 2^e per group
// (bp_absmax_kKB, bp_pack_kKB_h_win: e keeps it below 2^13 in half) and scaled back at the end; the weights are
// normal halves (11 bits, error <= 2^-12).
// relu(1 - |u|) and relu(1 - |u - 1|) as a half2 (low: u): the weights of two adjacent bins, u = tau - bin
__device__ __forceinline__ unsigned tentPair(float u) {
    const __half2 U = __floats2half2_rn(u, u - 1.f);
    const __half2 W = __hfma2_relu(__habs2(U), __float2half2_rn(-1.f), __float2half2_rn(1.f));
    return *reinterpret_cast<const unsigned*>(&W);
}
__device__ __forceinline__ void ldsmX4T(unsigned (&b)[4], unsigned addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(addr));
}
__device__ __forceinline__ void mmaK16(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
// Warps of BWX x BWY 8x8 regions (2x2 patches each); SD projections per cache buffer (even).
template <int KB, int BWX, int BWY, int SD>
__device__ __forceinline__ void bpTc(const typename Bin<KB, true>::T* __restrict__ sino, int pitch, int width, int np,
                                     const ProjD* __restrict__ pd, const unsigned* __restrict__ gmax, float* __restrict__ out,
                                     int rows, int cols, long long plane, int ngroups) {
    static_assert(KB == 8 || KB == 4, "8 or 4 half slices per bin");
    constexpr int TX = 8 * BWX, TY = 8 * BWY;
    typedef TcLayout<KB, TX, TY, SD> L;
    constexpr int G = L::G;    // 8-slice cache rows per projection (mma n = 8 slices)
    constexpr int H = L::H;    // groups per cache row
    constexpr int GB = L::GB;  // groups per block
    constexpr int NT = L::NT;
    constexpr int CWT = L::CWT;
    constexpr int ROWB = G * CWT * 16;  // cache bytes per projection
    static_assert(SD % 2 == 0 && SD <= NT, "projection pairs");
    extern __shared__ __align__(16) uint4 dsm[];
    {
        // the launch must give the layout below (TcLayout, the manifest's dynamicShared): a smaller size is a
        // programming error, trapped rather than read out of bounds
        unsigned dyn;
        asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
        if (dyn < (unsigned)L::BYTES) __trap();
    }
    // dynamic shared memory (TcLayout): cache [2][SD][G][CWT] entries, then per projection of three batches (c, -s, t
    // of the tile origin above hm, lowest t of a patch above its origin) and (hm, p*pitch+hm)
    float4* spc = reinterpret_cast<float4*>(dsm + L::SPC);
    int2* shm = reinterpret_cast<int2*>(spc + 3 * SD);
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const int g = lane >> 2, t4 = lane & 3;
    const int X0 = blockIdx.x * TX, Y0 = blockIdx.y * TY, gz0 = blockIdx.z * GB;
    const int nvg = min(GB, ngroups - gz0);
    sino += (size_t)gz0 * np * pitch;
    const float dx = (float)(g & 3), dy = (float)(g >> 2);
    const float wx0 = (float)((w % BWX) * 8), wy0 = (float)((w / BWX) * 8);
    // ldmatrix rows of this lane: matrix (lane >> 3) = (projection lane>>3 & 1 of the pair, cache row lane >> 4 of
    // rows 0, 1), row lane & 7 of the 8-bin window; the second ldmatrix reads cache rows 2, 3 (2 * CWT entries on)
    const bool second = (lane >> 3) & 1;
    const unsigned laneOff = (unsigned)(((lane >> 4) * CWT + (lane & 7)) * 16 + (second ? ROWB : 0));
    const unsigned cbase0 = (unsigned)__cvta_generic_to_shared(dsm);
    float acc[4][G][4];
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < G; b++)
#pragma unroll
            for (int c = 0; c < 4; c++) acc[a][b][c] = 0.f;
    const int nbat = (np + SD - 1) / SD;
    auto place = [&](int b) {
        const int j = tid;
        if (j >= SD) return;
        const int p = b * SD + j;
        float4* sc = spc + (b % 3) * SD;
        int2* sh = shm + (b % 3) * SD;
        if (p < np) {
            const ProjD d = pd[p];
            const double tb = d.o + (double)X0 * d.c - (double)Y0 * d.s;
            const double tmin = tb + fmin(0.0, (TX - 1) * d.c) + fmin(0.0, -(TY - 1) * d.s);
            const int hm = (int)floor(tmin) - 1;
            sc[j] = make_float4((float)d.c, (float)(-d.s), (float)(tb - hm), (float)(fmin(0.0, 3 * d.c) + fmin(0.0, -3 * d.s)));
            sh[j] = make_int2(hm, p * pitch + hm);
        } else {  // past the last projection: a zero row (every column out of range), weights anywhere
            sc[j] = make_float4(0.f, 0.f, 1.5f, 0.f);
            sh[j] = make_int2(-(1 << 30), 0);
        }
    };
    constexpr int RG = NT / CWT;  // row groups of the fill: thread tid < RG * CWT copies column tid % CWT
    const int ci = tid % CWT, rg = tid / CWT;
    auto issue = [&](int b) {
        if (rg < RG) {
            const int2* sh = shm + (b % 3) * SD;
            const unsigned dst0 = cbase0 + (unsigned)((b & 1) * SD * ROWB + ci * 16);
#pragma unroll 4
            for (int r = rg; r < SD * GB; r += RG) {  // copy r: projection r / GB, group r % GB (cache row grp / H)
                const int j = r / GB, grp = r % GB;
                const int2 h = sh[j];
                const bool ok = (unsigned)(h.x + ci) < (unsigned)width && grp < nvg;
                const typename Bin<KB, true>::T* src = sino + (ok ? (size_t)grp * np * pitch + (unsigned)(h.y + ci) : 0);
                cpAsyncShared<2 * KB>(dst0 + (unsigned)((j * G + grp / H) * CWT * 16 + (grp % H) * 2 * KB), src, ok);
            }
        }
        asm volatile("cp.async.commit_group;\n" ::: "memory");
    };
    place(0);
    __syncthreads();
    issue(0);
    const float MAGIC = 12582912.f;  // 1.5 * 2^23: x + MAGIC rounded down holds floor(x) in its low mantissa bits
    for (int b = 0; b < nbat; b++) {
        if (b + 1 < nbat) place(b + 1);
        asm volatile("cp.async.wait_all;\n" ::: "memory");
        __syncthreads();
        if (b + 1 < nbat) issue(b + 1);
        const float4* pc = spc + (b % 3) * SD;
        // + (bits of k0 + MAGIC) * 16 gives the byte offset of bin k0
        const unsigned cb = cbase0 + (unsigned)((b & 1) * SD * ROWB) + laneOff - 0x4B400000u * 16u;
#pragma unroll 1
        for (int j = 0; j < SD; j += 2) {
            const float4 k = pc[j], k2 = pc[j + 1];
            const unsigned rowb = cb + (unsigned)(j * ROWB);
            // t - 2t4 of pixel g of a patch at the tile origin (above hm), and the patch's lowest t there
            const float e = fmaf(dx, k.x, fmaf(dy, k.y, k.z)) - (float)(2 * t4);
            const float e2 = fmaf(dx, k2.x, fmaf(dy, k2.y, k2.z)) - (float)(2 * t4);
            const float q = k.z + k.w, q2 = k2.z + k2.w;
#pragma unroll
            for (int P = 0; P < 4; P++) {
                const float ox = wx0 + (float)((P & 1) * 4), oy = wy0 + (float)((P >> 1) * 4);
                const float oc = fmaf(ox, k.x, oy * k.y), oc2 = fmaf(ox, k2.x, oy * k2.y);
                const float kf = __fadd_rd(q + oc, MAGIC), kf2 = __fadd_rd(q2 + oc2, MAGIC);  // window starts k0
                const float u = (e + oc) - (kf - MAGIC), v = (e2 + oc2) - (kf2 - MAGIC);   // tau - 2t4, pixel g
                // rows g (pixel g) and g + 8 (pixel g + 8, two rows down: t - 2 sin), projection j then j + 1
                const unsigned a[4] = {tentPair(u), tentPair(fmaf(2.f, k.y, u)), tentPair(v), tentPair(fmaf(2.f, k2.y, v))};
                const unsigned addr = rowb + ((unsigned)__float_as_int(second ? kf2 : kf) << 4);
                unsigned b01[4], b23[4];
                ldsmX4T(b01, addr);
                ldsmX4T(b23, addr + 2 * CWT * 16);
                mmaK16(acc[P][0], a, b01[0], b01[1]);
                mmaK16(acc[P][1], a, b01[2], b01[3]);
                mmaK16(acc[P][2], a, b23[0], b23[1]);
                mmaK16(acc[P][3], a, b23[2], b23[3]);
            }
        }
    }
    // D fragment: acc[P][c] = pixels g (0, 1) and g + 8 (2, 3) of patch P, slices 2t4 and 2t4 + 1 of cache row c:
    // group c (8 slices per bin) or group 2c + t4 / 2, its slices 2t4 % 4 and + 1 (4 slices per bin)
#pragma unroll
    for (int c = 0; c < G; c++) {
        const int grp = c * H + (H == 2 ? t4 >> 1 : 0), s0 = (2 * t4) % KB;
        if (grp >= nvg) continue;
        const float osc = ldexpf(1.f, -winExp(gmax[gz0 + grp]));
        float* o = out + ((size_t)(gz0 + grp) * KB + s0) * plane;
#pragma unroll
        for (int P = 0; P < 4; P++) {
            const int x = X0 + (int)wx0 + (P & 1) * 4 + (g & 3);
            const int y = Y0 + (int)wy0 + (P >> 1) * 4 + (g >> 2);
            if (x < cols) {
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int yy = y + 2 * h;
                    if (yy < rows) {
                        o[(size_t)yy * cols + x] = acc[P][c][2 * h] * osc;
                        o[plane + (size_t)yy * cols + x] = acc[P][c][2 * h + 1] * osc;
                    }
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------
// Interleave K float sinograms (slice stride sliceStride floats, rows of `width`) into the compound layout
// (rows of `pitch` bins). Slices >= nValid and columns >= width are zero. SCALED (the window and tensor-core
// kernels' packing): each value times 2^winExp(*gmax), the group's power-of-two scale.
template <int K, bool HALF, bool SCALED = false>
__device__ __forceinline__ void packSino(const float* __restrict__ raw, int width, int np, long long sliceStride,
                                         int nValid, typename Bin<K, HALF>::T* __restrict__ dst, int pitch,
                                         const unsigned* gmax = nullptr) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int p = blockIdx.y;
    if (col >= pitch || p >= np) return;
    float sc = 1.f;
    if constexpr (SCALED) sc = ldexpf(1.f, winExp(*gmax));
    float v[K];
#pragma unroll
    for (int s = 0; s < K; s++) {
        v[s] = (col < width && s < nValid) ? raw[s * sliceStride + (size_t)p * width + col] : 0.f;
        if constexpr (SCALED) v[s] *= sc;
    }
    dst[(size_t)p * pitch + col] = pack<K, HALF>(v);
}

// Entries array for TX 2: entry e of row p is makeEntry(bin e-1, bin e) of the compound sinogram (bins outside
// [0, width) are 0), for e in [0, width]; rows of `epitch` entries.
template <int K, bool HALF, int HM>
__device__ __forceinline__ void makeEntries(const typename Bin<K, HALF>::T* __restrict__ sino, int pitch, int width, int np,
                                            CacheEntry<K, HALF, true>* __restrict__ dst, int epitch) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    int p = blockIdx.y;
    if (e >= epitch || p >= np) return;
    size_t rowBase = (size_t)p * pitch;
    dst[(size_t)p * epitch + e] = makeEntry<K, HALF, HM>(loadBin<K, HALF>(sino, rowBase, e - 1, width),
                                                         loadBin<K, HALF>(sino, rowBase, e, width));
}

// ---- instantiation -----------------------------------------------------------------------------------
// The kernels are the rows of variants.def (token meanings and names: variants.cuh); each family's macro below
// defines one extern "C" kernel.
#define TS_STD(K, NN, Z, NAME)                                                                              \
    extern "C" __global__ void __launch_bounds__(TS_TEX_THREADS) NAME(TS_PARAMS_TEXTURE) {            \
        bpStd<K, NN, Z>(tex, pd, out, rows, cols, plane, np);                                              \
    }
#define TS_TEX(K, NN, NAME)                                                                                 \
    extern "C" __global__ void __launch_bounds__(TS_TEX_THREADS) NAME(TS_PARAMS_TEXTURE) {            \
        bpTex<K, NN>(tex, pd, out, rows, cols, plane, np);                                                 \
    }
// ALU and hybrid kernels; MB: minimum resident blocks per SM asked of the register allocator (0: none)
#define TS_ALU(K, HALF, NN, ADV, TILE, NT, SD, ST, HM, TX, MB, NAME)                                        \
    extern "C" __global__ void TS_MINB_##MB(NT) NAME(TS_PARAMS_ALU) {                                    \
        bpAlu<K, HALF, NN, ADV, TILE, NT, SD, ST, HM, TX>((const typename Bin<K, HALF>::T*)sino, pitch, width, \
                                                          np, pd, tex, out, rows, cols, plane);             \
    }
// asynchronous double-buffered cache from the entries array: the ALU signature with sino = the entries array and
// pitch = its pitch in entries; RG: register cap per thread (0: the compiler's choice)
#define TS_ASYNC(K, HALF, TILE, NT, SD, HM, RG, NAME)                                                       \
    extern "C" __global__ void TS_BOUNDS_##RG(NT) NAME(TS_PARAMS_ALU) {                                                        \
        bpAluAsync<K, HALF, TILE, NT, SD, HM>((const CacheEntry<K, HALF, true>*)sino, pitch, width, np, pd, out, rows, \
                                              cols, plane);                                                    \
    }
// register-window kernels (8 half slices, bins cached, one 16-byte load per update): tile, threads, pixels per
// thread, projections per cache buffer, projections per half2 partial sum. gmax: per group (grid z), the largest
// magnitude bits its packing was scaled by (bp_absmax_k8, bp_pack_k8_h_win).
#define TS_WIN(TILE, NT, PP, SD, STEP, NAME)                                                                \
    extern "C" __global__ void __launch_bounds__(NT, 512 / NT) NAME(TS_PARAMS_WINDOW) {                      \
        static_assert(TILE / (NT / TILE) == PP, "pixels per thread");                                        \
        bpAluWin<TILE, NT, SD, STEP>((const uint4*)sino, pitch, width, np, pd, out, rows, cols, plane, gmax);  \
    }
// float32 register-window kernels (4 or 8 float32 slices per bin, bins cached, one bin load per update): the ALU
// signature (tex unused)
#define TS_WINF(K, TILE, NT, PP, SD, NAME)                                                                  \
    extern "C" __global__ void __launch_bounds__(NT, 512 / NT) NAME(TS_PARAMS_ALU) {                         \
        static_assert(TILE / (NT / TILE) == PP, "pixels per thread");                                        \
        bpAluWinF<K, TILE, NT, SD>((const uint4*)sino, pitch, width, np, pd, out, rows, cols, plane);         \
    }
// tensor-core kernels (KB = 8 or 4 half slices per bin, 32 slices per block): warps BWX x BWY of 8x8 pixels, SD
// projections per buffer. gmax: per group, the magnitude bits its packing was scaled by; ngroups: groups of the
// launch (grid z: 32-slice blocks).
#define TS_TC(KB, BWX, BWY, SD, NAME)                                                                       \
    extern "C" __global__ void __launch_bounds__(32 * BWX * BWY, 16 / (BWX * BWY)) NAME(TS_PARAMS_TENSOR) {  \
        bpTc<KB, BWX, BWY, SD>((const typename Bin<KB, true>::T*)sino, pitch, width, np, pd, gmax, out, rows, cols, plane, \
                               ngroups);                                                                     \
    }

// the rows of variants.def, in the sets this build compiles
#define BP_STD(SET, K, IN, ORD) TS_IN_SET_##SET(TS_STD(K, TS_NN_##IN, TS_Z_##ORD, TS_NAME_STD(K, IN, ORD)))
#define BP_TEX(SET, K, IN) TS_IN_SET_##SET(TS_TEX(K, TS_NN_##IN, TS_NAME_TEX(K, IN)))
#define BP_ALU(SET, K, F, IN, CA, TILE, PPT, SD, ST, HM, TX, MB)                                             \
    TS_IN_SET_##SET(TS_ALU(K, TS_HALF_##F, TS_NN_##IN, TS_ADV_##CA, TILE, (TILE * TILE / PPT), SD, ST, TS_HM_##HM, \
                           TS_TX_##TX, MB, TS_NAME_ALU(K, F, IN, CA, TILE, PPT, ST, HM, TX, MB)))
#define BP_ASYNC(SET, K, F, TILE, PPT, SD, HM, RG, SUF)                                                      \
    TS_IN_SET_##SET(TS_ASYNC(K, TS_HALF_##F, TILE, (TILE * TILE / PPT), SD, TS_HM_##HM, RG,                 \
                             TS_NAME_ASYNC(K, F, TILE, PPT, HM, RG, SUF)))
#define BP_WIN(SET, TILE, PPT, SD, HM)                                                                       \
    TS_IN_SET_##SET(TS_WIN(TILE, (TILE * TILE / PPT), PPT, SD, TS_STEP_##HM, TS_NAME_WIN(TILE, PPT, SD, HM)))
#define BP_WINF(SET, K, TILE, PPT, SD)                                                                      \
    TS_IN_SET_##SET(TS_WINF(K, TILE, (TILE * TILE / PPT), PPT, SD, TS_NAME_WINF(K, TILE, PPT, SD)))
#define BP_TC(SET, KB, TX, TY, SD) TS_IN_SET_##SET(TS_TC(KB, (TX / 8), (TY / 8), SD, TS_NAME_TC(KB, TX, TY, SD)))
#include "variants.def"

// the scaled packing of the window and tensor-core kernels: a group's largest magnitude, then its packing
#define TS_ABSMAX(K)                                                                                         \
    extern "C" __global__ void TS_NAME_ABSMAX(K)(TS_PARAMS_ABSMAX) {                                    \
        absMax<K>(raw, width, np, sliceStride, nValid, gmax);                                                \
    }
#define TS_PACK_WIN(K)                                                                                       \
    extern "C" __global__ void TS_NAME_PACK_WIN(K)(TS_PARAMS_PACK_WIN) {                              \
        packSino<K, true, true>(raw, width, np, sliceStride, nValid, (typename Bin<K, true>::T*)dst, pitch, gmax); \
    }
TS_ABSMAX(8)
TS_ABSMAX(4)
TS_PACK_WIN(8)
TS_PACK_WIN(4)
#define TS_ENTRIES(K, HALF, HM, NAME)                                                                       \
    extern "C" __global__ void NAME(TS_PARAMS_ENTRIES) {                                                  \
        makeEntries<K, HALF, HM>((const typename Bin<K, HALF>::T*)sino, pitch, width, np,                     \
                                 (CacheEntry<K, HALF, true>*)dst, epitch);                                    \
    }
TS_ENTRIES(1, false, 0, TS_NAME_ENTRIES_f(1))
TS_ENTRIES(2, false, 0, TS_NAME_ENTRIES_f(2))
TS_ENTRIES(2, true, 2, TS_NAME_ENTRIES_h(2))
TS_ENTRIES(4, true, 2, TS_NAME_ENTRIES_h(4))
TS_ENTRIES(8, true, 2, TS_NAME_ENTRIES_h(8))

#define TS_PACK(K, HALF, NAME)                                                                              \
    extern "C" __global__ void NAME(TS_PARAMS_PACK) {                                                    \
        packSino<K, HALF>(raw, width, np, sliceStride, nValid, (typename Bin<K, HALF>::T*)dst, pitch);       \
    }
TS_PACK(1, false, TS_NAME_PACK(1, f))
TS_PACK(2, false, TS_NAME_PACK(2, f))
TS_PACK(4, false, TS_NAME_PACK(4, f))
TS_PACK(8, false, TS_NAME_PACK(8, f))
TS_PACK(1, true, TS_NAME_PACK(1, h))
TS_PACK(2, true, TS_NAME_PACK(2, h))
TS_PACK(4, true, TS_NAME_PACK(4, h))
TS_PACK(8, true, TS_NAME_PACK(8, h))
