// The texture mode's split kernel with its tiles filled by Hopper's tensor copies (kernels/fdk.cu, tensorSplit: the
// product's fdk_tsplit_z16_c4_b1_t1_m2 and, with FDK_EXPLORE, other shares), timed and checked beside the harness
// (fdkkernels.cu, whose main it renames) with the tensor map CudaFdk encodes: the band's pairs, guard rows included, as
// a tensor of cols x rows words, boxes of the widest footprint x FDK_PAIR_GUARD rows.
//   nvcc -std=c++17 -O3 -arch=sm_90 -o fdktma fdktma.cu
//   ./fdktma check | [per N] [slab K0 SLICES] time N NP [pick NAMES] [base NAMES]
// base: the split kernels (cp.async fills) timed alongside; pick: the tensor-copy kernels to time (default all).
#define main harness_main
#include "fdkkernels.cu"
#undef main

typedef void (*TensorKernel)(const __grid_constant__ CUtensorMap, cudaTextureObject_t, float*, int, int, int, int, double, int, int,
                             int, int, int, int, int, float);
struct TensorVariant {
    const char* name;
    TensorKernel k;
};
#define TV(B, T) {"fdk_tsplit_z16_c4_b" #B "_t" #T "_m2", fdk_tsplit_z16_c4_b##B##_t##T##_m2}
static const std::vector<TensorVariant> TENSORS = {TV(1, 1), TV(1, 2), TV(3, 4), TV(6, 7), TV(3, 2)};

// the tensor map over a problem's pairs: cols x (guard + np projections of bandRows + 1 + guard rows) words, boxes of
// bw x FDK_PAIR_GUARD
static CUtensorMap pairsMap(const Problem& pr, int bw) {
    typedef CUresult (*Encode)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                               const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                               CUtensorMapFloatOOBfill);
    static Encode encode = nullptr;
    if (!encode) {
        cudaDriverEntryPointQueryResult qr;
        CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&encode, 12000, cudaEnableDefault, &qr));
    }
    const Geo& g = pr.g;
    cuuint64_t dims[2] = {(cuuint64_t)g.cols, (cuuint64_t)g.np * (pr.bandRows + 1 + FDK_PAIR_GUARD) + FDK_PAIR_GUARD};
    cuuint64_t strides[1] = {(cuuint64_t)g.cols * 4};
    cuuint32_t box[2] = {(cuuint32_t)bw, FDK_PAIR_GUARD}, estr[2] = {1, 1};
    CUtensorMap map;
    CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, pr.pairs, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                        CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        std::printf("cuTensorMapEncodeTiled: %d\n", (int)r);
        std::exit(1);
    }
    return map;
}

static void runTensor(Problem& pr, int reps, const std::string& pick) {
    const Geo& g = pr.g;
    pr.footprint(FDK_TILE_X, 16, 16, 0, g.np);
    const int bw = pr.widest, boxes = (pr.tallest + FDK_PAIR_GUARD - 1) / FDK_PAIR_GUARD, cap = bw * FDK_PAIR_GUARD * boxes;
    std::printf("   tensor copies: widest footprint %d px, tallest %d rows (%d boxes)\n", pr.widest, pr.tallest, boxes);
    const CUtensorMap map = pairsMap(pr, bw);
    double updates = (double)g.n * g.n * pr.slices * g.np;
    for (const TensorVariant& v : TENSORS) {
        if (!pick.empty() && ("," + pick + ",").find("," + std::string(v.name) + ",") == std::string::npos) continue;
        int per = perLaunch, launches = (g.np + per - 1) / per;
        per = (g.np + launches - 1) / launches;
        size_t shared = (size_t)per * sizeof(FdkLocal) + 128 + (size_t)std::max(2 * cap, FDK_THREADS / 2 * 16 * 4) * 4;
        if (shared > 227 * 1024) {
            std::printf("   %s: %zu bytes of shared memory\n", v.name, shared);
            continue;
        }
        CK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared));
        dim3 grid((g.n + 31) / 32, (g.n + 15) / 16, (pr.k0 % 16 + pr.slices + 15) / 16);
        auto launch = [&]() {
            for (int p0 = 0; p0 < g.np; p0 += per) {
                int np = std::min(per, g.np - p0);
                v.k<<<grid, FDK_THREADS, shared>>>(map, pr.texHalf, pr.slab, g.n, g.nz, pr.k0, pr.slices, g.s, pr.bandFirst, pr.bandRows,
                                                   0, p0, np, bw, boxes, pr.scale);
            }
        };
        auto [best, err] = pr.measure(launch, reps);
        if (reps == 0)
            std::printf("   %-28s rel. error %.2e  (tile %d words)\n", v.name, err, cap);
        else
            std::printf("   %-28s %9.2f ms %8.1f GUPS  rel. error %.2e  (tile %d words, %zu B shared)\n", v.name, best,
                        updates / best / 1e6, err, cap, shared);
    }
}

// time: slices [slabK0, slabK0 + slabSlices) of the n^3 volume and their band (slab K0 SLICES), else the whole volume
static int slabK0 = 0, slabSlices = 0;

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
        } else if (w == "per") {
            perLaunch = std::atoi(argv[++a]);
        } else if (w == "slab") {
            slabK0 = std::atoi(argv[a + 1]);
            slabSlices = std::atoi(argv[a + 2]);
            a += 2;
        } else if (w == "check") {
            Geo g = makeGeo(301, 260, 181, 250, false);
            for (int k0 : {0, 223, 100}) {
                int bf, br;
                band(g, k0, k0 + 37, bf, br);
                Problem pr(g, k0, 37, bf, br, 400);
                std::printf("-- check n 301, slab [%d, %d), band [%d, %d)\n", k0, k0 + 37, bf, bf + br);
                for (const Variant& v : VARIANTS)
                    if (("," + base + ",").find("," + std::string(v.name) + ",") != std::string::npos)
                        std::printf("   %-28s rel. error %.2e\n", v.name, pr.run(v, 0).second);
                runTensor(pr, 0, pick);
            }
        } else if (w == "time") {
            int n = std::atoi(argv[a + 1]), np = std::atoi(argv[a + 2]);
            a += 2;
            Geo g = makeGeo(n, n, np, 256, false);
            int k0 = slabSlices > 0 ? slabK0 : 0, slices = slabSlices > 0 ? slabSlices : n, bf = 0, br = g.rows;
            if (slabSlices > 0) band(g, k0, k0 + slices, bf, br);
            Problem pr(g, k0, slices, bf, br, 256);
            double updates = (double)n * n * slices * np;
            std::printf("== %d^3 from %d projections of %d x %d, slices [%d, %d), band rows [%d, %d)\n", n, np, g.cols, g.rows, k0,
                        k0 + slices, bf, bf + br);
            for (const Variant& v : VARIANTS) {
                if (v.z != 0 && ("," + base + ",").find("," + std::string(v.name) + ",") == std::string::npos) continue;
                auto [ms, err] = pr.run(v, 3);
                std::printf("   %-28s %9.2f ms %8.1f GUPS  rel. error %.2e\n", v.name, ms, updates / ms / 1e6, err);
            }
            runTensor(pr, 3, pick);
        }
    }
    return 0;
}
