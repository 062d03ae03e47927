// tomospark: the element-wise updates and reductions of the iterative methods (SIRT, OS-SART, CGLS, MLTR, TV) on the
// device, so that a whole solve stays in device memory. The vectors are the padded images and sinograms of
// kernels/joseph.cu (k interleaved slices; zero guards around every line, which every update below maps to zero
// again), so most kernels run over the whole buffer as one flat array: element i belongs to slice i % k. A weight
// image is an image of one slice (the same guards, k = 1), shared by every slice of an image. The total-variation
// kernels need the neighbours of a pixel, so they run over the real pixels only and leave the guards alone.
#include <cuda_runtime.h>
#include "signatures.cuh"

#define IT_THREADS 256
// blocks of a reduction: each writes one partial sum per slice, which the host adds in order
#define IT_SUM_BLOCKS 1024

#define IT_FOR_EACH(i, n) for (long i = (long)blockIdx.x * IT_THREADS + threadIdx.x; i < (n); i += (long)gridDim.x * IT_THREADS)

// v ← 1/v where v > 0, else 0
extern "C" __global__ void __launch_bounds__(IT_THREADS) TS_KERNEL(IT_RECIPROCAL) {
    IT_FOR_EACH(i, n) {
        float x = v[i];
        v[i] = x > 0.0f ? 1.0f / x : 0.0f;
    }
}

// y ← (p − y)·r
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_WEIGHTED_RESIDUAL) {
    IT_FOR_EACH(i, n) y[i] = __fmul_rn(__fsub_rn(p[i], y[i]), r[i]);
}

// x ← x + c·u, clipped at 0 when nonNegative
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_SCALED_UPDATE) {
    IT_FOR_EACH(i, n) {
        float v = __fadd_rn(x[i], __fmul_rn(c[i], u[i]));
        x[i] = nonNegative && v < 0.0f ? 0.0f : v;
    }
}

// r ← b − r
extern "C" __global__ void __launch_bounds__(IT_THREADS) TS_KERNEL(IT_SUBTRACT_FROM) {
    IT_FOR_EACH(i, n) r[i] = __fsub_rn(b[i], r[i]);
}

// y ← y + coef[slice]·x
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_AXPY) {
    IT_FOR_EACH(i, n) y[i] = __fadd_rn(y[i], __fmul_rn(coef[i % k], x[i]));
}

// d ← s + coef[slice]·d
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_XPBY) {
    IT_FOR_EACH(i, n) d[i] = __fadd_rn(s[i], __fmul_rn(coef[i % k], d[i]));
}

// out ← blank·exp(−p), blank one padded detector row (rowLen floats) for every projection; exp in double, rounded
// once to float, as the Java solvers compute it
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_COUNTS) {
    IT_FOR_EACH(i, n) out[i] = __fmul_rn(blank[i % rowLen], (float)exp(-(double)p[i]));
}

// for the sinogram rows of angles: ŷ = blank·exp(−line), num ← ŷ − counts, den ← rowSum·ŷ
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_LIKELIHOOD_TERMS) {
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
TS_KERNEL(IT_RATIO_UPDATE) {
    IT_FOR_EACH(i, n) {
        float d = den[i];
        if (d <= 0.0f) continue;
        float v = __fadd_rn(x[i], __fdiv_rn(num[i], d));
        x[i] = v < 0.0f ? 0.0f : v;
    }
}

// The per-slice sums of a block, once every thread has written its own sum to part and the block has synchronised:
// thread t of block b keeps slice (b·IT_THREADS + t) % k, and threads 0 … k−1 each add their slice's threads in thread
// order and write partials[b·k + s], so that the result does not depend on scheduling
__device__ __forceinline__ void it_block_slice_sums(const double* part, int k, double* __restrict__ partials) {
    if (threadIdx.x < k) {
        int j = threadIdx.x;
        long first = (long)blockIdx.x * IT_THREADS;
        int t0 = (int)((j - first % k + k) % k);
        double sum = 0.0;
        for (int t = t0; t < IT_THREADS; t += k) sum = __dadd_rn(sum, part[t]);
        partials[(long)blockIdx.x * k + j] = sum;
    }
}

// Per-slice sums in double over the whole buffer: mode 0 Σ a·b, mode 1 Σ (a − b)². Launched with IT_SUM_BLOCKS blocks;
// a thread keeps one slice (its stride through the buffer is a multiple of k), and block b writes partials[b·k + s],
// each the sum of its threads of slice s in thread order, so that the result does not depend on scheduling.
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_SUMS) {
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
    it_block_slice_sums(part, k, partials);
}

// w ← slice 0 of image: w is the weight image of the same padded grid, so its element i is pixel i of the image, whose
// slice 0 sits at i·k (guards to guards, which are zero)
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_FIRST_SLICE) {
    IT_FOR_EACH(i, n) w[i] = image[i * k];
}

// x ← x + w[pixel]·u for every slice, clipped at 0 when nonNegative; n the floats of the image
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_WEIGHTED_UPDATE) {
    IT_FOR_EACH(i, n) {
        float v = __fadd_rn(x[i], __fmul_rn(w[i / k], u[i]));
        x[i] = nonNegative && v < 0.0f ? 0.0f : v;
    }
}

// For the sinogram rows of angles: d = p − y, y ← d·r, and Σ d² per slice in double. Launched with IT_SUM_BLOCKS
// blocks, as it_sums: a thread keeps one slice (its stride through the rows' elements is a multiple of k, and so is a
// row's length), sums its elements in order, and block b writes partials[b·k + s], the sum of its threads of slice s in
// thread order, which the host adds in block order: the sums do not depend on scheduling. The guard bins of a row are
// zero in p, y and r, so d = 0 there.
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_SUBSET_RESIDUAL) {
    __shared__ double part[IT_THREADS];
    long n = (long)nangles * rowLen;
    long g = (long)blockIdx.x * IT_THREADS + threadIdx.x;
    long stride = ((long)gridDim.x * IT_THREADS / k) * k;
    double s = 0.0;
    if (g < stride) {
        for (long t = g; t < n; t += stride) {
            int a = (int)(t / rowLen), e = (int)(t - (long)a * rowLen);
            long i = (long)angles[a] * rowLen + e;
            float d = __fsub_rn(p[i], y[i]);
            double dd = d;
            s = __dadd_rn(s, __dmul_rn(dd, dd));
            y[i] = __fmul_rn(d, r[i]);
        }
    }
    part[threadIdx.x] = s;
    __syncthreads();
    it_block_slice_sums(part, k, partials);
}

// v ← 1/(v + offset) where v + offset > 0, else 0, on the real elements of a padded vector of lines of pitch floats:
// an element is real when it lies at least edge floats from both ends of its line and its line at least guardLines
// lines from both ends of the vector; the guards are written zero
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_OFFSET_RECIPROCAL) {
    long lines = n / pitch;
    IT_FOR_EACH(i, n) {
        long line = i / pitch;
        int e = (int)(i - line * pitch);
        bool real = e >= edge && e < pitch - edge && line >= guardLines && line < lines - guardLines;
        float t = __fadd_rn(v[i], offset);
        v[i] = real && t > 0.0f ? __fdiv_rn(1.0f, t) : 0.0f;
    }
}

// q ← (q + σ·(y − p)) / (1 + σ), element-wise (guards: all four zero, q stays zero)
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_DATA_DUAL) {
    IT_FOR_EACH(i, n) {
        float s = sigma[i];
        q[i] = __fdiv_rn(__fadd_rn(q[i], __fmul_rn(s, __fsub_rn(y[i], p[i]))), __fadd_rn(1.0f, s));
    }
}

// Thread index t over the real pixels of a padded image of rows × cols pixels of k slices (guard pixels at both ends
// of every line, guard lines above and below): pixel (i, j) of slice s; returns the element's index in the image.
__device__ __forceinline__ long it_pixel(long t, int cols, int k, int guard, int& i, int& j, int& s) {
    long pix = t / k;
    s = (int)(t - pix * k);
    i = (int)(pix / cols);
    j = (int)(pix - (long)i * cols);
    return ((long)(i + guard) * (cols + 2 * guard) + j + guard) * k + s;
}

// The dual step of isotropic total variation: g = ∇x̄ by forward differences (zero across the last column and the
// last row), (zx, zy) ← (zx, zy) + σ·g projected onto the disc of radius weight[s] of its slice. Real pixels only.
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_TV_DUAL) {
    long pitch = (long)(cols + 2 * guard) * k;
    IT_FOR_EACH(t, (long)rows * cols * k) {
        int i, j, s;
        long o = it_pixel(t, cols, k, guard, i, j, s);
        float v = xbar[o];
        float gx = j + 1 < cols ? __fsub_rn(xbar[o + k], v) : 0.0f;
        float gy = i + 1 < rows ? __fsub_rn(xbar[o + pitch], v) : 0.0f;
        float ax = __fadd_rn(zx[o], __fmul_rn(sigma, gx)), ay = __fadd_rn(zy[o], __fmul_rn(sigma, gy));
        float norm = __fsqrt_rn(__fadd_rn(__fmul_rn(ax, ax), __fmul_rn(ay, ay))), w = weight[s];
        float scale = norm > w ? (w > 0.0f ? __fdiv_rn(w, norm) : 0.0f) : 1.0f;
        zx[o] = __fmul_rn(ax, scale);
        zy[o] = __fmul_rn(ay, scale);
    }
}

// The primal step of TV-regularised least squares: div z = −∇ᵀz (zx read as zero in the last column, zy in the last
// row, terms whose index leaves the image dropped), x' = x − τ·(u − div z), clipped at 0 when nonNegative;
// x̄ ← 2x' − x, x ← x'. Real pixels only.
extern "C" __global__ void __launch_bounds__(IT_THREADS)
TS_KERNEL(IT_TV_PRIMAL) {
    long pitch = (long)(cols + 2 * guard) * k;
    IT_FOR_EACH(t, (long)rows * cols * k) {
        int i, j, s;
        long o = it_pixel(t, cols, k, guard, i, j, s);
        float div = 0.0f;
        if (j + 1 < cols) div = __fadd_rn(div, zx[o]);
        if (j > 0) div = __fsub_rn(div, zx[o - k]);
        if (i + 1 < rows) div = __fadd_rn(div, zy[o]);
        if (i > 0) div = __fsub_rn(div, zy[o - pitch]);
        float old = x[o];
        float v = __fsub_rn(old, __fmul_rn(tau[o], __fsub_rn(u[o], div)));
        if (nonNegative && v < 0.0f) v = 0.0f;
        x[o] = v;
        xbar[o] = __fsub_rn(__fmul_rn(2.0f, v), old);
    }
}
