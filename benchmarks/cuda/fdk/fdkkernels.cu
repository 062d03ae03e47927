// The product's FDK kernels (kernels/fdk.cu, included as they are) timed and checked without Java, to choose among
// their variants: RabbitCT-like geometry (496 projections of 1248 x 960 pixels of 0.308 mm, DSO 785 mm, DSD 1200 mm),
// synthetic projections whose pixels are exact binary fractions (the same on host and device), a double-precision
// reference on sampled voxels.
//   nvcc -std=c++17 -O3 -arch=sm_90 -o fdkkernels fdkkernels.cu && ./fdkkernels [check] [time N NP] [general N NP]
//   ./fdkkernels only NAME time N NP: one run of one kernel (for Nsight Compute); pick NAME,NAME...: those kernels alone
//   FDK_CARVEOUT=P in the environment: the kernels' preferred shared-memory carve-out, in percent of the SM's L1
// check: every kernel on awkward sizes (odd n, partial slab, a band not at row 0, the volume's top) against the
// reference; time: every kernel on an n^3 volume from NP circular projections (general: a tilted, wobbling trajectory,
// matrices with u and w depending on z), best of 3 after a warm-up, kernel time by CUDA events.
#define FDK_EXPLORE 1  // the exploration variants of kernels/fdk.cu too
#include "../../../kernels/fdk.cu"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CK(x)                                                                                    \
    do {                                                                                         \
        cudaError_t e = (x);                                                                     \
        if (e != cudaSuccess) {                                                                  \
            std::printf("CUDA %s at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e));        \
            std::exit(1);                                                                        \
        }                                                                                        \
    } while (0)

struct Geo {
    int n, nz, np, cols = 1248, rows = 960;
    bool general = false;
    double dso = 785, dsd = 1200, du = 0.308, dv = 0.308, cu = 623.5, cv = 479.5, s;
    std::vector<double> m;
};

static Geo makeGeo(int n, int nz, int np, double fov, bool general) {
    Geo g;
    g.n = n;
    g.nz = nz;
    g.np = np;
    g.general = general;
    g.s = fov / n;
    g.m.resize((size_t)np * 12);
    for (int p = 0; p < np; p++) {
        double t = 2 * M_PI * p / np, c = cos(t), s = sin(t);
        double r[12] = {(-g.cu * c - g.dsd * s / g.du) / g.dso, (-g.cu * s + g.dsd * c / g.du) / g.dso, 0, g.cu,
                        -g.cv * c / g.dso, -g.cv * s / g.dso, g.dsd / (g.dv * g.dso), g.cv, -c / g.dso, -s / g.dso, 0, 1};
        if (general) {
            // the object tilted about x by up to 4 degrees and shifted along z by up to 3 mm, varying with p
            double a = 4 * M_PI / 180 * sin(3 * t), ca = cos(a), sa = sin(a), dz = 3 * cos(2 * t);
            double T[16] = {1, 0, 0, 0, 0, ca, -sa, 0, 0, sa, ca, dz, 0, 0, 0, 1};
            double o[12];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 4; j++) {
                    o[i * 4 + j] = 0;
                    for (int k = 0; k < 4; k++) o[i * 4 + j] += r[i * 4 + k] * T[k * 4 + j];
                }
            for (int i = 0; i < 12; i++) r[i] = o[i] / o[11];
        }
        std::copy(r, r + 12, g.m.begin() + (size_t)p * 12);
    }
    return g;
}

// A pixel of the synthetic projections: a multiple of 1/1024, exact in float on host and device.
__host__ __device__ inline float pixel(int p, int u, int v) {
    unsigned h = (unsigned)p * 73856093u ^ (unsigned)u * 19349663u ^ (unsigned)v * 83492791u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    int lin = (u * 13 + v * 7 + p * 29) % 211;
    return (float)(lin * 4 + (int)(h & 255) - 550) * (1.0f / 1024);
}

__global__ void fillBand(float* q, int np, int cols, int bandFirst, int bandRows) {
    size_t total = (size_t)np * bandRows * cols;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < total; t += (size_t)gridDim.x * blockDim.x) {
        int u = (int)(t % cols), r = (int)(t / cols % bandRows), p = (int)(t / cols / bandRows);
        q[t] = pixel(p, u, bandFirst + r);
    }
}

__global__ void toHalf(__half* h, const float* q, long long count, float scale) {
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < count; t += (long long)gridDim.x * blockDim.x)
        h[t] = __float2half_rn(q[t] * scale);
}

static double reference(const Geo& g, int i, int j, int k) {
    double x = (i - (g.n - 1) / 2.0) * g.s, y = (j - (g.n - 1) / 2.0) * g.s, z = (k - (g.nz - 1) / 2.0) * g.s, acc = 0;
    for (int p = 0; p < g.np; p++) {
        const double* m = &g.m[(size_t)p * 12];
        double w = m[8] * x + m[9] * y + m[10] * z + m[11];
        double u = (m[0] * x + m[1] * y + m[2] * z + m[3]) / w, v = (m[4] * x + m[5] * y + m[6] * z + m[7]) / w;
        if (!(u > -1 && u < g.cols && v > -1 && v < g.rows)) continue;
        int iu = (int)floor(u), iv = (int)floor(v);
        double au = u - iu, av = v - iv;
        auto px = [&](int uu, int vv) { return uu < 0 || uu >= g.cols || vv < 0 || vv >= g.rows ? 0.0 : (double)pixel(p, uu, vv); };
        double val = (1 - av) * ((1 - au) * px(iu, iv) + au * px(iu + 1, iv)) + av * ((1 - au) * px(iu, iv + 1) + au * px(iu + 1, iv + 1));
        acc += val / (w * w);
    }
    return acc;
}

// SlabPlanner's band: the rows the corners of slices [k0, k1) project to, widened by one, clipped to the detector.
static void band(const Geo& g, int k0, int k1, int& first, int& count) {
    double lo = 1e300, hi = -1e300;
    for (int p = 0; p < g.np; p++) {
        const double* m = &g.m[(size_t)p * 12];
        for (int c = 0; c < 8; c++) {
            double x = ((c & 1 ? g.n - 1 : 0) - (g.n - 1) / 2.0) * g.s, y = ((c & 2 ? g.n - 1 : 0) - (g.n - 1) / 2.0) * g.s;
            double z = ((c & 4 ? k1 - 1 : k0) - (g.nz - 1) / 2.0) * g.s;
            double w = m[8] * x + m[9] * y + m[10] * z + m[11], v = (m[4] * x + m[5] * y + m[6] * z + m[7]) / w;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    first = std::max(0, (int)floor(lo));
    int last = std::min(g.rows - 1, (int)floor(hi) + 1);
    count = last - first + 1;
}

typedef void (*Kernel)(const float*, cudaTextureObject_t, float*, int, int, int, int, double, int, int, int, int, int, int, int, int);
typedef void (*PairKernel)(const float*, cudaTextureObject_t, float*, int, int, int, int, double, int, int, int, int, int, int, int,
                           int, float);

struct Variant {
    const char* name;
    Kernel k;
    int z, c, b, t;  // z slices, c columns a thread, b tile projections and t texture projections a batch; z = 0: naive
    bool general, texture;
    PairKernel pk = nullptr;  // the half-pair kernels (tiles from fdk_pairs)
    int p = 0;                // 1: pair kernel, 2: pair kernel whose texture holds the scaled band in half precision
    int ty = FDK_TILE_Y;      // block rows a column pass (4: the split kernels, whose halves hold the same columns)
};
#define SPLIT(Z, C, B, T, M)                                                                                     \
    {"fdk_split_z" #Z "_c" #C "_b" #B "_t" #T "_m" #M, nullptr, Z, C, B, T, false, true,                           \
     fdk_split_z##Z##_c##C##_b##B##_t##T##_m##M, 2, 4}
#define PAIR(NAME, Z, C, B, T, GEN, P) {#NAME, nullptr, Z, C, B, T, GEN, T > 0, NAME, P}
static const std::vector<Variant> VARIANTS = {
    {"fdk_naive", fdk_naive, 0, 0, 0, 0, true, false},
    {"fdk_col_z8_c4_b1_m2", fdk_col_z8_c4_b1_m2, 8, 4, 1, 0, false, false},
    {"fdk_col_z8_c4_b1_m3", fdk_col_z8_c4_b1_m3, 8, 4, 1, 0, false, false},
    {"fdk_col_z8_c2_b1_m3", fdk_col_z8_c2_b1_m3, 8, 2, 1, 0, false, false},
    {"fdk_col_z16_c2_b1_m3", fdk_col_z16_c2_b1_m3, 16, 2, 1, 0, false, false},
    {"fdk_col_z16_c2_b1_m2", fdk_col_z16_c2_b1_m2, 16, 2, 1, 0, false, false},
    {"fdk_gen_z16_c2_b1_m3", fdk_gen_z16_c2_b1_m3, 16, 2, 1, 0, true, false},
    {"fdk_col_z4_c4_b1_m3", fdk_col_z4_c4_b1_m3, 4, 4, 1, 0, false, false},
    {"fdk_gen_z8_c4_b1_m2", fdk_gen_z8_c4_b1_m2, 8, 4, 1, 0, true, false},
    {"fdk_gen_z8_c4_b1_m3", fdk_gen_z8_c4_b1_m3, 8, 4, 1, 0, true, false},
    {"fdk_gen_z8_c2_b1_m3", fdk_gen_z8_c2_b1_m3, 8, 2, 1, 0, true, false},
    {"fdk_xhyb_z8_c4_b1_t1_m3", fdk_xhyb_z8_c4_b1_t1_m3, 8, 4, 1, 1, false, true},
    {"fdk_xhyb_z8_c2_b1_t1_m3", fdk_xhyb_z8_c2_b1_t1_m3, 8, 2, 1, 1, false, true},
    {"fdk_hyb_z8_c4_b1_t1_m3", fdk_hyb_z8_c4_b1_t1_m3, 8, 4, 1, 1, false, true},
    {"fdk_hyb_z8_c4_b1_t2_m3", fdk_hyb_z8_c4_b1_t2_m3, 8, 4, 1, 2, false, true},
    {"fdk_hyb_z8_c2_b1_t1_m3", fdk_hyb_z8_c2_b1_t1_m3, 8, 2, 1, 1, false, true},
    {"fdk_hyb_z8_c2_b1_t2_m3", fdk_hyb_z8_c2_b1_t2_m3, 8, 2, 1, 2, false, true},
    {"fdk_hyb_z8_c2_b1_t3_m3", fdk_hyb_z8_c2_b1_t3_m3, 8, 2, 1, 3, false, true},
    {"fdk_tex_z8_c1_m3", fdk_tex_z8_c1_m3, 8, 1, 0, 1, false, true},
    {"fdk_gtex_z8_c4_m3", fdk_gtex_z8_c4_m3, 8, 4, 0, 1, true, true},
    {"fdk_gtex_z8_c1_m3", fdk_gtex_z8_c1_m3, 8, 1, 0, 1, true, true},
    PAIR(fdk_hcol_z8_c4_b1_m3, 8, 4, 1, 0, false, 1),
    PAIR(fdk_hcol_z8_c2_b1_m4, 8, 2, 1, 0, false, 1),
    PAIR(fdk_hhyb_z8_c4_b1_t1_m3, 8, 4, 1, 1, false, 1),
    PAIR(fdk_hhyb_z8_c4_b1_t1_m2, 8, 4, 1, 1, false, 1),
    PAIR(fdk_hhyb_z8_c2_b1_t1_m4, 8, 2, 1, 1, false, 1),
    PAIR(fdk_hhyb_z16_c2_b1_t1_m3, 16, 2, 1, 1, false, 1),
    PAIR(fdk_hhyb_z8_c4_b1_t2_m3, 8, 4, 1, 2, false, 1),
    PAIR(fdk_hhyb_z8_c4_b2_t2_m3, 8, 4, 2, 2, false, 1),
    PAIR(fdk_hhyb_z8_c4_b3_t2_m3, 8, 4, 3, 2, false, 1),
    PAIR(fdk_hhhyb_z8_c4_b1_t1_m3, 8, 4, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z8_c4_b1_t2_m3, 8, 4, 1, 2, false, 2),
    PAIR(fdk_hhhyb_z8_c4_b2_t2_m3, 8, 4, 2, 2, false, 2),
    PAIR(fdk_hhhyb_z8_c2_b1_t1_m4, 8, 2, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z16_c2_b1_t1_m3, 16, 2, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z16_c1_b1_t1_m4, 16, 1, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z32_c1_b1_t1_m3, 32, 1, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z16_c4_b1_t1_m2, 16, 4, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z32_c2_b1_t1_m2, 32, 2, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z16_c2_b1_t1_m2, 16, 2, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z4_c4_b1_t1_m4, 4, 4, 1, 1, false, 2),
    PAIR(fdk_hhhyb_z8_c4_b1_t3_m3, 8, 4, 1, 3, false, 2),
    PAIR(fdk_hhhyb_z8_c4_b2_t3_m3, 8, 4, 2, 3, false, 2),
    PAIR(fdk_htex_z8_c1_m3, 8, 1, 0, 1, false, 2),
    PAIR(fdk_htex_z8_c2_m3, 8, 2, 0, 1, false, 2),
    PAIR(fdk_htex_z8_c4_m3, 8, 4, 0, 1, false, 2),
    PAIR(fdk_hgen_z8_c4_b1_m3, 8, 4, 1, 0, true, 1),
    PAIR(fdk_ghyb_z8_c4_b1_t1_m3, 8, 4, 1, 1, true, 1),
    PAIR(fdk_ghhyb_z8_c4_b1_t1_m3, 8, 4, 1, 1, true, 2),
    PAIR(fdk_ghhyb_z8_c4_b1_t2_m3, 8, 4, 1, 2, true, 2),
    PAIR(fdk_ghtex_z8_c1_m3, 8, 1, 0, 1, true, 2),
    PAIR(fdk_ghtex_z8_c2_m3, 8, 2, 0, 1, true, 2),
    SPLIT(16, 2, 1, 1, 3),
    SPLIT(8, 4, 1, 1, 3),
    SPLIT(16, 4, 1, 1, 2),
    SPLIT(16, 2, 1, 2, 3),
    SPLIT(16, 2, 3, 4, 3),
    SPLIT(16, 4, 1, 2, 2),
    SPLIT(16, 4, 2, 3, 2),
    SPLIT(16, 4, 3, 4, 2),
    SPLIT(16, 4, 3, 2, 2),
    SPLIT(16, 4, 4, 5, 2),
    SPLIT(16, 4, 5, 7, 2),
};

static int perLaunch = 128;  // projections a launch at most (per N)

struct Problem {
    Geo g;
    int k0, slices, bandFirst, bandRows;
    float* q = nullptr;
    float* slab = nullptr;
    cudaArray_t arr = nullptr;
    cudaTextureObject_t tex = 0;
    int* foot = nullptr;
    unsigned* pairs = nullptr;  // fdk_pairs of q
    float scale = 1;
    cudaArray_t arrHalf = nullptr;  // q times scale in half precision, and its texture
    cudaTextureObject_t texHalf = 0;
    std::vector<int> si, sj, sk;
    std::vector<double> ref;
    int lastCap = 0;

    Problem(const Geo& geo, int k0_, int slices_, int bf, int br, int samples)
        : g(geo), k0(k0_), slices(slices_), bandFirst(bf), bandRows(br) {
        size_t nq = (size_t)g.np * bandRows * g.cols;
        CK(cudaMalloc(&q, nq * 4));
        fillBand<<<4096, 256>>>(q, g.np, g.cols, bandFirst, bandRows);
        CK(cudaMalloc(&slab, (size_t)g.n * g.n * slices * 4));
        CK(cudaMalloc(&foot, 16));
        cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
        CK(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(g.cols, bandRows, g.np), cudaArrayLayered));
        cudaMemcpy3DParms c = {};
        c.srcPtr = make_cudaPitchedPtr(q, g.cols * 4, g.cols, bandRows);
        c.dstArray = arr;
        c.extent = make_cudaExtent(g.cols, bandRows, g.np);
        c.kind = cudaMemcpyDeviceToDevice;
        CK(cudaMemcpy3D(&c));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeBorder;
        td.filterMode = cudaFilterModeLinear;
        td.readMode = cudaReadModeElementType;
        CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
        unsigned* mx;
        CK(cudaMalloc(&mx, 4));
        CK(cudaMemset(mx, 0, 4));
        fdk_absmax<<<1024, 256>>>(mx, q, (long long)nq);
        unsigned bits;
        CK(cudaMemcpy(&bits, mx, 4, cudaMemcpyDeviceToHost));
        cudaFree(mx);
        float largest;
        std::memcpy(&largest, &bits, 4);
        int e;
        std::frexp(largest, &e);
        scale = std::ldexp(1.0f, 14 - e);
        CK(cudaMalloc(&pairs, ((size_t)g.np * (bandRows + 1 + FDK_PAIR_GUARD) + FDK_PAIR_GUARD) * g.cols * 4));
        fdk_pairs<<<4096, 256>>>(pairs, q, g.np, bandRows, g.cols, scale);
        __half* qh;
        CK(cudaMalloc(&qh, nq * 2));
        toHalf<<<4096, 256>>>(qh, q, (long long)nq, scale);
        cudaChannelFormatDesc hd = cudaCreateChannelDescHalf();
        CK(cudaMalloc3DArray(&arrHalf, &hd, make_cudaExtent(g.cols, bandRows, g.np), cudaArrayLayered));
        c.srcPtr = make_cudaPitchedPtr(qh, g.cols * 2, g.cols, bandRows);
        c.dstArray = arrHalf;
        CK(cudaMemcpy3D(&c));
        rd.res.array.array = arrHalf;
        CK(cudaCreateTextureObject(&texHalf, &rd, &td, nullptr));
        CK(cudaDeviceSynchronize());
        cudaFree(qh);
        std::vector<float> mf(g.m.begin(), g.m.end());
        CK(cudaMemcpyToSymbol(c_fdk, g.m.data(), std::min(g.np, FDK_MAX_PROJECTIONS) * 12 * sizeof(double)));
        unsigned long long h = 88172645463325252ull;
        for (int t = 0; t < samples; t++) {
            h ^= h << 13; h ^= h >> 7; h ^= h << 17;
            si.push_back((int)(h % g.n));
            sj.push_back((int)((h >> 20) % g.n));
            sk.push_back((int)((h >> 40) % slices));
            ref.push_back(reference(g, si.back(), sj.back(), k0 + sk.back()));
        }
        CK(cudaDeviceSynchronize());
    }
    ~Problem() {
        cudaDestroyTextureObject(tex);
        cudaFreeArray(arr);
        cudaFree(q);
        cudaFree(slab);
        cudaFree(foot);
        cudaFree(pairs);
        cudaDestroyTextureObject(texHalf);
        cudaFreeArray(arrHalf);
    }

    // the widest and tallest footprint of the last footprint() call
    int widest = 0, tallest = 0;

    // ends: the bound from the slab's end chunks (circular trajectories), as the product sizes tiles
    int footprint(int tx, int ty, int tz, int p0, int np, bool ends = true) {
        CK(cudaMemset(foot, 0, 16));
        fdk_footprint<<<2048, 256>>>(foot, g.n, g.nz, k0, slices, g.s, p0, np, tx, ty, tz, ends && !g.general);
        int f[4];
        CK(cudaMemcpy(f, foot, 16, cudaMemcpyDeviceToHost));
        widest = f[2];
        tallest = f[3];
        return f[0];
    }

    // Every launch of one back-projection (projections in launches of at most 256).
    std::function<void()> launcher(const Variant& v) {
        int per = perLaunch, launches = (g.np + per - 1) / per;
        per = (g.np + launches - 1) / launches;
        int cap = 0;
        dim3 grid, block(FDK_THREADS);
        if (v.z == 0) {
            // blocks cover whole chunks of the volume's slices: the slab's first chunk may start below k0
            grid = dim3((g.n + FDK_NAIVE_X - 1) / FDK_NAIVE_X, (g.n + FDK_NAIVE_Y - 1) / FDK_NAIVE_Y,
                        (k0 % FDK_NAIVE_Z + slices + FDK_NAIVE_Z - 1) / FDK_NAIVE_Z);
        } else {
            int ty = v.ty * v.c;
            grid = dim3((g.n + FDK_TILE_X - 1) / FDK_TILE_X, (g.n + ty - 1) / ty, (k0 % v.z + slices + v.z - 1) / v.z);
            if (v.b > 0) cap = footprint(FDK_TILE_X, ty, v.z, 0, g.np);
        }
        size_t words = v.ty == 4 ? std::max((size_t)2 * cap, (size_t)FDK_THREADS / 2 * v.z * v.c) : (size_t)2 * v.b * cap;
        size_t shared = (size_t)per * sizeof(FdkLocal) + words * 4;
        lastCap = cap;
        if (shared > 227 * 1024) return nullptr;
        if (v.pk) {
            CK(cudaFuncSetAttribute(v.pk, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
            if (getenv("FDK_CARVEOUT")) CK(cudaFuncSetAttribute(v.pk, cudaFuncAttributePreferredSharedMemoryCarveout, atoi(getenv("FDK_CARVEOUT"))));
            const float* pq = reinterpret_cast<const float*>(pairs);
            float sc = scale;
            cudaTextureObject_t t = v.p == 2 ? texHalf : tex;
            return [=]() {
                for (int p0 = 0; p0 < g.np; p0 += per) {
                    int np = std::min(per, g.np - p0);
                    v.pk<<<grid, block, shared>>>(pq, t, slab, g.n, g.nz, k0, slices, g.s, g.cols, g.rows, bandFirst, bandRows, 0,
                                                  p0, np, cap, sc);
                }
            };
        }
        CK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
        if (getenv("FDK_CARVEOUT")) CK(cudaFuncSetAttribute(v.k, cudaFuncAttributePreferredSharedMemoryCarveout, atoi(getenv("FDK_CARVEOUT"))));
        return [=]() {
            for (int p0 = 0; p0 < g.np; p0 += per) {
                int np = std::min(per, g.np - p0);
                v.k<<<grid, block, shared>>>(q, tex, slab, g.n, g.nz, k0, slices, g.s, g.cols, g.rows, bandFirst, bandRows, 0, p0,
                                             np, cap);
            }
        };
    }

    double error() {
        double e = 0, r = 0;
        for (size_t t = 0; t < si.size(); t++) {
            float o;
            CK(cudaMemcpy(&o, slab + ((size_t)sk[t] * g.n + sj[t]) * g.n + si[t], 4, cudaMemcpyDeviceToHost));
            e += (o - ref[t]) * (o - ref[t]);
            r += ref[t] * ref[t];
        }
        return std::sqrt(e / r);
    }

    // (best ms, rel. error) of a variant; reps = 0: one run for the error only
    std::pair<float, double> run(const Variant& v, int reps) {
        auto launch = launcher(v);
        if (!launch) return {-1.f, -1.0};
        return measure(launch, reps);
    }

    // (best ms of reps runs, rel. error of one run from a cleared slab) of a back-projection's launches
    std::pair<float, double> measure(const std::function<void()>& launch, int reps) {
        CK(cudaMemset(slab, 0, (size_t)g.n * g.n * slices * 4));
        launch();
        CK(cudaDeviceSynchronize());
        CK(cudaGetLastError());
        double err = error();
        float best = 1e30f;
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        for (int r = 0; r < reps; r++) {
            cudaEventRecord(a);
            launch();
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            best = std::min(best, ms);
        }
        CK(cudaGetLastError());
        cudaEventDestroy(a);
        cudaEventDestroy(b);
        return {best, err};
    }
};

static void check() {
    std::printf("== check: every kernel against the double reference (rel. L2 over 400 sampled voxels)\n");
    struct Case { const char* what; int n, nz, np; double fov; bool general; int k0, slices; };
    Case cases[] = {
        {"odd n 301, nz 260, slab [0, 37) at the volume's bottom", 301, 260, 181, 250, false, 0, 37},
        {"odd n 301, nz 260, slab [223, 260) at the top, band to the detector edge", 301, 260, 181, 250, false, 223, 37},
        {"n 160, nz 96, slab [40, 51), general matrices", 160, 96, 97, 230, true, 40, 11},
        {"odd n 301, nz 260, slab [223, 260), general matrices", 301, 260, 181, 250, true, 223, 37},
    };
    for (const Case& c : cases) {
        Geo g = makeGeo(c.n, c.nz, c.np, c.fov, c.general);
        int bf, br;
        band(g, c.k0, c.k0 + c.slices, bf, br);
        Problem pr(g, c.k0, c.slices, bf, br, 400);
        std::printf("-- %s: band rows [%d, %d)\n", c.what, bf, bf + br);
        for (const Variant& v : VARIANTS) {
            if (!v.general && c.general) continue;
            double e = pr.run(v, 0).second;
            std::printf("   %-28s rel. error %.2e  (tile %d px)\n", v.name, e, pr.lastCap);
        }
    }
}

static std::string only;     // run only the variants of these names (comma-separated), else every variant
static bool profile = false;  // one run of each, untimed (for Nsight Compute)

static void timing(int n, int np, bool general, int reps) {
    Geo g = makeGeo(n, n, np, 256, general);
    Problem pr(g, 0, n, 0, g.rows, 256);
    double updates = (double)n * n * n * np;
    std::printf("== %d^3 from %d %s projections of %d x %d (footprints: z8c4 %d, z8c2 %d, z16c2 %d px)\n", n, np,
                general ? "general (tilted, wobbling)" : "circular", g.cols, g.rows, pr.footprint(32, 32, 8, 0, np),
                pr.footprint(32, 16, 8, 0, np), pr.footprint(32, 16, 16, 0, np));
    {
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        for (bool ends : {false, true}) {
            pr.footprint(32, 32, 8, 0, np, ends);
            cudaEventRecord(a);
            int f = pr.footprint(32, 32, 8, 0, np, ends);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            std::printf("   fdk_footprint (z8c4 blocks, every projection%s): %d px, %.2f ms\n", ends ? ", end chunks" : "", f, ms);
        }
    }
    float naive = 0;
    for (const Variant& v : VARIANTS) {
        if (general && !v.general) continue;
        if (!only.empty() && ("," + only + ",").find("," + std::string(v.name) + ",") == std::string::npos) continue;
        auto [ms, err] = pr.run(v, reps);
        if (v.z == 0) naive = ms;
        if (ms < 0) {
            std::printf("   %-28s tile of %d px does not fit\n", v.name, pr.lastCap);
            continue;
        }
        std::printf("   %-28s %9.2f ms %8.1f GUPS  x%5.2f naive  rel. error %.2e\n", v.name, ms, updates / ms / 1e6, naive / ms, err);
    }
}

int main(int argc, char** argv) {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
    for (int a = 1; a < argc; a++) {
        std::string w = argv[a];
        if (w == "check") {
            check();
        } else if (w == "time" || w == "general") {
            int n = std::atoi(argv[a + 1]), np = std::atoi(argv[a + 2]);
            timing(n, np, w == "general", profile ? 0 : 3);
            a += 2;
        } else if (w == "per") {
            perLaunch = std::atoi(argv[++a]);
        } else if (w == "only" || w == "pick") {
            only = argv[++a];
            profile = w == "only";
        }
    }
    return 0;
}
