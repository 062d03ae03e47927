// tomospark: Joseph's projector pair for the iterative methods, k interleaved slices, the same matrix as the Java
// JosephProjector:
//   a(p,u; i,j) = hat((u − t)/g)/g,  t = off[p] + j·cos[p] − i·sin[p],  g = max(|cos|, |sin|).
//
// Layouts (every vector of the device-resident solvers has them; kernels/iterative.cu works on the same buffers):
//   image     [rows + 2G][cols + 2G][k]   pixel (i, j) at ((i + G)·(cols + 2G) + j + G)·k + s
//   sinogram  [projections][width + 2G][k] bin (p, u) at (p·(width + 2G) + u + G)·k + s
// with G = 2 zero pixels (bins) around every image line (sinogram row). The kernels never test an edge: a position
// is clamped to [−G, n] so that the two neighbours it reads are either real or guards, which are zero, and the
// kernels write only real pixels and bins, so the guards stay zero.
//
// Positions are walked in 64-bit fixed point with JOSEPH_FRACTION_BITS fraction bits (the integer part is the lower
// neighbour, the fraction the interpolation weight): the host evaluates the geometry in double once per projection
// (JosephTables), the kernels step along a walk with one 64-bit integer addition. The walk's error after 4096 steps
// is below 5e-7 pixel: the pair's matrix is the Java pair's within 1e-6 and its own adjoint within float rounding.
//
// Slices: a thread owns C slices of every pixel (bin) it touches, as C/V vectors of V floats (V = 4 where C allows);
// the k/C threads of one ray or pixel take vector q, q + k/C, q + 2k/C, … of the pixel's k slices, so that the
// threads of a warp read whole 128-byte lines where k ≥ 32. The step's weights are computed once for the C slices.
//
// Forward projection: a thread walks one ray through A projections at once (consecutive entries of angles[]): at
// each image line the A rays pass close to each other, so the image lines they read stay in L1 for all A.
// Adjoint (a gather, no atomics): a thread sums R consecutive pixels of one image column; it walks them in the
// direction in which the detector position falls, so that consecutive pixels need the same two bins or the next
// lower one: the two current bins stay in registers (a window) and a step loads one bin only when it crosses into
// the next.
#include <cuda_runtime.h>
#include <stdint.h>
#include "joseph.cuh"
#include "signatures.cuh"

namespace joseph {

template <int C>
struct Vec {
    static constexpr int V = (C % 4 == 0) ? 4 : ((C % 2 == 0) ? 2 : 1);
    static constexpr int N = C / V;
};

// the V floats at p (V = 4, 2 or 1)
template <int V>
__device__ __forceinline__ void load(const float* __restrict__ p, float* v) {
    if (V == 4) {
        float4 f = __ldg(reinterpret_cast<const float4*>(p));
        v[0] = f.x; v[1] = f.y; v[2] = f.z; v[3] = f.w;
    } else if (V == 2) {
        float2 f = __ldg(reinterpret_cast<const float2*>(p));
        v[0] = f.x; v[1] = f.y;
    } else {
        v[0] = __ldg(p);
    }
}

template <int V>
__device__ __forceinline__ void store(float* __restrict__ p, const float* v) {
    if (V == 4) *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
    else if (V == 2) *reinterpret_cast<float2*>(p) = make_float2(v[0], v[1]);
    else p[0] = v[0];
}

// a thread's C slices of the pixel (bin) whose slice 0 is at p: vectors q, q + runs, … (offsets in floats: V·(q +
// runs·n))
template <int C>
__device__ __forceinline__ void gather(const float* __restrict__ p, int runs, float* v) {
    constexpr int V = Vec<C>::V;
#pragma unroll
    for (int n = 0; n < Vec<C>::N; n++) load<V>(p + V * runs * n, v + V * n);
}

template <int C>
__device__ __forceinline__ void scatter(float* __restrict__ p, int runs, const float* v) {
    constexpr int V = Vec<C>::V;
#pragma unroll
    for (int n = 0; n < Vec<C>::N; n++) store<V>(p + V * runs * n, v + V * n);
}

__device__ __forceinline__ int fixedFloor(long long x) {
    return (int)(x >> JOSEPH_FRACTION_BITS);
}

// the fraction of a fixed-point position as a float in [0, 1): its top 23 bits as a mantissa
__device__ __forceinline__ float fixedFraction(long long x) {
#if JOSEPH_FRACTION_BITS == 32
    return __uint_as_float(0x3F800000u | ((unsigned)x >> 9)) - 1.0f;
#else
    return __uint_as_float(0x3F800000u | ((unsigned)(x >> (JOSEPH_FRACTION_BITS - 23)) & 0x7FFFFFu)) - 1.0f;
#endif
}

// A thread projects U consecutive rays of A projections; a block takes B groups of A consecutive entries of angles[]
// and JOSEPH_THREADS / (B·k/C) threads' rays, so that the image lines its rays cross serve B·A projections from L1.
// Along one line the thread's rays lie 1 to 1.42 pixels apart: the upper neighbour of a ray is the lower one of the
// next, or the next ray's pair is two new pixels, so the U rays read U·|step| + 1 pixels instead of 2U.
// grid: x over groups of U rays, y over sets of B projection groups.
template <int C, int U, int A, int B>
__device__ __forceinline__ void forward(const float* __restrict__ img, float* __restrict__ sino,
                                        const long long* __restrict__ tab, const float* __restrict__ ftab,
                                        const int* __restrict__ angles, int nangles, int rows, int cols, int width,
                                        int k) {
    const int G = JOSEPH_GUARD, runs = k / C, V = Vec<C>::V;
    int perBlock = JOSEPH_THREADS / (B * runs);
    int tid = threadIdx.x, q = tid % runs, rg = (tid / runs) % perBlock, group = tid / (runs * perBlock);
    int u0 = (blockIdx.x * perBlock + rg) * U, a0 = (blockIdx.y * B + group) * A;
    if (group >= B || u0 >= width || a0 >= nangles) return;
    int na = min(A, nangles - a0);
    const ptrdiff_t colsP = (ptrdiff_t)cols + 2 * G;
    long long pos[A], line[A], ray[A];
    float w[A];
    int lo[A], hi[A], last[A];
    ptrdiff_t lineStride[A], pixelStride[A];
#pragma unroll
    for (int a = 0; a < A; a++) {
        int p = angles[a0 + min(a, na - 1)];
        const long long* t = tab + (size_t)p * JOSEPH_TAB;
        int flags = (int)t[JT_FFLAGS];
        bool flat = flags & JT_FLAT, neg = flags & JT_NEGATIVE;
        int n = flat ? cols : rows;
        pos[a] = t[JT_FPOS0] + (long long)u0 * t[JT_FRAY];
        ray[a] = t[JT_FRAY];
        line[a] = t[JT_FLINE];
        w[a] = a < na ? ftab[(size_t)p * JOSEPH_FTAB + JF_W] : 0.0f;
        // pixels b and b + 1 are both guards outside [lo, hi]
        lo[a] = neg ? -n - 1 : -G;
        hi[a] = neg ? 1 : n;
        last[a] = flat ? rows : cols;
        lineStride[a] = flat ? colsP * k : (ptrdiff_t)k;
        pixelStride[a] = (flat ? (ptrdiff_t)k : colsP * k) * (neg ? -1 : 1);
    }
    float acc[A][U][C];
#pragma unroll
    for (int a = 0; a < A; a++)
#pragma unroll
        for (int r = 0; r < U; r++)
#pragma unroll
            for (int e = 0; e < C; e++) acc[a][r][e] = 0.0f;
    const float* base = img + (G * colsP + G) * k + V * q;
    int lines = max(rows, cols);
    for (int l = 0; l < lines; l++) {
#pragma unroll
        for (int a = 0; a < A; a++) {
            // a line beyond this projection's last (non-square images) reads the guard line after it
            const float* lp = base + min(l, last[a]) * lineStride[a];
            long long x = pos[a];
            pos[a] += line[a];
            int b = fixedFloor(x);
            float lower[C], upper[C];
            {
                const float* px = lp + min(max(b, lo[a]), hi[a]) * pixelStride[a];
                gather<C>(px, runs, lower);
                gather<C>(px + pixelStride[a], runs, upper);
            }
#pragma unroll
            for (int r = 0; r < U; r++) {
                if (r > 0) {
                    x += ray[a];
                    int nb = fixedFloor(x);
                    const float* px = lp + min(max(nb, lo[a]), hi[a]) * pixelStride[a];
                    if (nb == b + 1) {
#pragma unroll
                        for (int e = 0; e < C; e++) lower[e] = upper[e];
                    } else {
                        gather<C>(px, runs, lower);
                    }
                    gather<C>(px + pixelStride[a], runs, upper);
                    b = nb;
                }
                float f = fixedFraction(x), w1 = w[a] * f, w0 = w[a] - w1;
#pragma unroll
                for (int e = 0; e < C; e++) acc[a][r][e] = fmaf(w0, lower[e], fmaf(w1, upper[e], acc[a][r][e]));
            }
        }
    }
    const ptrdiff_t widthP = (ptrdiff_t)width + 2 * G;
#pragma unroll
    for (int a = 0; a < A; a++)
#pragma unroll
        for (int r = 0; r < U; r++)
            if (a < na && u0 + r < width)
                scatter<C>(sino + ((ptrdiff_t)angles[a0 + a] * widthP + u0 + r + G) * k + V * q, runs, acc[a][r]);
}

// A block takes a tile of JOSEPH_THREADS / (B·k/C) image columns and B·R rows, so that the bins its pixels need at
// one angle (a band as wide as the tile's projection) serve the whole tile from L1. grid: x over the columns, y over
// the rows.
template <int C, int R, int B>
__device__ __forceinline__ void back(const float* __restrict__ sino, float* __restrict__ img,
                                     const long long* __restrict__ tab, const float* __restrict__ ftab,
                                     const int* __restrict__ angles, int nangles,
                                     int rows, int cols, int width, int k) {
    const int G = JOSEPH_GUARD, runs = k / C, V = Vec<C>::V;
    int colsPerBlock = JOSEPH_THREADS / (B * runs);
    int tid = threadIdx.x, q = tid % runs, col = (tid / runs) % colsPerBlock, band = tid / (runs * colsPerBlock);
    int j = blockIdx.x * colsPerBlock + col, i0 = (blockIdx.y * B + band) * R;
    if (band >= B || j >= cols || i0 >= rows) return;
    float acc[R][C];
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
        for (int e = 0; e < C; e++) acc[r][e] = 0.0f;
    const size_t widthP = (size_t)width + 2 * G;
    for (int a = 0; a < nangles; a++) {
        int p = angles[a];
        const long long* tp = tab + (size_t)p * JOSEPH_TAB;
        float ig = ftab[(size_t)p * JOSEPH_FTAB + JF_IG], ig2 = ftab[(size_t)p * JOSEPH_FTAB + JF_IG2];
        int sgn = (int)tp[JT_VSGN];
        long long dv = tp[JT_VSTEP];
        long long v = tp[JT_VOFF] + j * tp[JT_VCOS] - i0 * dv;
        // bins b and b + 1 are both guards outside [lo, hi]: clamping b there reads zeros, as the true bins are
        int lo = sgn > 0 ? -G : -width - 1, hi = sgn > 0 ? width : 1;
        const float* row = sino + ((size_t)p * widthP + G) * k + V * q;
        ptrdiff_t binStride = (ptrdiff_t)sgn * k;
        int b = fixedFloor(v);
        float lower[C], upper[C];
        {
            const float* bp = row + (ptrdiff_t)min(max(b, lo), hi) * binStride;
            gather<C>(bp, runs, lower);
            gather<C>(bp + binStride, runs, upper);
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
            float d = fixedFraction(v);
            float wl = fmaxf(0.0f, fmaf(-d, ig2, ig)), wu = fmaxf(0.0f, fmaf(d, ig2, ig - ig2));
#pragma unroll
            for (int e = 0; e < C; e++) acc[r][e] = fmaf(wl, lower[e], fmaf(wu, upper[e], acc[r][e]));
            if (r + 1 < R) {
                v -= dv;
                int nb = fixedFloor(v);
                if (nb != b) {
                    // crossed into the next lower bin: the old lower bin is the new upper one
                    b = nb;
#pragma unroll
                    for (int e = 0; e < C; e++) upper[e] = lower[e];
                    gather<C>(row + (ptrdiff_t)min(max(b, lo), hi) * binStride, runs, lower);
                }
            }
        }
    }
    const size_t colsP = (size_t)cols + 2 * G;
#pragma unroll
    for (int r = 0; r < R; r++)
        if (i0 + r < rows) scatter<C>(img + ((size_t)(i0 + r + G) * colsP + j + G) * k + V * q, runs, acc[r]);
}

}  // namespace joseph

#define JOSEPH_FORWARD(C, U, A, B)                                                                                     \
    extern "C" __global__ void __launch_bounds__(JOSEPH_THREADS)                                                      \
    JOSEPH_NAME_FORWARD(C, U, A, B)(TS_PARAMS_JOSEPH_FORWARD) {                                                        \
        joseph::forward<C, U, A, B>(img, sino, tab, ftab, angles, nangles, rows, cols, width, k);                      \
    }

#define JOSEPH_BACK(C, R, B)                                                                                           \
    extern "C" __global__ void __launch_bounds__(JOSEPH_THREADS)                                                      \
    JOSEPH_NAME_BACK(C, R, B)(TS_PARAMS_JOSEPH_BACK) {                                                                 \
        joseph::back<C, R, B>(sino, img, tab, ftab, angles, nangles, rows, cols, width, k);                            \
    }

// The product set (joseph.cuh)
JOSEPH_PRODUCT(JOSEPH_FORWARD, JOSEPH_BACK)
#ifdef JOSEPH_EXPLORE
JOSEPH_FORWARD(8, 2, 2, 8)
JOSEPH_FORWARD(8, 2, 1, 8)
JOSEPH_FORWARD(8, 2, 4, 2)
JOSEPH_FORWARD(8, 1, 2, 8)
JOSEPH_FORWARD(8, 1, 4, 4)
JOSEPH_FORWARD(4, 2, 2, 8)
JOSEPH_FORWARD(4, 2, 4, 4)
JOSEPH_FORWARD(8, 4, 1, 4)
JOSEPH_BACK(8, 4, 16)
JOSEPH_BACK(8, 2, 16)
JOSEPH_BACK(8, 3, 8)
JOSEPH_BACK(4, 8, 8)
#endif
