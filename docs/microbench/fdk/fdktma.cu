// The split kernel with its tile fill by Hopper tensor copies (TMA): a box of BW x BH words at a time, issued by one
// thread and completing on an mbarrier; the tile rows BW words apart. Beside the harness (fdkkernels.cu, whose main it
// renames): nvcc -std=c++17 -O3 -arch=sm_90 -o fdktma fdktma.cu; ./fdktma check | time N NP [pick NAMES] [base NAMES]
#include <cuda.h>
#define main harness_main
#include "fdkkernels.cu"
#undef main

namespace {
__device__ __forceinline__ void mbInit(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbInitFence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void mbExpect(unsigned bar, unsigned bytes) {
    asm volatile("{.reg .b64 state;\n mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;}" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbWait(unsigned bar, unsigned parity) {
    asm volatile("{.reg .pred done;\nWAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra WAIT_%=;}" ::"r"(bar),
                 "r"(parity) : "memory");
}
__device__ __forceinline__ void tmaBox(unsigned dst, const CUtensorMap* map, int x, int y, int z, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 ::"r"(dst), "l"((unsigned long long)map), "r"(x), "r"(y), "r"(z), "r"(bar) : "memory");
}

__device__ __forceinline__ void mbArrive(unsigned bar) {
    asm volatile("{.reg .b64 state;\n mbarrier.arrive.shared::cta.b64 state, [%0];}" ::"r"(bar) : "memory");
}

// PIPE: the tile warps free a buffer through an mbarrier (a warp's first lane arrives once the warp is done with it),
// and only the copying thread waits for it, instead of a barrier of the four warps after every tile
template <int Z, int C, int B, int T, int BH, bool PIPE>
__device__ void tmaSplit(const CUtensorMap* map, cudaTextureObject_t tex, float* __restrict__ slab, int n, int nz, int k0, int slices,
                         double voxel, int bandFirst, int chunk, int p0, int np, int cap, float scale, int bw, int boxes) {
    constexpr int HALF = FDK_THREADS / 2, PER = B + T;
    __shared__ __align__(8) unsigned long long bars[4];
    FdkLocal* table = reinterpret_cast<FdkLocal*>(fdkShared);
    const unsigned base = (unsigned)__cvta_generic_to_shared(fdkShared);
    const unsigned tilesBytes = ((base + (unsigned)(np * sizeof(FdkLocal)) + 127u) & ~127u) - base;
    float* tiles = reinterpret_cast<float*>(reinterpret_cast<char*>(fdkShared) + tilesBytes);
    const unsigned bar0 = (unsigned)__cvta_generic_to_shared(bars);
    if (threadIdx.x == 0) {
        mbInit(bar0, 1);
        mbInit(bar0 + 8, 1);
        mbInit(bar0 + 16, 4);
        mbInit(bar0 + 24, 4);
        mbInitFence();
    }
    ColumnBlock<C, Z, 4> cb(k0);
    localViews(table, cb, p0, np, n, nz, k0, voxel, 1 << 30);
    float acc[C][Z];
    clearSums(acc);
    __syncthreads();
    const bool texHalf = threadIdx.x >= HALF;
    if (!texHalf) {
        auto proj = [](int k) { return k / B * PER + k % B; };
        const int count = np / PER * B + min(B, np % PER);
        const unsigned boxBytes = 4u * bw * BH;
        auto fill = [&](int k) {
            if (threadIdx.x != 0) return;
            const FdkLocal& L = table[proj(k)];
            int nb = (L.h + BH - 1) / BH;
            if (L.w > bw || nb > boxes) __trap();
            const unsigned bar = bar0 + 8u * (k & 1), dst = base + tilesBytes + 4u * (unsigned)((k & 1) * cap);
            if (PIPE && k >= 2) mbWait(bar0 + 16u + 8u * (k & 1), (unsigned)((k - 2) >> 1) & 1u);
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            mbExpect(bar, boxBytes * nb);
            for (int b = 0; b < nb; b++) tmaBox(dst + boxBytes * b, map, L.u0, L.v0 - (bandFirst - 1) + b * BH, chunk + p0 + proj(k), bar);
        };
        if (count > 0) fill(0);
#pragma unroll 1
        for (int k = 0; k < count; k++) {
            if (k + 1 < count) fill(k + 1);
            FdkLocal L = table[proj(k)];
            L.w = bw;
            mbWait(bar0 + 8u * (k & 1), (unsigned)(k >> 1) & 1u);
            columnsFromTile<C, Z, true>(acc, tilesBytes + 4u * (unsigned)((k & 1) * cap), L, cb);
            if (PIPE) {
                __syncwarp();
                if ((threadIdx.x & 31) == 0) mbArrive(bar0 + 16u + 8u * (k & 1));
            } else {
                asm volatile("bar.sync 1, %0;" ::"n"(HALF));
            }
        }
    } else {
        splitTextureShare<Z, C, B, T>(acc, tex, table, cb, chunk, p0, np, bandFirst);
    }
    __syncthreads();
    joinSplitHalves(acc, texHalf, tiles, slab, cb, n, slices, scale);
}

// the largest footprint width and height (pixels) of any block over the projections
__global__ void maxWH(int* out, int n, int nz, int k0, int slices, double s, int np, int tx, int ty, int tz) {
    int bx = (n + tx - 1) / tx, by = (n + ty - 1) / ty, bz = (k0 % tz + slices + tz - 1) / tz;
    long long total = (long long)bx * by * bz * np;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
        int p = (int)(t % np);
        long long b = t / np;
        int i = (int)(b % bx), j = (int)(b / bx % by), k = (int)(b / bx / by);
        int bi = i * tx, bj = j * ty, kk = k0 + k * tz - k0 % tz;
        FdkLocal L;
        fdkLocal<1>(p, n, nz, s, bi, bi + tx - 1, bj, bj + ty - 1, kk, kk + tz - 1, bi + tx / 2, bj + ty / 2, kk + tz / 2, 1 << 30, L);
        atomicMax(out, L.w);
        atomicMax(out + 1, L.h);
    }
}
}  // namespace

#define TMA_SPLIT(Z, C, B, T, BH) TMA_SPLIT_P(Z, C, B, T, BH, false, )
#define TMA_PIPE(Z, C, B, T, BH) TMA_SPLIT_P(Z, C, B, T, BH, true, _pipe)
#define TMA_SPLIT_P(Z, C, B, T, BH, PIPE, SUFFIX)                                                                                       \
    extern "C" __global__ void __launch_bounds__(FDK_THREADS, 2) fdk_tma_z##Z##_c##C##_b##B##_t##T##_h##BH##SUFFIX(          \
        const __grid_constant__ CUtensorMap map, cudaTextureObject_t tex, float* __restrict__ slab, int n, int nz, int k0, \
        int slices, double voxel, int bandFirst, int chunk, int p0, int np, int cap, float scale, int bw, int boxes) {     \
        tmaSplit<Z, C, B, T, BH, PIPE>(&map, tex, slab, n, nz, k0, slices, voxel, bandFirst, chunk, p0, np, cap, scale, bw, boxes); \
    }
TMA_SPLIT(16, 4, 1, 1, 8)
TMA_SPLIT(16, 4, 2, 1, 8)
TMA_SPLIT(16, 4, 3, 2, 8)
TMA_SPLIT(16, 4, 4, 3, 8)
TMA_SPLIT(16, 4, 3, 4, 8)
TMA_SPLIT(16, 4, 2, 3, 8)
TMA_SPLIT(16, 4, 1, 2, 8)
TMA_SPLIT(16, 4, 3, 1, 8)
TMA_SPLIT(16, 4, 4, 5, 8)
TMA_SPLIT(16, 4, 5, 6, 8)
TMA_SPLIT(16, 4, 6, 7, 8)
TMA_SPLIT(16, 4, 7, 8, 8)
TMA_SPLIT(16, 4, 8, 7, 8)
TMA_PIPE(16, 4, 1, 1, 8)
TMA_PIPE(16, 4, 5, 6, 8)
TMA_PIPE(16, 4, 6, 7, 8)
TMA_PIPE(16, 4, 7, 8, 8)

typedef void (*TmaKernel)(const __grid_constant__ CUtensorMap, cudaTextureObject_t, float*, int, int, int, int, double, int, int, int, int,
                          int, float, int, int);
struct TmaVariant {
    const char* name;
    TmaKernel k;
    int b, t, bh;
};
static const std::vector<TmaVariant> TMAS = {
    {"fdk_tma_z16_c4_b1_t1_h8", fdk_tma_z16_c4_b1_t1_h8, 1, 1, 8},
    {"fdk_tma_z16_c4_b2_t1_h8", fdk_tma_z16_c4_b2_t1_h8, 2, 1, 8},
    {"fdk_tma_z16_c4_b3_t2_h8", fdk_tma_z16_c4_b3_t2_h8, 3, 2, 8},
    {"fdk_tma_z16_c4_b4_t3_h8", fdk_tma_z16_c4_b4_t3_h8, 4, 3, 8},
    {"fdk_tma_z16_c4_b3_t4_h8", fdk_tma_z16_c4_b3_t4_h8, 3, 4, 8},
    {"fdk_tma_z16_c4_b2_t3_h8", fdk_tma_z16_c4_b2_t3_h8, 2, 3, 8},
    {"fdk_tma_z16_c4_b1_t2_h8", fdk_tma_z16_c4_b1_t2_h8, 1, 2, 8},
    {"fdk_tma_z16_c4_b3_t1_h8", fdk_tma_z16_c4_b3_t1_h8, 3, 1, 8},
    {"fdk_tma_z16_c4_b4_t5_h8", fdk_tma_z16_c4_b4_t5_h8, 4, 5, 8},
    {"fdk_tma_z16_c4_b5_t6_h8", fdk_tma_z16_c4_b5_t6_h8, 5, 6, 8},
    {"fdk_tma_z16_c4_b6_t7_h8", fdk_tma_z16_c4_b6_t7_h8, 6, 7, 8},
    {"fdk_tma_z16_c4_b7_t8_h8", fdk_tma_z16_c4_b7_t8_h8, 7, 8, 8},
    {"fdk_tma_z16_c4_b8_t7_h8", fdk_tma_z16_c4_b8_t7_h8, 8, 7, 8},
    {"fdk_tma_z16_c4_b1_t1_h8_pipe", fdk_tma_z16_c4_b1_t1_h8_pipe, 1, 1, 8},
    {"fdk_tma_z16_c4_b5_t6_h8_pipe", fdk_tma_z16_c4_b5_t6_h8_pipe, 5, 6, 8},
    {"fdk_tma_z16_c4_b6_t7_h8_pipe", fdk_tma_z16_c4_b6_t7_h8_pipe, 6, 7, 8},
    {"fdk_tma_z16_c4_b7_t8_h8_pipe", fdk_tma_z16_c4_b7_t8_h8_pipe, 7, 8, 8},
};

static void runTma(Problem& pr, int reps, const std::string& pick) {
    const Geo& g = pr.g;
    int* wh;
    CK(cudaMalloc(&wh, 8));
    CK(cudaMemset(wh, 0, 8));
    maxWH<<<2048, 256>>>(wh, g.n, g.nz, pr.k0, pr.slices, g.s, g.np, 32, 16, 16);
    int mw[2];
    CK(cudaMemcpy(mw, wh, 8, cudaMemcpyDeviceToHost));
    int bw = (mw[0] + 3) & ~3;
    if (bw % 16 == 0) bw += 4;
    std::printf("   tma: widest footprint %d px (box width %d), tallest %d rows\n", mw[0], bw, mw[1]);
    CUtensorMap map;
    cuuint64_t dims[3] = {(cuuint64_t)g.cols, (cuuint64_t)pr.bandRows + 1, (cuuint64_t)g.np};
    cuuint64_t strides[2] = {(cuuint64_t)g.cols * 4, (cuuint64_t)g.cols * 4 * (pr.bandRows + 1)};
    cuuint32_t estr[3] = {1, 1, 1};
    double updates = (double)g.n * g.n * pr.slices * g.np;
    for (const TmaVariant& v : TMAS) {
        if (!pick.empty() && ("," + pick + ",").find("," + std::string(v.name) + ",") == std::string::npos) continue;
        cuuint32_t box[3] = {(cuuint32_t)bw, (cuuint32_t)v.bh, 1};
        typedef CUresult (*Encode)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                                   const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                   CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
        static Encode encode = nullptr;
        if (!encode) {
            cudaDriverEntryPointQueryResult qr;
            CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&encode, 12000, cudaEnableDefault, &qr));
        }
        CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, pr.pairs, dims, strides, box, estr,
                                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (r != CUDA_SUCCESS) { std::printf("   %s: encode failed %d\n", v.name, (int)r); continue; }
        int boxes = (mw[1] + v.bh - 1) / v.bh, cap = bw * v.bh * boxes;
        int per = perLaunch, launches = (g.np + per - 1) / per;
        per = (g.np + launches - 1) / launches;
        size_t shared = (size_t)per * sizeof(FdkLocal) + 128 + (size_t)std::max(2 * cap, FDK_THREADS / 2 * 16 * 4) * 4;
        if (shared > 227 * 1024) { std::printf("   %s: %zu bytes of shared memory\n", v.name, shared); continue; }
        CK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
        if (getenv("FDK_CARVEOUT")) CK(cudaFuncSetAttribute(v.k, cudaFuncAttributePreferredSharedMemoryCarveout, atoi(getenv("FDK_CARVEOUT"))));
        dim3 grid((g.n + 31) / 32, (g.n + 15) / 16, (pr.k0 % 16 + pr.slices + 15) / 16);
        float sc = pr.scale;
        cudaTextureObject_t t = pr.texHalf;
        auto launch = [&]() {
            for (int p0 = 0; p0 < g.np; p0 += per) {
                int np = std::min(per, g.np - p0);
                v.k<<<grid, FDK_THREADS, shared>>>(map, t, pr.slab, g.n, g.nz, pr.k0, pr.slices, g.s, pr.bandFirst, 0, p0, np, cap, sc, bw, boxes);
            }
        };
        auto [best, err] = pr.measure(launch, reps);
        if (reps == 0)
            std::printf("   %-28s rel. error %.2e  (tile %d words)\n", v.name, err, cap);
        else
            std::printf("   %-28s %9.2f ms %8.1f GUPS  rel. error %.2e  (tile %d words, %zu B shared)\n", v.name, best,
                        updates / best / 1e6, err, cap, shared);
    }
    cudaFree(wh);
}

int main(int argc, char** argv) {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
    std::string pick, base = "fdk_split_z16_c4_b1_t1_m2,fdk_split_z16_c4_b3_t4_m2";
    for (int a = 1; a < argc; a++) {
        std::string w = argv[a];
        if (w == "pick") {
            pick = argv[++a];
        } else if (w == "base") {
            base = argv[++a];
        } else if (w == "check") {
            Geo g = makeGeo(301, 260, 181, 250, false);
            for (int k0 : {0, 223}) {
                int bf, br;
                band(g, k0, k0 + 37, bf, br);
                Problem pr(g, k0, 37, bf, br, 400);
                std::printf("-- check n 301, slab [%d, %d), band [%d, %d)\n", k0, k0 + 37, bf, bf + br);
                only = base;
                for (const Variant& v : VARIANTS)
                    if (("," + base + ",").find("," + std::string(v.name) + ",") != std::string::npos)
                        std::printf("   %-28s rel. error %.2e\n", v.name, pr.run(v, 0).second);
                runTma(pr, 0, pick);
            }
        } else if (w == "time") {
            int n = std::atoi(argv[a + 1]), np = std::atoi(argv[a + 2]);
            a += 2;
            Geo g = makeGeo(n, n, np, 256, false);
            Problem pr(g, 0, n, 0, g.rows, 256);
            double updates = (double)n * n * n * np;
            std::printf("== %d^3 from %d projections of %d x %d\n", n, np, g.cols, g.rows);
            for (const Variant& v : VARIANTS) {
                if (v.z != 0 && ("," + base + ",").find("," + std::string(v.name) + ",") == std::string::npos) continue;
                auto [ms, err] = pr.run(v, 3);
                std::printf("   %-28s %9.2f ms %8.1f GUPS  rel. error %.2e\n", v.name, ms, updates / ms / 1e6, err);
            }
            runTma(pr, 3, pick);
        } else if (w == "per") {
            perLaunch = std::atoi(argv[++a]);
        }
    }
    return 0;
}
