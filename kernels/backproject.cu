// tomospark: parallel-beam back-projection kernels (seed paper: Chilingaryan et al. 2020, sect. 5-7).
//
// Every kernel computes, for ROI pixel (row r, col c) and projection p, t = off[p] + c*cos[p] - r*sin[p]
// and sums the (linearly or nearest) interpolated bin of the filtered sinogram over all projections, K
// slices at once (compound sinogram of K interleaved slices). Bins outside [0, width) count as 0.
//
// Families (instantiated at the end of this file through macros; the Java side names them through
// org.tomospark.executor.backend.cuda.KernelVariant):
//   bp_std_*  Algorithm 1: texture fetch, one pixel per thread, 16x16 blocks, constants in __constant__;
//             with K=2/4 the plain interleaved float2/float4/half4 texture; "z" = Algorithm 2 Z-order remap.
//   bp_tex_*  Algorithm 3/4: Z-order remap, 4 projections in parallel per block, 4 pixels per thread,
//             reduction through shared memory.
//   bp_alu_*  Algorithm 6 (+9): sinogram window cached in shared memory, several pixels per thread,
//             standard or advanced caching (bin pairs: value+difference for float, value+next for half);
//             with ST > 0 it is the hybrid of sect. 7.1: ST of every SD+ST projections are read through the
//             texture unit, the rest from the shared-memory cache.
//   bp_pack_* interleaves K float sinograms into the compound layout (float or half), on the device.
#include "common.cuh"

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
    int c = blockIdx.x * 16 + lx, r = blockIdx.y * 16 + ly;
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
    float x = (float)(blockIdx.x * 16 + lx), y0 = (float)(blockIdx.y * 16 + ly0);
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
    int c = blockIdx.x * 16 + (t & 15), r = blockIdx.y * 16 + (t >> 4);
    if (c < cols && r < rows) {
        size_t o = (size_t)r * cols + c;
#pragma unroll
        for (int s = 0; s < K; s++) out[s * plane + o] = red[0][s][t] + red[1][s][t] + red[2][s][t] + red[3][s][t];
    }
}

// ------------------------------------------------------------------------------------------------------
// ALU kernel (Algorithm 6), advanced caching (Algorithm 9 idea), hybrid (sect. 7.1).
//
// Cache entry for linear interpolation with advanced caching:
//   float32: (mid, diff) = ((v0+v1)/2, v1-v0): value = mid + (f-1/2)*diff, one FADD+FFMA per slice;
//   half:    (v0, v1) both stored raw, interpolated in float: value = (1-f)*v0 + f*v1.
template <int K, bool HALF, bool ADV> struct __align__(2 * sizeof(typename Bin<K, HALF>::T) >= 16 ? 16 : 2 * sizeof(typename Bin<K, HALF>::T)) CacheEntry {
    typedef typename Bin<K, HALF>::T B;
    B a, b;
};
template <int K, bool HALF> struct CacheEntry<K, HALF, false> {
    typedef typename Bin<K, HALF>::T B;
    B a;
};

// Cache width in bins for a TILE x TILE block: (TILE-1)*sqrt(2) + 4 rounded up to 16.
template <int TILE> struct CacheW { static const int value = (((TILE - 1) * 1415) / 1000 + 4 + 15) / 16 * 16; };

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
//   2: as 1, but two projections are combined in half2 before one conversion to float.
// HM 1/2 round the interpolated value to half (relative error ~2^-11 per term): a half-precision mode.
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

// TX (hybrid, linear): fetch the two neighbouring bins through the texture at their centres, where the hardware
// weights are exactly 0, and interpolate in float: texture bandwidth without the 8-bit weight error.
template <int K, bool HALF, bool NEAREST, bool ADV, int TILE, int NT, int SD, int ST, int HM = 0, bool TX = false>
__device__ __forceinline__ void bpAlu(const typename Bin<K, HALF>::T* __restrict__ sino, int pitch, int width, int np,
                                      const ProjD* __restrict__ pd, cudaTextureObject_t tex,
                                      float* __restrict__ out, int rows, int cols, long long plane) {
    typedef typename Bin<K, HALF>::T B;
    typedef CacheEntry<K, HALF, ADV && !NEAREST> E;
    constexpr int CW = CacheW<TILE>::value;
    constexpr int ROWSTEP = NT / TILE;  // rows covered by the block in one step
    constexpr int PPT = TILE / ROWSTEP; // pixels per thread
    constexpr int SQX = TILE / 4;       // 4x4 squares along x
    constexpr int NB = SD + ST;         // projections per batch
    static_assert(NT % TILE == 0 && ROWSTEP % 4 == 0, "tile/thread mapping");
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
                        B b = loadBin<K, HALF>(sino, rowBase, col + 1, width);
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
                    if constexpr (K <= 4 && TX && !NEAREST) {
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
        const int ns = nb - ST;
        if constexpr (HM > 0 && HALF && ADV && !NEAREST && K >= 2) {
            // packed half arithmetic; HM 2 combines projection pairs in half2 before converting
            constexpr int STEP = HM == 2 ? 2 : 1;
            int j = 0;
#pragma unroll 1
            for (; j + STEP <= ns; j += STEP) {
                float hA[STEP], stA[STEP];
#pragma unroll
                for (int u = 0; u < STEP; u++) {
                    const float4 pc = spc[ST + j + u];
                    hA[u] = fmaf(flx, pc.x, fmaf(-fly, pc.y, pc.z - 0.5f));
                    stA[u] = (float)ROWSTEP * pc.y;
                }
#pragma unroll
                for (int q = 0; q < PPT; q++) {
                    __half2 r[K / 2];
#pragma unroll
                    for (int u = 0; u < STEP; u++) {
                        const float hq = fmaf(-(float)q, stA[u], hA[u]);
                        const float uu = hq + TS_MAGIC;
                        const float fl = uu - TS_MAGIC;
                        const int idx = __float_as_int(uu) - 0x4B400000;
                        const __half2 f2 = __float2half2_rn(hq - fl + 0.5f);
                        const E ent = cache[j + u][idx];
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
            for (; j < ns; j++) {  // odd tail (HM 2)
                const float4 pc = spc[ST + j];
                const float h = fmaf(flx, pc.x, fmaf(-fly, pc.y, pc.z - 0.5f));
                const float st = (float)ROWSTEP * pc.y;
#pragma unroll
                for (int q = 0; q < PPT; q++) {
                    const float hq = fmaf(-(float)q, st, h);
                    const float uu = hq + TS_MAGIC;
                    const float fl = uu - TS_MAGIC;
                    const int idx = __float_as_int(uu) - 0x4B400000;
                    const __half2 f2 = __float2half2_rn(hq - fl + 0.5f);
                    const E ent = cache[j][idx];
                    __half2 r[K / 2];
                    h2Interp<K>(ent.a, ent.b, f2, r);
                    h2Accumulate<K>(r, acc[q]);
                }
            }
        } else
#pragma unroll 2
        for (int j = 0; j < ns; j++) {
            const float4 pc = spc[ST + j];
            const E* row = cache[j];
            // linear: h' = h - 1/2 so that rn(h') = floor(h) (ties land on f = 1 or 0, both exact)
            const float base = NEAREST ? pc.z : pc.z - 0.5f;
            const float h = fmaf(flx, pc.x, fmaf(-fly, pc.y, base));
            const float st = (float)ROWSTEP * pc.y;
#pragma unroll
            for (int q = 0; q < PPT; q++) {
                const float hq = fmaf(-(float)q, st, h);
                const float u = hq + TS_MAGIC;
                const float fl = u - TS_MAGIC;
                int idx = __float_as_int(u) - 0x4B400000;
                const float fr = hq - fl;  // in [-1/2, 1/2]
                if constexpr (NEAREST) {
                    if (fabsf(fr) > 0.5f - TS_EPS_ALU)
                        idx = exactNearest(pd, pb + ST + j, (double)(X0 + lx), (double)(Y0 + ly + q * ROWSTEP))
                              - shm[ST + j];
                    float v[K];
                    unpack<K, HALF>(row[idx].a, v);
#pragma unroll
                    for (int s = 0; s < K; s++) acc[q][s] += v[s];
                } else if constexpr (ADV && !HALF) {
                    // value = mid + (f - 1/2) * diff, with f - 1/2 = fr
                    E ent = row[idx];
                    float m[K], d[K];
                    unpack<K, HALF>(ent.a, m);
                    unpack<K, HALF>(ent.b, d);
#pragma unroll
                    for (int s = 0; s < K; s++) acc[q][s] = fmaf(fr, d[s], acc[q][s] + m[s]);
                } else {
                    float v0[K], v1[K];
                    if constexpr (ADV) {
                        E ent = row[idx];
                        unpack<K, HALF>(ent.a, v0);
                        unpack<K, HALF>(ent.b, v1);
                    } else {
                        unpack<K, HALF>(row[idx].a, v0);
                        unpack<K, HALF>(row[idx + 1].a, v1);
                    }
                    const float f = fr + 0.5f, g = 0.5f - fr;
#pragma unroll
                    for (int s = 0; s < K; s++) acc[q][s] = fmaf(g, v0[s], fmaf(f, v1[s], acc[q][s]));
                }
            }
        }
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
// Interleave K float sinograms (slice stride sliceStride floats, rows of `width`) into the compound layout
// (rows of `pitch` bins). Slices >= nValid and columns >= width are zero.
template <int K, bool HALF>
__device__ __forceinline__ void packSino(const float* __restrict__ raw, int width, int np, long long sliceStride,
                                         int nValid, typename Bin<K, HALF>::T* __restrict__ dst, int pitch) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int p = blockIdx.y;
    if (col >= pitch || p >= np) return;
    float v[K];
#pragma unroll
    for (int s = 0; s < K; s++)
        v[s] = (col < width && s < nValid) ? raw[s * sliceStride + (size_t)p * width + col] : 0.f;
    dst[(size_t)p * pitch + col] = pack<K, HALF>(v);
}

// ---- instantiation -----------------------------------------------------------------------------------
#define TS_STD(K, NN, Z, NAME)                                                                              \
    extern "C" __global__ void __launch_bounds__(256) NAME(cudaTextureObject_t tex, const ProjD* pd, float* out, \
                                                           int rows, int cols, long long plane, int np) {  \
        bpStd<K, NN, Z>(tex, pd, out, rows, cols, plane, np);                                              \
    }
TS_STD(1, false, false, bp_std_k1_lin_l)
TS_STD(1, true, false, bp_std_k1_nn_l)
TS_STD(2, false, false, bp_std_k2_lin_l)
TS_STD(2, true, false, bp_std_k2_nn_l)
TS_STD(4, false, false, bp_std_k4_lin_l)
TS_STD(4, true, false, bp_std_k4_nn_l)
TS_STD(1, false, true, bp_std_k1_lin_z)
TS_STD(1, true, true, bp_std_k1_nn_z)
TS_STD(2, false, true, bp_std_k2_lin_z)
TS_STD(2, true, true, bp_std_k2_nn_z)
TS_STD(4, false, true, bp_std_k4_lin_z)
TS_STD(4, true, true, bp_std_k4_nn_z)

#define TS_TEX(K, NN, NAME)                                                                                 \
    extern "C" __global__ void __launch_bounds__(256) NAME(cudaTextureObject_t tex, const ProjD* pd, float* out, \
                                                           int rows, int cols, long long plane, int np) {  \
        bpTex<K, NN>(tex, pd, out, rows, cols, plane, np);                                                 \
    }
TS_TEX(1, false, bp_tex_k1_lin)
TS_TEX(1, true, bp_tex_k1_nn)
TS_TEX(2, false, bp_tex_k2_lin)
TS_TEX(2, true, bp_tex_k2_nn)
TS_TEX(4, false, bp_tex_k4_lin)
TS_TEX(4, true, bp_tex_k4_nn)

// ALU/hybrid: name = bp_alu_k{K}_{f|h}_{lin|nn}_{adv|std}_t{TILE}p{PPT}_s{ST}
#define TS_ALU_X(K, HALF, NN, ADV, TILE, NT, SD, ST, HM, TX, NAME)                                       \
    extern "C" __global__ void __launch_bounds__(NT) NAME(const void* sino, int pitch, int width, int np,   \
                                                          const ProjD* pd, cudaTextureObject_t tex,         \
                                                          float* out, int rows, int cols, long long plane) { \
        bpAlu<K, HALF, NN, ADV, TILE, NT, SD, ST, HM, TX>((const typename Bin<K, HALF>::T*)sino, pitch, width, \
                                                          np, pd, tex, out, rows, cols, plane);             \
    }
// MB: minimum resident blocks per SM asked of the register allocator (occupancy tuning; name suffix _bMB)
#define TS_ALU_B(K, HALF, NN, ADV, TILE, NT, SD, ST, HM, MB, NAME)                                         \
    extern "C" __global__ void __launch_bounds__(NT, MB) NAME(const void* sino, int pitch, int width, int np, \
                                                              const ProjD* pd, cudaTextureObject_t tex,     \
                                                              float* out, int rows, int cols, long long plane) { \
        bpAlu<K, HALF, NN, ADV, TILE, NT, SD, ST, HM, false>((const typename Bin<K, HALF>::T*)sino, pitch, width, \
                                                             np, pd, tex, out, rows, cols, plane);          \
    }
#define TS_ALU_HM(K, HALF, NN, ADV, TILE, NT, SD, ST, HM, NAME) TS_ALU_X(K, HALF, NN, ADV, TILE, NT, SD, ST, HM, false, NAME)
#define TS_ALU(K, HALF, NN, ADV, TILE, NT, SD, ST, NAME) TS_ALU_HM(K, HALF, NN, ADV, TILE, NT, SD, ST, 0, NAME)
// per (K, format): linear adv/std, nearest; tile 32 with 4 px/thread (256 threads) and 8 px/thread (128)
#define TS_ALU_MODE(K, HALF, F, SD)                                                                         \
    TS_ALU(K, HALF, false, true, 32, 256, SD, 0, bp_alu_k##K##_##F##_lin_adv_t32p4_s0)                     \
    TS_ALU(K, HALF, false, true, 32, 128, SD, 0, bp_alu_k##K##_##F##_lin_adv_t32p8_s0)                     \
    TS_ALU(K, HALF, false, false, 32, 256, SD, 0, bp_alu_k##K##_##F##_lin_std_t32p4_s0)                    \
    TS_ALU(K, HALF, false, false, 32, 128, SD, 0, bp_alu_k##K##_##F##_lin_std_t32p8_s0)                    \
    TS_ALU(K, HALF, true, false, 32, 256, SD, 0, bp_alu_k##K##_##F##_nn_std_t32p4_s0)                      \
    TS_ALU(K, HALF, true, false, 32, 128, SD, 0, bp_alu_k##K##_##F##_nn_std_t32p8_s0)
TS_ALU_MODE(1, false, f, 16)
TS_ALU_MODE(2, false, f, 16)
TS_ALU_MODE(4, false, f, 16)
TS_ALU_MODE(1, true, h, 16)
TS_ALU_MODE(2, true, h, 16)
TS_ALU_MODE(4, true, h, 16)
TS_ALU_MODE(8, true, h, 16)
TS_ALU_MODE(8, false, f, 8)
// 64x64 tiles, 16 px/thread, for the 4- and 8-slice half modes
TS_ALU(4, true, false, true, 64, 256, 8, 0, bp_alu_k4_h_lin_adv_t64p16_s0)
TS_ALU(8, true, false, true, 64, 256, 8, 0, bp_alu_k8_h_lin_adv_t64p16_s0)
// hybrid: ST of every SD+ST projections through the texture (hardware linear filtering / point fetch)
#define TS_HYB_MODE(K, HALF, F)                                                                             \
    TS_ALU(K, HALF, false, true, 32, 128, 16, 4, bp_alu_k##K##_##F##_lin_adv_t32p8_s4)                     \
    TS_ALU(K, HALF, false, true, 32, 128, 16, 8, bp_alu_k##K##_##F##_lin_adv_t32p8_s8)                     \
    TS_ALU(K, HALF, false, true, 32, 256, 16, 4, bp_alu_k##K##_##F##_lin_adv_t32p4_s4)                     \
    TS_ALU(K, HALF, true, false, 32, 128, 16, 4, bp_alu_k##K##_##F##_nn_std_t32p8_s4)
TS_HYB_MODE(1, false, f)
TS_HYB_MODE(2, false, f)
TS_HYB_MODE(4, false, f)
TS_HYB_MODE(1, true, h)
TS_HYB_MODE(2, true, h)
TS_HYB_MODE(4, true, h)

// packed half2 arithmetic (name suffix _h2: per projection, _h2p: projection pairs), half modes with K >= 2
#define TS_H2_MODE(K)                                                                                        \
    TS_ALU_HM(K, true, false, true, 32, 256, 16, 0, 1, bp_alu_k##K##_h_lin_adv_t32p4_s0_h2)                \
    TS_ALU_HM(K, true, false, true, 32, 128, 16, 0, 1, bp_alu_k##K##_h_lin_adv_t32p8_s0_h2)                \
    TS_ALU_HM(K, true, false, true, 32, 256, 16, 0, 2, bp_alu_k##K##_h_lin_adv_t32p4_s0_h2p)               \
    TS_ALU_HM(K, true, false, true, 32, 128, 16, 0, 2, bp_alu_k##K##_h_lin_adv_t32p8_s0_h2p)
TS_H2_MODE(2)
TS_H2_MODE(4)
TS_H2_MODE(8)
#define TS_H2_HYB(K)                                                                                         \
    TS_ALU_HM(K, true, false, true, 32, 128, 16, 8, 1, bp_alu_k##K##_h_lin_adv_t32p8_s8_h2)                \
    TS_ALU_HM(K, true, false, true, 32, 128, 16, 8, 2, bp_alu_k##K##_h_lin_adv_t32p8_s8_h2p)               \
    TS_ALU_HM(K, true, false, true, 32, 128, 16, 4, 2, bp_alu_k##K##_h_lin_adv_t32p8_s4_h2p)                \
    TS_ALU_HM(K, true, false, true, 32, 128, 16, 12, 2, bp_alu_k##K##_h_lin_adv_t32p8_s12_h2p)              \
    TS_ALU_HM(K, true, false, true, 32, 128, 16, 16, 2, bp_alu_k##K##_h_lin_adv_t32p8_s16_h2p)
TS_H2_HYB(2)
TS_H2_HYB(4)

// occupancy-tuned packed-half kernels
TS_ALU_B(4, true, false, true, 32, 128, 16, 0, 2, 10, bp_alu_k4_h_lin_adv_t32p8_s0_h2p_b10)
TS_ALU_B(4, true, false, true, 32, 128, 16, 8, 2, 8, bp_alu_k4_h_lin_adv_t32p8_s8_h2p_b8)
TS_ALU_B(4, true, false, true, 32, 128, 16, 12, 2, 8, bp_alu_k4_h_lin_adv_t32p8_s12_h2p_b8)
TS_ALU_B(2, true, false, true, 32, 128, 16, 8, 2, 10, bp_alu_k2_h_lin_adv_t32p8_s8_h2p_b10)
TS_ALU_B(8, true, true, false, 32, 256, 16, 0, 0, 4, bp_alu_k8_h_nn_std_t32p4_s0_b4)

// exact hybrid (name suffix _x): texture fetches at bin centres, float interpolation
#define TS_X_MODE(K, HALF, F)                                                                                \
    TS_ALU_X(K, HALF, false, true, 32, 128, 16, 4, 0, true, bp_alu_k##K##_##F##_lin_adv_t32p8_s4_x)         \
    TS_ALU_X(K, HALF, false, true, 32, 128, 16, 8, 0, true, bp_alu_k##K##_##F##_lin_adv_t32p8_s8_x)
TS_X_MODE(1, false, f)
TS_X_MODE(2, false, f)
TS_X_MODE(4, false, f)
TS_X_MODE(2, true, h)
TS_X_MODE(4, true, h)

#define TS_PACK(K, HALF, NAME)                                                                              \
    extern "C" __global__ void NAME(const float* raw, int width, int np, long long sliceStride, int nValid, \
                                    void* dst, int pitch) {                                                  \
        packSino<K, HALF>(raw, width, np, sliceStride, nValid, (typename Bin<K, HALF>::T*)dst, pitch);       \
    }
TS_PACK(1, false, bp_pack_k1_f)
TS_PACK(2, false, bp_pack_k2_f)
TS_PACK(4, false, bp_pack_k4_f)
TS_PACK(8, false, bp_pack_k8_f)
TS_PACK(1, true, bp_pack_k1_h)
TS_PACK(2, true, bp_pack_k2_h)
TS_PACK(4, true, bp_pack_k4_h)
TS_PACK(8, true, bp_pack_k8_h)
