// tomospark: batched ramp filter on the device (cuFFT cannot be reached from Java here).
//
// Two real sinogram rows a, b are packed as one complex row z = a + i*b, padded to n (a power of two,
// ZERO or EDGE padding as org.tomospark.executor.filter.RampFilter.filterRow), transformed by a
// shared-memory Stockham FFT (radix 4, one radix-2 stage when log2(n) is odd), multiplied by the real,
// even frequency response H (RampFilter.response(), scale included) and transformed back with
// IFFT(X) = conj(FFT(conj(X)))/n. Because H is real and even, the filtered rows stay real, so the real
// part of the result is filtered a and the imaginary part filtered b.
#include <cuda_runtime.h>
#include "signatures.cuh"

#define FILTER_THREADS 256

__device__ __forceinline__ float2 cmul(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ __forceinline__ float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
// multiply by -i
__device__ __forceinline__ float2 cmi(float2 a) { return make_float2(a.y, -a.x); }

// Forward FFT of n points from src; ping-pongs between src and tmp; returns the buffer holding the result.
// tw[m] = exp(-2*pi*i*m/n), m < n.
__device__ float2* stockham(float2* src, float2* tmp, int n, const float2* __restrict__ tw) {
    float2* a = src;
    float2* b = tmp;
    for (int ns = 1; ns < n; ) {
        int r = (n / ns >= 4) ? 4 : 2;
        if (r == 4) {
            int q = n >> 2;
            int stride = n / (ns * 4);
            for (int j = threadIdx.x; j < q; j += blockDim.x) {
                int k = j & (ns - 1);
                float2 v0 = a[j], v1 = a[j + q], v2 = a[j + 2 * q], v3 = a[j + 3 * q];
                if (ns > 1) {
                    int m = k * stride;
                    v1 = cmul(v1, __ldg(&tw[m]));
                    v2 = cmul(v2, __ldg(&tw[2 * m]));
                    v3 = cmul(v3, __ldg(&tw[3 * m]));
                }
                float2 a0 = cadd(v0, v2), a1 = csub(v0, v2), a2 = cadd(v1, v3), a3 = cmi(csub(v1, v3));
                int d = (j - k) * 4 + k;
                b[d] = cadd(a0, a2);
                b[d + ns] = cadd(a1, a3);
                b[d + 2 * ns] = csub(a0, a2);
                b[d + 3 * ns] = csub(a1, a3);
            }
            ns *= 4;
        } else {
            int q = n >> 1;
            int stride = n / (ns * 2);
            for (int j = threadIdx.x; j < q; j += blockDim.x) {
                int k = j & (ns - 1);
                float2 v0 = a[j], v1 = a[j + q];
                if (ns > 1) v1 = cmul(v1, __ldg(&tw[k * stride]));
                int d = (j - k) * 2 + k;
                b[d] = cadd(v0, v1);
                b[d + ns] = csub(v0, v1);
            }
            ns *= 2;
        }
        __syncthreads();
        float2* t = a;
        a = b;
        b = t;
    }
    return a;
}

// data: nrows rows of `width` floats, filtered in place. Grid: ceil(nrows/2) blocks of FILTER_THREADS.
// Dynamic shared memory: 2*n float2.
extern "C" __global__ void __launch_bounds__(FILTER_THREADS)
TS_KERNEL(FILTER) {
    extern __shared__ float2 sm[];
    float2* A = sm;
    float2* B = sm + n;
    long long r0 = 2LL * blockIdx.x;
    float* ra = data + r0 * width;
    float* rb = (r0 + 1 < nrows) ? ra + width : nullptr;
    int right = (n - width) / 2;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int src = i < width ? i : (edge ? (i < width + right ? width - 1 : 0) : -1);
        float a = src >= 0 ? ra[src] : 0.f;
        float b = (src >= 0 && rb) ? rb[src] : 0.f;
        A[i] = make_float2(a, b);
    }
    __syncthreads();
    float2* X = stockham(A, B, n, tw);
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        float h = __ldg(&resp[k <= n / 2 ? k : n - k]);
        float2 v = X[k];
        X[k] = make_float2(v.x * h, -v.y * h);  // H*X, conjugated
    }
    __syncthreads();
    float2* Y = stockham(X, X == A ? B : A, n, tw);
    float inv = 1.0f / (float)n;
    for (int i = threadIdx.x; i < width; i += blockDim.x) {
        float2 v = Y[i];
        ra[i] = v.x * inv;
        if (rb) rb[i] = -v.y * inv;
    }
}
