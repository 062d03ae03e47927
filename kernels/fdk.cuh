// FDK's kernel facts, shared by fdk.cu (compiled with them) and manifest.cpp (which prints them into the variant
// manifest for the Java side: KernelFacts, read by FdkVariant): block shapes, the per-block view of a projection, and
// the back-projection kernels of the product with the part each plays.
#pragma once

#define FDK_MAX_PROJECTIONS 512
#define FDK_THREADS 256
// Rows of zeros in the band's half-precision pairs (fdk_pairs) before the first projection's entries and after each
// projection's: a tensor copy of 8 rows that reaches past a projection's entries by up to 7 rows reads zeros there
// instead of leaving the tensor (see tensorSplit).
#define FDK_PAIR_GUARD 8
// Block tile of the column kernels: 32 columns along x by 8·C along y; warps cover 8 x 4 columns each, so that a
// warp's pixels lie close together on the detector.
#define FDK_TILE_X 32
#define FDK_TILE_Y 8
// The naive kernel: 8 x 4 x 8 voxels a block.
#define FDK_NAIVE_X 8
#define FDK_NAIVE_Y 4
#define FDK_NAIVE_Z 8
// The texture mode's column kernels (splitKernel, tensorSplit): the block's two halves cover the same 32 x 4·C columns.
#define FDK_SPLIT_TILE_Y 4
// The tensor copies' tiles start on a boundary of this many bytes (after the views).
#define FDK_TENSOR_ALIGNMENT 128

// A projection seen from one block: the local matrix and the block's footprint on the detector.
struct FdkLocal {
    float m[12];  // (u - u0)·w, (v - v0)·w, w = m·[di, dj, dk, 1] for voxel offsets from the block's reference voxel
    int u0, v0;   // detector pixel of the footprint's corner
    int w, h;     // footprint width and height in pixels; w = 0: it does not fit the tile (read from global memory)
};

// Kernel names: Z slices a block, C columns a thread, B of every B + T projections from shared-memory tiles and T through
// the texture unit, M blocks an SM asked of the compiler.
#define FDK_NAME_NAIVE fdk_naive
#define FDK_NAME_COL(Z, C, B, M) fdk_col_z##Z##_c##C##_b##B##_m##M
#define FDK_NAME_GEN(Z, C, B, M) fdk_gen_z##Z##_c##C##_b##B##_m##M
#define FDK_NAME_SPLIT(Z, C, B, T, M) fdk_split_z##Z##_c##C##_b##B##_t##T##_m##M
#define FDK_NAME_TSPLIT(Z, C, B, T, M) fdk_tsplit_z##Z##_c##C##_b##B##_t##T##_m##M
#define FDK_NAME_HTEX(Z, C, M) fdk_htex_z##Z##_c##C##_m##M
#define FDK_NAME_GHTEX(Z, C, M) fdk_ghtex_z##Z##_c##C##_m##M

// The product set (CudaFdk, FdkVariant), each row with the part it plays: the fastest of each kind on the H200
// (benchmarks/cuda/fdk/README.md). Exact: the column and general kernels. The texture mode: half-precision tiles and
// the half-precision texture on separate warps, the texture filtering one projection in two, or four in seven for large
// footprints (z-independent u and w); the texture alone for any matrix, and without tiles. On sm_90 on, the split
// kernel one in two with tensor copies. (fdk_naive, the baseline and the fallback of the exact kernels, is its own.)
#define FDK_PRODUCT(COL, GEN, SPLIT, TSPLIT, HTEX, GHTEX)                                                              \
    COL(COLUMNS, 16, 2, 1, 3)                                                                                          \
    GEN(GENERAL, 8, 4, 1, 3)                                                                                           \
    SPLIT(HYBRID, 16, 4, 1, 1, 2)                                                                                      \
    SPLIT(HYBRID_LARGE_TILES, 16, 4, 3, 4, 2)                                                                          \
    TSPLIT(TENSOR_SPLIT, 16, 4, 1, 1, 2)                                                                               \
    HTEX(TEXTURE, 8, 1, 3)                                                                                             \
    GHTEX(GENERAL_TEXTURE, 8, 1, 3)
