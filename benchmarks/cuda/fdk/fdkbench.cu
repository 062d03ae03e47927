// FDK back-projection kernels in RabbitCT's setting on synthetic data, to choose the designs the product's cone-beam
// kernels will take (docs/cone-beam.md): a circular trajectory written as 3x4 matrices in constant memory, projections
// in a layered float texture (hardware bilinear filtering), one launch over every projection.
//   naive: one thread per voxel.
//   zcol:  one thread per (x, y) column of Z voxels: on a circular trajectory u and w do not depend on z, so the
//          division and u are shared by the Z voxels, and v moves by a constant step.
//   hyb:   zcol, with every H-th projection interpolated on the ALU from (value, right neighbour) pairs in global
//          memory instead of the texture unit, so that both units work (the seed paper's hybrid).
// Prints each kernel's time, GUPS (voxels x projections / s) and its error against a double-precision reference on
// sampled voxels. No Java needed: nvcc -O3 -arch=sm_90 -o fdkbench fdkbench.cu && ./fdkbench 512 496
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)
#define MAXP 1360

__constant__ float cM[MAXP * 12];

struct Geo { int n, np, w, h; double dso, dsd, du, dv, cu, cv, voxel; std::vector<double> m; };

static Geo makeGeo(int n, int np) {
    Geo g{n, np, 1248, 960, 785, 1200, 0.308, 0.308, 623.5, 479.5, 256.0 / n, {}};
    g.m.resize((size_t)np * 12);
    for (int p = 0; p < np; p++) {
        double t = 2 * M_PI * p / np, c = cos(t), s = sin(t);
        double r[12] = {(-g.cu * c - g.dsd * s / g.du) / g.dso, (-g.cu * s + g.dsd * c / g.du) / g.dso, 0, g.cu,
                        -g.cv * c / g.dso, -g.cv * s / g.dso, g.dsd / (g.dv * g.dso), g.cv, -c / g.dso, -s / g.dso, 0, 1};
        std::copy(r, r + 12, g.m.begin() + (size_t)p * 12);
    }
    return g;
}

__device__ __forceinline__ float coord(int i, int n, float s) { return (i - (n - 1) * 0.5f) * s; }

__global__ void naive(cudaTextureObject_t tex, float* vol, int n, int np, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
    if (i >= n || j >= n) return;
    float x = coord(i, n, s), y = coord(j, n, s), z = coord(k, n, s), acc = 0;
    for (int p = 0; p < np; p++) {
        const float* m = cM + p * 12;
        float w = m[8] * x + m[9] * y + m[10] * z + m[11], iw = 1.0f / w;
        float u = (m[0] * x + m[1] * y + m[2] * z + m[3]) * iw, v = (m[4] * x + m[5] * y + m[6] * z + m[7]) * iw;
        acc += tex2DLayered<float>(tex, u + 0.5f, v + 0.5f, p) * iw * iw;
    }
    vol[((size_t)k * n + j) * n + i] = acc;
}

// one thread per (x, y) and Z consecutive slices; every H-th projection (H > 0) from pairs on the ALU
template <int Z, int H>
__global__ void __launch_bounds__(256) zcol(cudaTextureObject_t tex, const float2* __restrict__ pairs, float* vol, int n, int np,
                                            float s, int w, int h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y, k0 = blockIdx.z * Z;
    if (i >= n || j >= n) return;
    float x = coord(i, n, s), y = coord(j, n, s), z0 = coord(k0, n, s);
    float acc[Z];
#pragma unroll
    for (int q = 0; q < Z; q++) acc[q] = 0;
    for (int p = 0; p < np; p++) {
        const float* m = cM + p * 12;
        float wv = m[8] * x + m[9] * y + m[11], iw = 1.0f / wv, iw2 = iw * iw;
        float u = (m[0] * x + m[1] * y + m[3]) * iw;
        float v0 = (m[4] * x + m[5] * y + m[6] * z0 + m[7]) * iw, dv = m[6] * s * iw;
        if (H > 0 && p % H == 0) {
            float fu = floorf(u);
            int iu = (int)fu;
            float au = u - fu;
            bool uok = iu >= -1 && iu < w;
            int iuc = min(max(iu, 0), w - 1);
            // the pair at iu holds (p[iu], p[iu + 1]); at iu = -1 the pair of column 0 shifted: handle by masking
            const float2* plane = pairs + (size_t)p * h * w;
#pragma unroll
            for (int q = 0; q < Z; q++) {
                float v = v0 + q * dv, fv = floorf(v);
                int iv = (int)fv;
                float av = v - fv;
                float r0 = 0, r1 = 0;
                if (uok && iv >= -1 && iv < h) {
                    float2 a = iv >= 0 ? __ldg(plane + (size_t)iv * w + iuc) : make_float2(0, 0);
                    float2 b = iv + 1 < h ? __ldg(plane + (size_t)(iv + 1) * w + iuc) : make_float2(0, 0);
                    if (iu < 0) { a = make_float2(0, a.x); b = make_float2(0, b.x); }
                    r0 = fmaf(au, a.y - a.x, a.x);
                    r1 = fmaf(au, b.y - b.x, b.x);
                }
                acc[q] += fmaf(av, r1 - r0, r0) * iw2;
            }
        } else {
#pragma unroll
            for (int q = 0; q < Z; q++) acc[q] += tex2DLayered<float>(tex, u + 0.5f, v0 + q * dv + 0.5f, p) * iw2;
        }
    }
#pragma unroll
    for (int q = 0; q < Z; q++)
        if (k0 + q < n) vol[((size_t)(k0 + q) * n + j) * n + i] = acc[q];
}

static float proj(int p, int u, int v) {
    return (float)(sin(0.011 * u + 0.3 * p) * cos(0.017 * v - 0.1 * p) + 0.2 * sin(0.5 * u + 0.7 * v));
}

static double reference(const Geo& g, int i, int j, int k) {
    double x = (i - (g.n - 1) / 2.0) * g.voxel, y = (j - (g.n - 1) / 2.0) * g.voxel, z = (k - (g.n - 1) / 2.0) * g.voxel, acc = 0;
    for (int p = 0; p < g.np; p++) {
        const double* m = &g.m[(size_t)p * 12];
        double w = m[8] * x + m[9] * y + m[10] * z + m[11];
        double u = (m[0] * x + m[1] * y + m[2] * z + m[3]) / w, v = (m[4] * x + m[5] * y + m[6] * z + m[7]) / w;
        int iu = (int)floor(u), iv = (int)floor(v);
        double au = u - iu, av = v - iv;
        auto px = [&](int uu, int vv) { return uu < 0 || uu >= g.w || vv < 0 || vv >= g.h ? 0.0 : (double)proj(p, uu, vv); };
        double val = (1 - av) * ((1 - au) * px(iu, iv) + au * px(iu + 1, iv)) + av * ((1 - au) * px(iu, iv + 1) + au * px(iu + 1, iv + 1));
        acc += val / (w * w);
    }
    return acc;
}

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 512, np = argc > 2 ? atoi(argv[2]) : 496;
    if (np > MAXP) { printf("at most %d projections\n", MAXP); return 1; }
    Geo g = makeGeo(n, np);
    std::vector<float> mf(g.m.begin(), g.m.end());
    CK(cudaMemcpyToSymbol(cM, mf.data(), mf.size() * 4));
    // projections: a layered texture and (value, right neighbour) pairs
    std::vector<float> host((size_t)g.w * g.h);
    cudaArray_t arr;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    CK(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(g.w, g.h, np), cudaArrayLayered));
    float2* pairs;
    CK(cudaMalloc(&pairs, (size_t)np * g.w * g.h * sizeof(float2)));
    std::vector<float2> hp((size_t)g.w * g.h);
    std::vector<double> su(g.w), cu5(g.w), su5(g.w), cv(g.h), cv7(g.h), sv7(g.h);
    for (int u = 0; u < g.w; u++) { cu5[u] = cos(0.5 * u); su5[u] = sin(0.5 * u); }
    for (int v = 0; v < g.h; v++) { cv7[v] = cos(0.7 * v); sv7[v] = sin(0.7 * v); }
    for (int p = 0; p < np; p++) {
        // proj(p, u, v) by tables: sin(a + b) = sin a cos b + cos a sin b for the fine pattern
        for (int u = 0; u < g.w; u++) su[u] = sin(0.011 * u + 0.3 * p);
        for (int v = 0; v < g.h; v++) cv[v] = cos(0.017 * v - 0.1 * p);
        for (int v = 0; v < g.h; v++)
            for (int u = 0; u < g.w; u++)
                host[(size_t)v * g.w + u] = (float)(su[u] * cv[v] + 0.2 * (su5[u] * cv7[v] + cu5[u] * sv7[v]));
        for (int v = 0; v < g.h; v++)
            for (int u = 0; u < g.w; u++)
                hp[(size_t)v * g.w + u] = make_float2(host[(size_t)v * g.w + u], u + 1 < g.w ? host[(size_t)v * g.w + u + 1] : 0.f);
        cudaMemcpy3DParms c = {};
        c.srcPtr = make_cudaPitchedPtr(host.data(), g.w * 4, g.w, g.h);
        c.dstArray = arr;
        c.dstPos = make_cudaPos(0, 0, p);
        c.extent = make_cudaExtent(g.w, g.h, 1);
        c.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&c));
        CK(cudaMemcpy(pairs + (size_t)p * g.w * g.h, hp.data(), hp.size() * sizeof(float2), cudaMemcpyHostToDevice));
    }
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex;
    CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    float* vol;
    size_t nv = (size_t)n * n * n;
    CK(cudaMalloc(&vol, nv * 4));
    std::vector<float> out(nv);
    double updates = (double)nv * np;
    float s = (float)g.voxel;
    // sampled reference voxels
    std::vector<int> si;
    for (int t = 0; t < 64; t++) si.push_back((int)(((long long)t * 2654435761LL) % (long long)nv));
    std::vector<double> ref;
    for (int id : si) ref.push_back(reference(g, id % n, (id / n) % n, id / n / n));
    auto check = [&](const char* name, float ms) {
        CK(cudaMemcpy(out.data(), vol, nv * 4, cudaMemcpyDeviceToHost));
        double e = 0, r = 0;
        for (size_t t = 0; t < si.size(); t++) { double d = out[si[t]] - ref[t]; e += d * d; r += ref[t] * ref[t]; }
        printf("%-26s %8.2f ms  %8.1f GUPS  rel. error %.2e\n", name, ms, updates / ms / 1e6, sqrt(e / r));
    };
    auto timeIt = [&](auto launch) {
        cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
        launch(); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
        float best = 1e30f;
        for (int r = 0; r < 3; r++) {
            cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b);
            float ms; cudaEventElapsedTime(&ms, a, b); best = std::min(best, ms);
        }
        CK(cudaGetLastError());
        return best;
    };
    dim3 b2(32, 8);
    float t0 = timeIt([&] { naive<<<dim3((n + 31) / 32, (n + 7) / 8, n), b2>>>(tex, vol, n, np, s); });
    check("naive (thread per voxel)", t0);
#define ZC(Z, H, label)                                                                                                 \
    {                                                                                                                  \
        float t = timeIt([&] { zcol<Z, H><<<dim3((n + 31) / 32, (n + 7) / 8, (n + Z - 1) / Z), b2>>>(tex, pairs, vol, n, np, s, g.w, g.h); }); \
        check(label, t);                                                                                               \
        printf("%-26s x%.2f naive\n", "", t0 / t);                                                                     \
    }
    ZC(4, 0, "zcol Z=4 texture")
    ZC(8, 0, "zcol Z=8 texture")
    ZC(16, 0, "zcol Z=16 texture")
    ZC(8, 4, "hyb Z=8, ALU 1 in 4")
    ZC(8, 3, "hyb Z=8, ALU 1 in 3")
    ZC(8, 2, "hyb Z=8, ALU 1 in 2")
    ZC(8, 1, "hyb Z=8, ALU only")
    return 0;
}
