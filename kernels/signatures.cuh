// Every kernel's parameter list, stated once. The kernels declare their parameters with these lists, and
// kernels/manifest.cpp prints them (names and the kind of each type) into the variant manifest, from which the Java
// build generates the argument builders it launches the kernels with (KernelCalls). A parameter renamed here must be
// renamed in the kernel's body (nvcc fails otherwise) and in the Java code that passes it (javac fails otherwise).
//
// A list is TS_PARAM0(type, name) followed by TS_PARAM(type, name) for each further parameter. Included as it is, the
// lists declare parameters: TS_PARAMS_FILTER expands to "float* data, long long nrows, ...". One list may serve many
// kernels (a family of instantiations whose names come from variants.def, fdk.cu or joseph.cu); a kernel of its own
// also takes its name from here: TS_KERNEL(ID) is its name and parameter list.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

struct ProjD;

#define TS_PARAM0(T, N) T N
#define TS_PARAM(T, N) , T N

#define TS_KERNEL(ID) TS_NAME_##ID(TS_PARAMS_##ID)

// Parameter lists shared by the kernels of a family (their names come with the family's instantiations).
#define TS_FAMILIES(X) X(TEXTURE) X(ALU) X(WINDOW) X(TENSOR) X(PACK) X(PACK_WIN) X(ABSMAX) X(ENTRIES) X(JOSEPH_FORWARD) \
    X(JOSEPH_BACK) X(FDK) X(FDK_PAIRS) X(FDK_TENSOR)
// Kernels of their own: TS_NAME_ID is the kernel's name.
#define TS_KERNELS(X) X(FILTER) X(CORRECT) X(IT_RECIPROCAL) X(IT_WEIGHTED_RESIDUAL) X(IT_SCALED_UPDATE) X(IT_SUBTRACT_FROM) \
    X(IT_AXPY) X(IT_XPBY) X(IT_COUNTS) X(IT_LIKELIHOOD_TERMS) X(IT_RATIO_UPDATE) X(IT_SUMS) X(IT_FIRST_SLICE)              \
    X(IT_WEIGHTED_UPDATE) X(IT_SUBSET_RESIDUAL) X(IT_OFFSET_RECIPROCAL) X(IT_DATA_DUAL) X(IT_TV_DUAL) X(IT_TV_PRIMAL)      \
    X(FDK_ABSMAX) X(FDK_MAKE_PAIRS) X(FDK_HALVES) X(FDK_FOOTPRINT) X(FDK_WEIGHT)

// ---- back-projection (backproject.cu) ------------------------------------------------------------------------------
// The texture kernels (Algorithms 1, 3, 4): the compound sinogram as a texture, the projections' table in pd.
#define TS_PARAMS_TEXTURE                                                                                              \
    TS_PARAM0(cudaTextureObject_t, tex) TS_PARAM(const ProjD*, pd) TS_PARAM(float*, out) TS_PARAM(int, rows)           \
    TS_PARAM(int, cols) TS_PARAM(long long, plane) TS_PARAM(int, np)
// The shared-memory kernels: the compound sinogram (bins, or the entries array of the cp.async kernels) in sino, the
// texture of a hybrid's share in tex (0 when none).
#define TS_PARAMS_ALU                                                                                                  \
    TS_PARAM0(const void* __restrict__, sino) TS_PARAM(int, pitch) TS_PARAM(int, width) TS_PARAM(int, np)               \
    TS_PARAM(const ProjD* __restrict__, pd) TS_PARAM(cudaTextureObject_t, tex) TS_PARAM(float* __restrict__, out)       \
    TS_PARAM(int, rows) TS_PARAM(int, cols) TS_PARAM(long long, plane)
// The register-window kernels: gmax holds, per group, the magnitude bits its packing was scaled by.
#define TS_PARAMS_WINDOW                                                                                               \
    TS_PARAM0(const void* __restrict__, sino) TS_PARAM(int, pitch) TS_PARAM(int, width) TS_PARAM(int, np)               \
    TS_PARAM(const ProjD* __restrict__, pd) TS_PARAM(const unsigned* __restrict__, gmax)                               \
    TS_PARAM(float* __restrict__, out) TS_PARAM(int, rows) TS_PARAM(int, cols) TS_PARAM(long long, plane)
// The tensor-core kernels: as the window kernels, and the groups of the launch (32 slices per block along grid z).
#define TS_PARAMS_TENSOR TS_PARAMS_WINDOW TS_PARAM(int, ngroups)
// Interleaving nValid slices of raw (sliceStride apart) into the compound sinogram dst.
#define TS_PARAMS_PACK                                                                                                 \
    TS_PARAM0(const float*, raw) TS_PARAM(int, width) TS_PARAM(int, np) TS_PARAM(long long, sliceStride)               \
    TS_PARAM(int, nValid) TS_PARAM(void*, dst) TS_PARAM(int, pitch)
// The same, scaled by a power of two from the group's largest magnitude (gmax).
#define TS_PARAMS_PACK_WIN TS_PARAMS_PACK TS_PARAM(const unsigned*, gmax)
// The group's largest magnitude, as float bits, atomically into gmax (zeroed by the caller).
#define TS_PARAMS_ABSMAX                                                                                               \
    TS_PARAM0(const float*, raw) TS_PARAM(int, width) TS_PARAM(int, np) TS_PARAM(long long, sliceStride)               \
    TS_PARAM(int, nValid) TS_PARAM(unsigned*, gmax)
// The entries array (value and difference per bin) of a compound sinogram.
#define TS_PARAMS_ENTRIES                                                                                              \
    TS_PARAM0(const void*, sino) TS_PARAM(int, pitch) TS_PARAM(int, width) TS_PARAM(int, np) TS_PARAM(void*, dst)      \
    TS_PARAM(int, epitch)

// ---- ramp filter (filter.cu) and raw-count correction (preprocess.cu) -----------------------------------------------
#define TS_NAME_FILTER ramp_filter_rows
#define TS_PARAMS_FILTER                                                                                               \
    TS_PARAM0(float*, data) TS_PARAM(long long, nrows) TS_PARAM(int, width) TS_PARAM(int, n)                           \
    TS_PARAM(const float2* __restrict__, tw) TS_PARAM(const float* __restrict__, resp) TS_PARAM(int, edge)
// Flat/dark correction and -log of a chunk's raw counts into its sinograms.
#define TS_NAME_CORRECT correct_u16
#define TS_PARAMS_CORRECT                                                                                              \
    TS_PARAM0(const unsigned short* __restrict__, raw) TS_PARAM(const float* __restrict__, dark)                       \
    TS_PARAM(const float* __restrict__, den) TS_PARAM(float* __restrict__, out) TS_PARAM(int, width) TS_PARAM(int, np) \
    TS_PARAM(float, floorTr) TS_PARAM(unsigned long long* __restrict__, clamped)

// ---- the iterative methods' projector pair (joseph.cu) --------------------------------------------------------------
// The forward projection of the projections listed in angles.
#define TS_PARAMS_JOSEPH_FORWARD                                                                                       \
    TS_PARAM0(const float* __restrict__, img) TS_PARAM(float* __restrict__, sino)                                      \
    TS_PARAM(const long long* __restrict__, tab) TS_PARAM(const float* __restrict__, ftab)                             \
    TS_PARAM(const int* __restrict__, angles) TS_PARAM(int, nangles) TS_PARAM(int, rows) TS_PARAM(int, cols)           \
    TS_PARAM(int, width) TS_PARAM(int, k)
// Its adjoint, a gather over the projections listed in angles.
#define TS_PARAMS_JOSEPH_BACK                                                                                          \
    TS_PARAM0(const float* __restrict__, sino) TS_PARAM(float* __restrict__, img)                                      \
    TS_PARAM(const long long* __restrict__, tab) TS_PARAM(const float* __restrict__, ftab)                             \
    TS_PARAM(const int* __restrict__, angles) TS_PARAM(int, nangles) TS_PARAM(int, rows) TS_PARAM(int, cols)           \
    TS_PARAM(int, width) TS_PARAM(int, k)

// ---- the iterative methods' vector operations (iterative.cu) -------------------------------------------------------
#define TS_NAME_IT_RECIPROCAL it_reciprocal
#define TS_PARAMS_IT_RECIPROCAL TS_PARAM0(float* __restrict__, v) TS_PARAM(long, n)
#define TS_NAME_IT_WEIGHTED_RESIDUAL it_weighted_residual
#define TS_PARAMS_IT_WEIGHTED_RESIDUAL                                                                                 \
    TS_PARAM0(const float* __restrict__, p) TS_PARAM(float* __restrict__, y) TS_PARAM(const float* __restrict__, r)     \
    TS_PARAM(long, n)
#define TS_NAME_IT_SCALED_UPDATE it_scaled_update
#define TS_PARAMS_IT_SCALED_UPDATE                                                                                     \
    TS_PARAM0(float* __restrict__, x) TS_PARAM(const float* __restrict__, c) TS_PARAM(const float* __restrict__, u)     \
    TS_PARAM(long, n) TS_PARAM(int, nonNegative)
#define TS_NAME_IT_SUBTRACT_FROM it_subtract_from
#define TS_PARAMS_IT_SUBTRACT_FROM TS_PARAM0(const float* __restrict__, b) TS_PARAM(float* __restrict__, r) TS_PARAM(long, n)
#define TS_NAME_IT_AXPY it_axpy
#define TS_PARAMS_IT_AXPY                                                                                              \
    TS_PARAM0(const float* __restrict__, coef) TS_PARAM(const float* __restrict__, x) TS_PARAM(float* __restrict__, y)  \
    TS_PARAM(long, n) TS_PARAM(int, k)
#define TS_NAME_IT_XPBY it_xpby
#define TS_PARAMS_IT_XPBY                                                                                              \
    TS_PARAM0(const float* __restrict__, s) TS_PARAM(const float* __restrict__, coef) TS_PARAM(float* __restrict__, d)  \
    TS_PARAM(long, n) TS_PARAM(int, k)
#define TS_NAME_IT_COUNTS it_counts
#define TS_PARAMS_IT_COUNTS                                                                                            \
    TS_PARAM0(const float* __restrict__, blank) TS_PARAM(const float* __restrict__, p) TS_PARAM(float* __restrict__, out) \
    TS_PARAM(long, n) TS_PARAM(int, rowLen)
#define TS_NAME_IT_LIKELIHOOD_TERMS it_likelihood_terms
#define TS_PARAMS_IT_LIKELIHOOD_TERMS                                                                                  \
    TS_PARAM0(const float* __restrict__, line) TS_PARAM(const float* __restrict__, blank)                              \
    TS_PARAM(const float* __restrict__, counts) TS_PARAM(const float* __restrict__, rowSum)                            \
    TS_PARAM(const int* __restrict__, angles) TS_PARAM(int, nangles) TS_PARAM(int, rowLen)                             \
    TS_PARAM(float* __restrict__, num) TS_PARAM(float* __restrict__, den)
#define TS_NAME_IT_RATIO_UPDATE it_ratio_update
#define TS_PARAMS_IT_RATIO_UPDATE                                                                                      \
    TS_PARAM0(float* __restrict__, x) TS_PARAM(const float* __restrict__, num) TS_PARAM(const float* __restrict__, den) \
    TS_PARAM(long, n)
// Per-slice partial sums of a·b (mode 0) or (a − b)² (mode 1), one row of k per block.
#define TS_NAME_IT_SUMS it_sums
#define TS_PARAMS_IT_SUMS                                                                                              \
    TS_PARAM0(const float* __restrict__, a) TS_PARAM(const float* __restrict__, b) TS_PARAM(int, mode) TS_PARAM(long, n) \
    TS_PARAM(int, k) TS_PARAM(double* __restrict__, partials)
// A weight image from slice 0 of an image of k slices.
#define TS_NAME_IT_FIRST_SLICE it_first_slice
#define TS_PARAMS_IT_FIRST_SLICE                                                                                       \
    TS_PARAM0(const float* __restrict__, image) TS_PARAM(float* __restrict__, w) TS_PARAM(long, n) TS_PARAM(int, k)
// x ← x + w·u, w a weight image shared by the k slices.
#define TS_NAME_IT_WEIGHTED_UPDATE it_weighted_update
#define TS_PARAMS_IT_WEIGHTED_UPDATE                                                                                   \
    TS_PARAM0(float* __restrict__, x) TS_PARAM(const float* __restrict__, w) TS_PARAM(const float* __restrict__, u)     \
    TS_PARAM(long, n) TS_PARAM(int, k) TS_PARAM(int, nonNegative)
// The weighted residual of the rows of angles, and Σ d², one partial per block.
#define TS_NAME_IT_SUBSET_RESIDUAL it_subset_residual
#define TS_PARAMS_IT_SUBSET_RESIDUAL                                                                                   \
    TS_PARAM0(const float* __restrict__, p) TS_PARAM(float* __restrict__, y) TS_PARAM(const float* __restrict__, r)     \
    TS_PARAM(const int* __restrict__, angles) TS_PARAM(int, nangles) TS_PARAM(int, rowLen) TS_PARAM(int, k)            \
    TS_PARAM(double* __restrict__, partials)
// 1/(v + offset) on the real elements (edge floats, guardLines lines of guards).
#define TS_NAME_IT_OFFSET_RECIPROCAL it_offset_reciprocal
#define TS_PARAMS_IT_OFFSET_RECIPROCAL                                                                                 \
    TS_PARAM0(float* __restrict__, v) TS_PARAM(long, n) TS_PARAM(float, offset) TS_PARAM(int, pitch) TS_PARAM(int, edge) \
    TS_PARAM(int, guardLines)
#define TS_NAME_IT_DATA_DUAL it_data_dual
#define TS_PARAMS_IT_DATA_DUAL                                                                                         \
    TS_PARAM0(float* __restrict__, q) TS_PARAM(const float* __restrict__, y) TS_PARAM(const float* __restrict__, p)     \
    TS_PARAM(const float* __restrict__, sigma) TS_PARAM(long, n)
// weight: one radius per slice, over the real pixels of rows × cols (guard: the guard pixels around each row).
#define TS_NAME_IT_TV_DUAL it_tv_dual
#define TS_PARAMS_IT_TV_DUAL                                                                                           \
    TS_PARAM0(float* __restrict__, zx) TS_PARAM(float* __restrict__, zy) TS_PARAM(const float* __restrict__, xbar)      \
    TS_PARAM(float, sigma) TS_PARAM(const float* __restrict__, weight) TS_PARAM(int, rows) TS_PARAM(int, cols)         \
    TS_PARAM(int, k) TS_PARAM(int, guard)
#define TS_NAME_IT_TV_PRIMAL it_tv_primal
#define TS_PARAMS_IT_TV_PRIMAL                                                                                         \
    TS_PARAM0(float* __restrict__, x) TS_PARAM(float* __restrict__, xbar) TS_PARAM(const float* __restrict__, u)        \
    TS_PARAM(const float* __restrict__, zx) TS_PARAM(const float* __restrict__, zy) TS_PARAM(const float* __restrict__, tau) \
    TS_PARAM(int, nonNegative) TS_PARAM(int, rows) TS_PARAM(int, cols) TS_PARAM(int, k) TS_PARAM(int, guard)

// ---- FDK (fdk.cu) ---------------------------------------------------------------------------------------------------
// Every FDK back-projection kernel reading the band q (float32): fdk_naive and the instantiations of FDK_KERNEL.
#define TS_PARAMS_FDK                                                                                                  \
    TS_PARAM0(const float* __restrict__, q) TS_PARAM(cudaTextureObject_t, tex) TS_PARAM(float* __restrict__, slab)      \
    TS_PARAM(int, n) TS_PARAM(int, nz) TS_PARAM(int, k0) TS_PARAM(int, slices) TS_PARAM(double, voxel)                 \
    TS_PARAM(int, cols) TS_PARAM(int, rows) TS_PARAM(int, bandFirst) TS_PARAM(int, bandRows) TS_PARAM(int, chunk)      \
    TS_PARAM(int, p0) TS_PARAM(int, np) TS_PARAM(int, cap)
// The texture mode's kernels: q the band's half-precision pairs (fdk_pairs), scale the factor they were made with.
#define TS_PARAMS_FDK_PAIRS TS_PARAMS_FDK TS_PARAM(float, scale)
// The texture mode's split kernel with tensor copies (sm_90 on): the band's pairs mapped as a tensor (a CUtensorMap by
// value), tiles of bw x 8·boxes words.
#define TS_PARAMS_FDK_TENSOR                                                                                           \
    TS_PARAM0(const __grid_constant__ CUtensorMap, map) TS_PARAM(cudaTextureObject_t, tex)                             \
    TS_PARAM(float* __restrict__, slab) TS_PARAM(int, n) TS_PARAM(int, nz) TS_PARAM(int, k0) TS_PARAM(int, slices)     \
    TS_PARAM(double, voxel) TS_PARAM(int, bandFirst) TS_PARAM(int, bandRows) TS_PARAM(int, chunk) TS_PARAM(int, p0)    \
    TS_PARAM(int, np) TS_PARAM(int, bw) TS_PARAM(int, boxes) TS_PARAM(float, scale)
// The largest footprint of a block of the column kernels, and whether any block cannot take one (ends: a bound from
// the slab's end chunks, for matrices whose u and w do not depend on z).
#define TS_NAME_FDK_FOOTPRINT fdk_footprint
#define TS_PARAMS_FDK_FOOTPRINT                                                                                        \
    TS_PARAM0(int*, result) TS_PARAM(int, n) TS_PARAM(int, nz) TS_PARAM(int, k0) TS_PARAM(int, slices)                 \
    TS_PARAM(double, voxel) TS_PARAM(int, p0) TS_PARAM(int, np) TS_PARAM(int, tileX) TS_PARAM(int, tileY)              \
    TS_PARAM(int, tileZ) TS_PARAM(int, ends)
// FDK's cosine and redundancy weights of a band, in place, before its ramp filter.
#define TS_NAME_FDK_WEIGHT fdk_weight
#define TS_PARAMS_FDK_WEIGHT                                                                                           \
    TS_PARAM0(float*, q) TS_PARAM(const double* __restrict__, uw) TS_PARAM(long long, pixels) TS_PARAM(int, bandRows)  \
    TS_PARAM(int, cols) TS_PARAM(int, bandFirst) TS_PARAM(double, dsd) TS_PARAM(double, du) TS_PARAM(double, dv)       \
    TS_PARAM(double, cu) TS_PARAM(double, cv)
// The largest |value| of a band, as float bits.
#define TS_NAME_FDK_ABSMAX fdk_absmax
#define TS_PARAMS_FDK_ABSMAX                                                                                           \
    TS_PARAM0(unsigned*, result) TS_PARAM(const float* __restrict__, q) TS_PARAM(long long, count)
// A band's half-precision pairs (a pixel and the one below), times scale.
#define TS_NAME_FDK_MAKE_PAIRS fdk_pairs
#define TS_PARAMS_FDK_MAKE_PAIRS                                                                                       \
    TS_PARAM0(unsigned*, pairs) TS_PARAM(const float* __restrict__, q) TS_PARAM(int, np) TS_PARAM(int, bandRows)       \
    TS_PARAM(int, cols) TS_PARAM(float, scale)
// A band times scale in half precision.
#define TS_NAME_FDK_HALVES fdk_halves
#define TS_PARAMS_FDK_HALVES                                                                                           \
    TS_PARAM0(unsigned short*, halves) TS_PARAM(const float* __restrict__, q) TS_PARAM(long long, count)               \
    TS_PARAM(float, scale)
