// tomospark: Joseph's projector pair for the iterative methods, k interleaved slices (image[pixel·k + s],
// sino[(p·width + u)·k + s]), the same matrix as the Java JosephProjector:
//   a(p,u; i,j) = hat((u − t)/g)/g,  t = off[p] + j·cos[p] − i·sin[p],  g = max(|cos|, |sin|).
// One thread per ray (forward) or per pixel (adjoint, a gather with no atomics) and per run of C consecutive slices:
// the thread computes a step's weights once, in double, and applies them to its C slices, read as float4 runs when
// C is a multiple of four. The kernel for a pass of k slices is the one with the largest C in {1, 4, 8, 16, 32} that
// divides k; for k a multiple of 8 both also have grouped kernels (8 slices and 4 projections, or 4 image rows, a
// thread, below). Sums in float. Pixels and bins beyond the image or the detector read as zero.
#include <cuda_runtime.h>

#define JOSEPH_THREADS 256

template <int C>
__device__ __forceinline__ void joseph_load(const float* __restrict__ src, float* v) {
    if (C % 4 == 0) {
        const float4* s4 = reinterpret_cast<const float4*>(src);
#pragma unroll
        for (int q = 0; q < C / 4; q++) {
            float4 f = __ldg(s4 + q);
            v[4 * q] = f.x;
            v[4 * q + 1] = f.y;
            v[4 * q + 2] = f.z;
            v[4 * q + 3] = f.w;
        }
    } else {
#pragma unroll
        for (int q = 0; q < C; q++) v[q] = __ldg(src + q);
    }
}

template <int C>
__device__ __forceinline__ void joseph_store(float* __restrict__ dst, const float* v) {
    if (C % 4 == 0) {
        float4* d4 = reinterpret_cast<float4*>(dst);
#pragma unroll
        for (int q = 0; q < C / 4; q++) d4[q] = make_float4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    } else {
#pragma unroll
        for (int q = 0; q < C; q++) dst[q] = v[q];
    }
}

// acc += w0·(the C slices at a) + w1·(the C slices at b); a or b null: zero
template <int C>
__device__ __forceinline__ void joseph_pair(float* acc, const float* a, const float* b, float w0, float w1) {
    float va[C], vb[C];
#pragma unroll
    for (int q = 0; q < C; q++) va[q] = vb[q] = 0.0f;
    if (a != nullptr) joseph_load<C>(a, va);
    if (b != nullptr) joseph_load<C>(b, vb);
#pragma unroll
    for (int q = 0; q < C; q++) acc[q] += w0 * va[q] + w1 * vb[q];
}

// grid: x over rays × runs of C slices (JOSEPH_THREADS a block), y over the projections in angles[]
template <int C>
__device__ __forceinline__ void joseph_forward_body(const float* __restrict__ img, float* __restrict__ sino,
                                                    const double* __restrict__ cosT, const double* __restrict__ sinT,
                                                    const double* __restrict__ offT, const int* __restrict__ angles,
                                                    int rows, int cols, int width, int k) {
    int runs = k / C, t = blockIdx.x * JOSEPH_THREADS + threadIdx.x;
    int u = t / runs, s = (t - u * runs) * C;
    if (u >= width) return;
    int p = angles[blockIdx.y];
    double c = cosT[p], sn = sinT[p], o = offT[p];
    float acc[C];
#pragma unroll
    for (int q = 0; q < C; q++) acc[q] = 0.0f;
    if (fabs(c) >= fabs(sn)) {
        // along the image rows: at row i the ray passes column (u − o + i·sin) / cos
        double inv = 1.0 / c;
        float w = (float)(1.0 / fabs(c));
        for (int i = 0; i < rows; i++) {
            double pos = (u - (o - i * sn)) * inv;
            if (!(pos > -1.0 && pos < (double)cols)) continue;
            double fl = floor(pos);
            float f = (float)(pos - fl);
            int j = (int)fl;
            const float* line = img + (size_t)i * cols * k + s;
            joseph_pair<C>(acc, j >= 0 ? line + (size_t)j * k : nullptr, j + 1 < cols ? line + (size_t)(j + 1) * k : nullptr,
                           w * (1.0f - f), w * f);
        }
    } else {
        // along the image columns: at column j the ray passes row (o + j·cos − u) / sin
        double inv = -1.0 / sn;
        float w = (float)(1.0 / fabs(sn));
        for (int j = 0; j < cols; j++) {
            double pos = (u - (o + j * c)) * inv;
            if (!(pos > -1.0 && pos < (double)rows)) continue;
            double fl = floor(pos);
            float f = (float)(pos - fl);
            int i = (int)fl;
            const float* column = img + (size_t)j * k + s;
            joseph_pair<C>(acc, i >= 0 ? column + (size_t)i * cols * k : nullptr,
                           i + 1 < rows ? column + (size_t)(i + 1) * cols * k : nullptr, w * (1.0f - f), w * f);
        }
    }
    joseph_store<C>(sino + ((size_t)p * width + u) * k + s, acc);
}

// The forward projection of A projections at once (a group of consecutive entries of angles[] that all step along
// the same image axis): at each image line the thread's rays of the A projections pass close to each other, so
// one read of the image from memory serves all A of them. grid: x over rays × runs of C slices, y over the groups.
template <int C, int A>
__device__ __forceinline__ void joseph_forward_group_body(const float* __restrict__ img, float* __restrict__ sino,
                                                          const double* __restrict__ cosT, const double* __restrict__ sinT,
                                                          const double* __restrict__ offT, const int* __restrict__ angles,
                                                          int nangles, int rows, int cols, int width, int k) {
    int runs = k / C, t = blockIdx.x * JOSEPH_THREADS + threadIdx.x;
    int u = t / runs, s = (t - u * runs) * C, a0 = blockIdx.y * A;
    if (u >= width) return;
    int na = min(A, nangles - a0);
    double c[A], sn[A], o[A], inv[A];
    float w[A];
    bool flat = true, steep = true;
#pragma unroll
    for (int a = 0; a < A; a++) {
        int p = angles[a0 + min(a, na - 1)];
        c[a] = cosT[p];
        sn[a] = sinT[p];
        o[a] = offT[p];
        bool f = fabs(c[a]) >= fabs(sn[a]);
        flat = flat && f;
        steep = steep && !f;
        inv[a] = f ? 1.0 / c[a] : -1.0 / sn[a];
        w[a] = (float)(1.0 / (f ? fabs(c[a]) : fabs(sn[a])));
    }
    float acc[A][C];
#pragma unroll
    for (int a = 0; a < A; a++)
#pragma unroll
        for (int q = 0; q < C; q++) acc[a][q] = 0.0f;
    if (flat || steep) {
        int lines = flat ? rows : cols, n = flat ? cols : rows;
        size_t lineStride = flat ? (size_t)cols * k : (size_t)k, pixelStride = flat ? (size_t)k : (size_t)cols * k;
        for (int l = 0; l < lines; l++) {
            const float* line = img + l * lineStride + s;
#pragma unroll
            for (int a = 0; a < A; a++) {
                double pos = flat ? (u - (o[a] - l * sn[a])) * inv[a] : (u - (o[a] + l * c[a])) * inv[a];
                if (!(pos > -1.0 && pos < (double)n)) continue;
                double fl = floor(pos);
                float f = (float)(pos - fl);
                int m = (int)fl;
                joseph_pair<C>(acc[a], m >= 0 ? line + m * pixelStride : nullptr,
                               m + 1 < n ? line + (m + 1) * pixelStride : nullptr, w[a] * (1.0f - f), w[a] * f);
            }
        }
#pragma unroll
        for (int a = 0; a < A; a++)
            if (a < na) joseph_store<C>(sino + ((size_t)angles[a0 + a] * width + u) * k + s, acc[a]);
    } else {
        // the group straddles 45 degrees: one projection after the other
        for (int a = 0; a < na; a++) {
            float one[C];
#pragma unroll
            for (int q = 0; q < C; q++) one[q] = 0.0f;
            bool f = fabs(c[a]) >= fabs(sn[a]);
            int lines = f ? rows : cols, n = f ? cols : rows;
            size_t lineStride = f ? (size_t)cols * k : (size_t)k, pixelStride = f ? (size_t)k : (size_t)cols * k;
            for (int l = 0; l < lines; l++) {
                double pos = f ? (u - (o[a] - l * sn[a])) * inv[a] : (u - (o[a] + l * c[a])) * inv[a];
                if (!(pos > -1.0 && pos < (double)n)) continue;
                double fl = floor(pos);
                float fr = (float)(pos - fl);
                int m = (int)fl;
                const float* line = img + l * lineStride + s;
                joseph_pair<C>(one, m >= 0 ? line + m * pixelStride : nullptr,
                               m + 1 < n ? line + (m + 1) * pixelStride : nullptr, w[a] * (1.0f - fr), w[a] * fr);
            }
            joseph_store<C>(sino + ((size_t)angles[a0 + a] * width + u) * k + s, one);
        }
    }
}

// The adjoint for R image rows at once: a thread gathers pixel (i, j) of R consecutive rows, whose detector
// positions at one angle lie within R·|sin| bins of each other, so that one read of the sinogram row serves them.
// grid: x over the columns × runs of C slices, y over the groups of R rows.
template <int C, int R>
__device__ __forceinline__ void joseph_back_group_body(const float* __restrict__ sino, float* __restrict__ img,
                                                       const double* __restrict__ cosT, const double* __restrict__ sinT,
                                                       const double* __restrict__ offT, const int* __restrict__ angles,
                                                       int nangles, int rows, int cols, int width, int k) {
    int runs = k / C, t = blockIdx.x * JOSEPH_THREADS + threadIdx.x;
    int j = t / runs, s = (t - j * runs) * C, i0 = blockIdx.y * R;
    if (j >= cols) return;
    float acc[R][C];
#pragma unroll
    for (int r = 0; r < R; r++)
#pragma unroll
        for (int q = 0; q < C; q++) acc[r][q] = 0.0f;
    for (int a = 0; a < nangles; a++) {
        int p = angles[a];
        double c = cosT[p], sn = sinT[p];
        double ig = 1.0 / fmax(fabs(c), fabs(sn));
        double base = offT[p] + j * c;
        const float* row = sino + (size_t)p * width * k + s;
#pragma unroll
        for (int r = 0; r < R; r++) {
            double tt = base - (i0 + r) * sn;
            if (!(tt > -1.0 && tt < (double)width)) continue;
            double fl = floor(tt), d = tt - fl;
            float w0 = (float)(fmax(0.0, 1.0 - d * ig) * ig), w1 = (float)(fmax(0.0, 1.0 - (1.0 - d) * ig) * ig);
            int u = (int)fl;
            joseph_pair<C>(acc[r], u >= 0 ? row + (size_t)u * k : nullptr, u + 1 < width ? row + (size_t)(u + 1) * k : nullptr,
                           w0, w1);
        }
    }
#pragma unroll
    for (int r = 0; r < R; r++)
        if (i0 + r < rows) joseph_store<C>(img + ((size_t)(i0 + r) * cols + j) * k + s, acc[r]);
}

// grid: x over the pixels of image row blockIdx.y × runs of C slices, y over the image rows
template <int C>
__device__ __forceinline__ void joseph_back_body(const float* __restrict__ sino, float* __restrict__ img,
                                                 const double* __restrict__ cosT, const double* __restrict__ sinT,
                                                 const double* __restrict__ offT, const int* __restrict__ angles,
                                                 int nangles, int rows, int cols, int width, int k) {
    int runs = k / C, t = blockIdx.x * JOSEPH_THREADS + threadIdx.x;
    int j = t / runs, s = (t - j * runs) * C, i = blockIdx.y;
    if (j >= cols) return;
    float acc[C];
#pragma unroll
    for (int q = 0; q < C; q++) acc[q] = 0.0f;
    for (int a = 0; a < nangles; a++) {
        int p = angles[a];
        double c = cosT[p], sn = sinT[p];
        double tt = offT[p] - i * sn + j * c;
        if (!(tt > -1.0 && tt < (double)width)) continue;
        double ig = 1.0 / fmax(fabs(c), fabs(sn));
        double fl = floor(tt), d = tt - fl;
        float w0 = (float)(fmax(0.0, 1.0 - d * ig) * ig), w1 = (float)(fmax(0.0, 1.0 - (1.0 - d) * ig) * ig);
        int u = (int)fl;
        const float* row = sino + (size_t)p * width * k + s;
        joseph_pair<C>(acc, u >= 0 ? row + (size_t)u * k : nullptr, u + 1 < width ? row + (size_t)(u + 1) * k : nullptr,
                       w0, w1);
    }
    joseph_store<C>(img + ((size_t)i * cols + j) * k + s, acc);
}

#define JOSEPH_PAIR(C)                                                                                                 \
    extern "C" __global__ void __launch_bounds__(JOSEPH_THREADS)                                                      \
    joseph_forward_c##C(const float* __restrict__ img, float* __restrict__ sino, const double* __restrict__ cosT,       \
                        const double* __restrict__ sinT, const double* __restrict__ offT,                              \
                        const int* __restrict__ angles, int rows, int cols, int width, int k) {                        \
        joseph_forward_body<C>(img, sino, cosT, sinT, offT, angles, rows, cols, width, k);                             \
    }                                                                                                                  \
    extern "C" __global__ void __launch_bounds__(JOSEPH_THREADS)                                                      \
    joseph_back_c##C(const float* __restrict__ sino, float* __restrict__ img, const double* __restrict__ cosT,         \
                     const double* __restrict__ sinT, const double* __restrict__ offT, const int* __restrict__ angles, \
                     int nangles, int rows, int cols, int width, int k) {                                              \
        joseph_back_body<C>(sino, img, cosT, sinT, offT, angles, nangles, rows, cols, width, k);                       \
    }

#define JOSEPH_FORWARD_GROUP(C, A)                                                                                     \
    extern "C" __global__ void __launch_bounds__(JOSEPH_THREADS)                                                      \
    joseph_forward_c##C##_a##A(const float* __restrict__ img, float* __restrict__ sino, const double* __restrict__ cosT,\
                               const double* __restrict__ sinT, const double* __restrict__ offT,                       \
                               const int* __restrict__ angles, int nangles, int rows, int cols, int width, int k) {    \
        joseph_forward_group_body<C, A>(img, sino, cosT, sinT, offT, angles, nangles, rows, cols, width, k);           \
    }

JOSEPH_FORWARD_GROUP(8, 4)
JOSEPH_FORWARD_GROUP(4, 8)

#define JOSEPH_BACK_GROUP(C, R)                                                                                        \
    extern "C" __global__ void __launch_bounds__(JOSEPH_THREADS)                                                      \
    joseph_back_c##C##_r##R(const float* __restrict__ sino, float* __restrict__ img, const double* __restrict__ cosT,  \
                            const double* __restrict__ sinT, const double* __restrict__ offT,                          \
                            const int* __restrict__ angles, int nangles, int rows, int cols, int width, int k) {       \
        joseph_back_group_body<C, R>(sino, img, cosT, sinT, offT, angles, nangles, rows, cols, width, k);              \
    }

JOSEPH_BACK_GROUP(8, 4)
JOSEPH_BACK_GROUP(4, 8)

JOSEPH_PAIR(1)
JOSEPH_PAIR(4)
JOSEPH_PAIR(8)
JOSEPH_PAIR(16)
JOSEPH_PAIR(32)
