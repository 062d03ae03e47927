// tomospark: the element-wise updates and reductions of the iterative methods (SIRT, CGLS, MLTR) on the device, so
// that a whole solve stays in device memory. The vectors are the padded images and sinograms of kernels/joseph.cu
// (k interleaved slices; zero guards around every line, which every update below maps to zero again), so each
// kernel runs over the whole buffer as one flat array: element i belongs to slice i % k.
#include <cuda_runtime.h>

#define IT_THREADS 256
// blocks of a reduction: each writes one partial sum per slice, which the host adds in order
#define IT_SUM_BLOCKS 1024

#define IT_FOR_EACH(i, n) for (long i = (long)blockIdx.x * IT_THREADS + threadIdx.x; i < (n); i += (long)gridDim.x * IT_THREADS)

// v ← 1/v where v > 0, else 0
extern "C" __global__ void __launch_bounds__(IT_THREADS) it_reciprocal(float* __restrict__ v, long n) {
    IT_FOR_EACH(i, n) {
        float x = v[i];
        v[i] = x > 0.0f ? 1.0f / x : 0.0f;
    }
}

// y ← (p − y)·r
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_weighted_residual(const float* __restrict__ p, float* __restrict__ y, const float* __restrict__ r, long n) {
    IT_FOR_EACH(i, n) y[i] = __fmul_rn(__fsub_rn(p[i], y[i]), r[i]);
}

// x ← x + c·u, clipped at 0 when nonNegative
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_scaled_update(float* __restrict__ x, const float* __restrict__ c, const float* __restrict__ u, long n, int nonNegative) {
    IT_FOR_EACH(i, n) {
        float v = __fadd_rn(x[i], __fmul_rn(c[i], u[i]));
        x[i] = nonNegative && v < 0.0f ? 0.0f : v;
    }
}

// r ← b − r
extern "C" __global__ void __launch_bounds__(IT_THREADS) it_subtract_from(const float* __restrict__ b, float* __restrict__ r, long n) {
    IT_FOR_EACH(i, n) r[i] = __fsub_rn(b[i], r[i]);
}

// y ← y + coef[slice]·x
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_axpy(const float* __restrict__ coef, const float* __restrict__ x, float* __restrict__ y, long n, int k) {
    IT_FOR_EACH(i, n) y[i] = __fadd_rn(y[i], __fmul_rn(coef[i % k], x[i]));
}

// d ← s + coef[slice]·d
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_xpby(const float* __restrict__ s, const float* __restrict__ coef, float* __restrict__ d, long n, int k) {
    IT_FOR_EACH(i, n) d[i] = __fadd_rn(s[i], __fmul_rn(coef[i % k], d[i]));
}

// out ← blank·exp(−p), blank one padded detector row (rowLen floats) for every projection; exp in double, rounded
// once to float, as the Java solvers compute it
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_counts(const float* __restrict__ blank, const float* __restrict__ p, float* __restrict__ out, long n, int rowLen) {
    IT_FOR_EACH(i, n) out[i] = __fmul_rn(blank[i % rowLen], (float)exp(-(double)p[i]));
}

// for the sinogram rows of angles: ŷ = blank·exp(−line), num ← ŷ − counts, den ← rowSum·ŷ
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_likelihood_terms(const float* __restrict__ line, const float* __restrict__ blank, const float* __restrict__ counts,
                    const float* __restrict__ rowSum, const int* __restrict__ angles, int nangles, int rowLen,
                    float* __restrict__ num, float* __restrict__ den) {
    long n = (long)nangles * rowLen;
    IT_FOR_EACH(t, n) {
        int a = (int)(t / rowLen), e = (int)(t - (long)a * rowLen);
        long i = (long)angles[a] * rowLen + e;
        float expected = __fmul_rn(blank[e], (float)exp(-(double)line[i]));
        num[i] = __fsub_rn(expected, counts[i]);
        den[i] = __fmul_rn(rowSum[i], expected);
    }
}

// x ← max(0, x + num/den) where den > 0
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_ratio_update(float* __restrict__ x, const float* __restrict__ num, const float* __restrict__ den, long n) {
    IT_FOR_EACH(i, n) {
        float d = den[i];
        if (d <= 0.0f) continue;
        float v = __fadd_rn(x[i], __fdiv_rn(num[i], d));
        x[i] = v < 0.0f ? 0.0f : v;
    }
}

// Per-slice sums in double over the whole buffer: mode 0 Σ a·b, mode 1 Σ (a − b)². Launched with IT_SUM_BLOCKS blocks;
// a thread keeps one slice (its stride through the buffer is a multiple of k), and block b writes partials[b·k + s],
// each the sum of its threads of slice s in thread order, so that the result does not depend on scheduling.
extern "C" __global__ void __launch_bounds__(IT_THREADS)
it_sums(const float* __restrict__ a, const float* __restrict__ b, int mode, long n, int k, double* __restrict__ partials) {
    __shared__ double part[IT_THREADS];
    long g = (long)blockIdx.x * IT_THREADS + threadIdx.x;
    long stride = ((long)gridDim.x * IT_THREADS / k) * k;
    double s = 0.0;
    if (g < stride) {
        for (long i = g; i < n; i += stride) {
            double x = a[i], y = b[i];
            s += mode == 0 ? x * y : (x - y) * (x - y);
        }
    }
    part[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x < k) {
        int j = threadIdx.x;
        long first = (long)blockIdx.x * IT_THREADS;
        int t0 = (int)((j - first % k + k) % k);
        double sum = 0.0;
        for (int t = t0; t < IT_THREADS; t += k) sum += part[t];
        partials[(long)blockIdx.x * k + j] = sum;
    }
}
