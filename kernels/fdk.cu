// FDK voxel-driven back-projection of a z-slab of a cone-beam volume (docs/cone-beam.md).
//
// The volume is n x n x nz voxels of edge s; voxel (i, j, k) has its centre at
// x = (i - (n-1)/2)·s, y = (j - (n-1)/2)·s, z = (k - (nz-1)/2)·s. A launch adds, into the slab of slices [k0, k0 + slices)
// (slab[(kk·n + j)·n + i], kk = k - k0), the sum over its projections of bilinear(q_p, u, v) / w², where
// [u·w, v·w, w] = P_p·[x, y, z, 1] (3x4, row-major, normalised so that w = 1 at the origin). Each projection of q holds
// the band of detector rows [bandFirst, bandFirst + bandRows), cols pixels a row; pixels beyond the cols x rows
// detector, and rows outside the band, read as zero.
//
// The matrices: c_fdk holds up to FDK_MAX_PROJECTIONS of them in double, those of projections [chunk, chunk + 512); a
// launch takes the np projections from chunk + p0 on: matrices c_fdk[p0 ..], q's projections and the texture's layers
// chunk + p0 ...
//
// Precision: u and v are hundreds of pixels, so a float u carries an error of up to 3e-5 pixel. Each block therefore
// works in a frame of its own: for every projection one thread derives, in double, the block's local matrix L that
// maps voxel offsets from the block's reference voxel to (u - u0, v - v0, w) with (u0, v0) the integer corner of the
// block's footprint on the detector. The float arithmetic then handles values of a few tens of pixels.
//
// Blocks cover whole chunks of slices of the volume (k = Z·c .. Z·c + Z − 1), not of the slab: a block's frame, and so
// every voxel's float arithmetic, is the same whichever slab the voxel's slice falls in. The first and last chunk of a
// slab may reach beyond it; those slices are neither stored nor needed from the band.
//
// Kernels (suffix _mM: at least M blocks an SM, registers capped to fit):
//   fdk_naive                       a thread per voxel, pixels read from global memory (the baseline); any matrix
//   fdk_col_zZ_cC_bB_mM             u and w do not depend on z (a circular trajectory: P[0][2] = P[2][2] = 0): a thread
//                                   per (x, y) column and Z voxels of it sharing u, its weights and 1/w², v stepping
//                                   linearly; C columns a thread; the projections' footprints on the detector are
//                                   copied into shared memory (cp.async, double-buffered, B projections a buffer) and
//                                   interpolated on the ALU: exact float32
//   fdk_gen_zZ_cC_bB_mM             any matrix: u, v and w per voxel from partial sums shared by the Z voxels of a column
//   fdk_hyb_zZ_cC_bB_tT_mM          the column kernel with T projections of every B + T filtered by the texture unit
//                                   (8-bit weights): the texture mode, with its own tolerance
//   fdk_xhyb_zZ_cC_bB_tT_mM         (exploration) the same with the texture share gathered (tld4) and interpolated on
//                                   the ALU: exact
//   fdk_tex_zZ_cC_mM                every projection filtered by the texture unit
//   fdk_gtex_zZ_cC_mM               the same for any matrix
// and the texture mode's half-precision kernels (a trailing parameter scale: FDK_PAIRS in signatures.cuh), whose
// tiles hold pairs of halves (fdk_pairs: a pixel and the one below it, the band times a power of two that keeps it
// within half's range): one 4-byte load per column of the bilinear footprint, the u interpolation of both rows in one
// half2 multiply-add, the v interpolation and the sums in float (2e-4 of double on white noise):
//   fdk_hcol_zZ_cC_bB_mM            the column kernel on half pairs
//   fdk_hgen_zZ_cC_bB_mM            the general kernel on half pairs
//   fdk_hhyb_zZ_cC_bB_tT_mM         hcol with T of every B + T projections filtered by the texture unit (float texture)
//   fdk_hhhyb_zZ_cC_bB_tT_mM        the same from a texture of the scaled band in half precision (fdk_halves)
//   fdk_split_zZ_cC_bB_tT_mM        hhhyb with its two shares on the two halves of the block (the same 32 x 4·C columns):
//                                   the texture mode's column kernel
//   fdk_tsplit_zZ_cC_bB_tT_mM       split with its tiles filled by Hopper's tensor copies (sm_90 on, from a tensor map of
//                                   the pairs): the texture mode's column kernel where the device and module have it
//   fdk_ghyb_zZ_cC_bB_tT_mM,        hgen with a texture share, from the float or the half texture
//   fdk_ghhyb_zZ_cC_bB_tT_mM
//   fdk_htex_zZ_cC_mM,              every projection filtered from the half texture (circular, any matrix)
//   fdk_ghtex_zZ_cC_mM
//   fdk_footprint                   the largest footprint of a column kernel's blocks, to size its tiles
//   fdk_weight                      FDK's cosine and redundancy weights of a band, before the ramp filter (filter.cu)
//   fdk_absmax, fdk_pairs,          the half-precision kernels' inputs: the band's largest |value| (for the scale), its
//   fdk_halves                      pairs, its halves (for the texture)
//
// The tiles are sized by the caller from fdk_footprint (the largest footprint of any block over the launch's
// projections); a footprint larger than cap stops the kernel with a trap (a sticky error), never a wrong sum.
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "fdk.cuh"
#include "signatures.cuh"

__constant__ double c_fdk[FDK_MAX_PROJECTIONS * 12];

// the dynamic shared memory every kernel here carves its tiles from; outside the anonymous namespace so that its
// name (and the PTX) does not depend on the path the file is compiled from
extern __shared__ float4 fdkShared[];

namespace {


constexpr float kMagic = 12582912.0f;  // 1.5·2^23: x + kMagic, rounded down, holds floor(x) in its low bits
constexpr int kMagicBits = 0x4B400000;

// floor(x) as an integer and x - floor(x), for 0 <= x < 2^22 (values relative to a tile's corner): one rounding add.
__device__ __forceinline__ int floorFrac(float x, float& frac) {
    float t = __fadd_rd(x, kMagic);
    frac = x - (t - kMagic);
    return __float_as_int(t) - kMagicBits;
}

// The block's local matrix for projection p, and its footprint: the projections of the 8 corners of the block's voxel
// box [i0, i1] x [j0, j1] x [k0, k1] (a box in front of the source projects inside the hull of its corners' images),
// widened by a pixel on each side for the bilinear neighbour and rounding. cap: the most pixels a tile holds.
// UNROLL corners side by side: the column kernels' views (every block and projection, at each block's start) and the
// footprint kernel that sizes their tiles (the same code, so the same footprints) take FDK_VIEW_UNROLL; the naive kernel
// one at a time (its registers are what bounds it).
#ifndef FDK_VIEW_UNROLL
#define FDK_VIEW_UNROLL 8
#endif
template <int UNROLL>
__device__ void fdkLocal(int p, int n, int nz, double s, int i0, int i1, int j0, int j1, int k0, int k1, int ir, int jr,
                         int kr, int cap, FdkLocal& out) {
    const double* M = c_fdk + p * 12;
    double cxy = 0.5 * (n - 1), cz = 0.5 * (nz - 1);
    double umin = 1e300, umax = -1e300, vmin = 1e300, vmax = -1e300;
    bool front = true;
#pragma unroll UNROLL
    for (int c = 0; c < 8; c++) {
        double x = ((c & 1 ? i1 : i0) - cxy) * s, y = ((c & 2 ? j1 : j0) - cxy) * s, z = ((c & 4 ? k1 : k0) - cz) * s;
        double w = M[8] * x + M[9] * y + M[10] * z + M[11];
        front = front && w > 0;
        double iw = 1.0 / w;
        double u = (M[0] * x + M[1] * y + M[2] * z + M[3]) * iw, v = (M[4] * x + M[5] * y + M[6] * z + M[7]) * iw;
        umin = fmin(umin, u);
        umax = fmax(umax, u);
        vmin = fmin(vmin, v);
        vmax = fmax(vmax, v);
    }
    int u0 = 0, v0 = 0, tw = 0, th = 0;
    if (front && umin > -1e6 && umax < 1e6 && vmin > -1e6 && vmax < 1e6) {
        // whole 16-byte words of a row: u0 and the width multiples of 4; a width of 16k pixels would put the pixels
        // below each other in the same shared-memory bank (4- or 8-byte entries), so it takes 4 more
        u0 = ((int)floor(umin) - 1) & ~3;
        v0 = (int)floor(vmin) - 1;
        tw = ((int)floor(umax) + 6 - u0) & ~3;
        if (tw % 16 == 0) tw += 4;
        th = (int)floor(vmax) + 3 - v0;
        if ((long long)tw * th > cap) tw = th = 0;  // no tile: read from global memory in the same frame
    }
    double x = (ir - cxy) * s, y = (jr - cxy) * s, z = (kr - cz) * s;
    double w = M[8] * x + M[9] * y + M[10] * z + M[11];
    double uw = M[0] * x + M[1] * y + M[2] * z + M[3] - u0 * w, vw = M[4] * x + M[5] * y + M[6] * z + M[7] - v0 * w;
    for (int c = 0; c < 3; c++) {
        out.m[c] = (float)((M[c] - u0 * M[8 + c]) * s);
        out.m[4 + c] = (float)((M[4 + c] - v0 * M[8 + c]) * s);
        out.m[8 + c] = (float)(M[8 + c] * s);
    }
    out.m[3] = (float)uw;
    out.m[7] = (float)vw;
    out.m[11] = (float)w;
    out.u0 = u0;
    out.v0 = v0;
    out.w = tw;
    out.h = th;
}

// A detector pixel of projection p (absolute column and row), zero beyond the detector and outside the band.
__device__ __forceinline__ float fdkPixel(const float* __restrict__ q, int p, int gu, int gv, int cols, int rows, int bandFirst,
                                          int bandRows) {
    int r = gv - bandFirst;
    if (gu < 0 || gu >= cols || gv < 0 || gv >= rows || r < 0 || r >= bandRows) return 0.f;
    return __ldg(q + ((size_t)p * bandRows + r) * cols + gu);
}

// Bilinear sample of projection p at (u0 + ur, v0 + vr) from global memory, with bounds checks.
__device__ __forceinline__ float fdkSampleGlobal(const float* __restrict__ q, int p, const FdkLocal& L, float ur, float vr,
                                                 int cols, int rows, int bandFirst, int bandRows) {
    float fu0 = floorf(ur), fv0 = floorf(vr);
    if (!(fu0 > -1e6f && fu0 < 1e6f && fv0 > -1e6f && fv0 < 1e6f)) return 0.f;
    float fu = ur - fu0, fv = vr - fv0;
    int gu = L.u0 + (int)fu0, gv = L.v0 + (int)fv0;
    float a = fdkPixel(q, p, gu, gv, cols, rows, bandFirst, bandRows), b = fdkPixel(q, p, gu + 1, gv, cols, rows, bandFirst, bandRows);
    float c = fdkPixel(q, p, gu, gv + 1, cols, rows, bandFirst, bandRows);
    float d = fdkPixel(q, p, gu + 1, gv + 1, cols, rows, bandFirst, bandRows);
    float top = fmaf(fu, b - a, a), bottom = fmaf(fu, d - c, c);
    return fmaf(fv, bottom - top, top);
}

// 1/w, within an ulp: the hardware's approximate reciprocal and one Newton step.
__device__ __forceinline__ float recip(float w) {
    float r = __fdividef(1.0f, w);
    return fmaf(r, fmaf(-w, r, 1.0f), r);
}

// cp.async of one 4-byte word into shared memory, zero-filled when !valid.
__device__ __forceinline__ void copyWord(float* dst, const float* src, bool valid) {
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 4 : 0));
}
// cp.async of 16 bytes (both addresses 16-byte aligned), zero-filled when !valid.
__device__ __forceinline__ void copyQuad(float* dst, const float* src, bool valid) {
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void copyCommit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void copyWait() { asm volatile("cp.async.wait_group 0;\n" ::); }

// Where a tile's pixels (4-byte words) come from: projection planes of planeRows rows (detector rows planeFirst on) of
// cols pixels; rows [rlo, rhi) hold data, the others (and pixels beyond a row) read as zero.
struct TileSource {
    const float* q;
    int cols, planeFirst, planeRows, rlo, rhi;
};

// The float band: rows [bandFirst, bandFirst + bandRows) of the cols x rows detector.
__device__ __forceinline__ TileSource bandSource(const float* q, int cols, int rows, int bandFirst, int bandRows) {
    return {q, cols, bandFirst, bandRows, max(0, bandFirst), min(rows, bandFirst + bandRows)};
}

// The half-precision pairs of a band (fdk_pairs): entry rows bandFirst - 1 .. bandFirst + bandRows - 1 of each
// projection, after FDK_PAIR_GUARD rows of zeros and followed by as many.
__device__ __forceinline__ TileSource pairSource(const float* q, int cols, int bandFirst, int bandRows) {
    return {q + (size_t)FDK_PAIR_GUARD * cols, cols, bandFirst - 1, bandRows + 1 + FDK_PAIR_GUARD, bandFirst - 1, bandFirst + bandRows};
}

// Copies Q pixels of a detector row, from column gu on, to dst: the row starts at rowOffset in the plane and holds data
// if rowOk; pixels beyond the detector read as zero. Q = 4: one 16-byte copy (both ends 16-byte aligned), a word at a
// time only where the chunk straddles the detector's edge.
template <int Q>
__device__ __forceinline__ void copyChunk(float* dst, const float* plane, const TileSource& s, bool rowOk, int rowOffset, int gu) {
    if (!rowOk || gu + Q - 1 < 0 || gu >= s.cols) {
        Q == 4 ? copyQuad(dst, s.q, false) : copyWord(dst, s.q, false);
    } else if (gu >= 0 && gu + Q - 1 < s.cols) {
        Q == 4 ? copyQuad(dst, plane + rowOffset + gu, true) : copyWord(dst, plane + rowOffset + gu, true);
    } else {
#pragma unroll
        for (int e = 0; e < Q; e++) {
            bool in = gu + e >= 0 && gu + e < s.cols;
            copyWord(dst + e, in ? plane + rowOffset + gu + e : s.q, in);
        }
    }
}

// Starts copying the footprint of projection p (its local view L) into tile: the tile's chunks of Q words (row-major,
// L.w / Q a row) dealt out to the block's threads in turn, so that every thread copies about as many whatever the
// footprint's shape. A thread keeps its chunk's row and column and steps them by the block's size, without a division.
template <int Q, int THREADS>
__device__ __forceinline__ void fillChunks(float* tile, const FdkLocal& L, const TileSource& s, int p) {
    const int u0 = L.u0, v0 = L.v0, perRow = L.w / Q, chunks = perRow * L.h;
    const float* plane = s.q + (size_t)p * s.planeRows * s.cols;
    const int dr = THREADS / perRow, dc = THREADS - dr * perRow;
    int r = (int)threadIdx.x / perRow, c = (int)threadIdx.x - r * perRow;
    for (int k = threadIdx.x; k < chunks; k += THREADS) {
        int gv = v0 + r;
        bool rowOk = gv >= s.rlo && gv < s.rhi;
        copyChunk<Q>(tile + Q * k, plane, s, rowOk, rowOk ? (gv - s.planeFirst) * s.cols : 0, u0 + Q * c);
        r += dr;
        c += dc;
        if (c >= perRow) {
            c -= perRow;
            r++;
        }
    }
}

// Starts copying the footprint of projection p into tile: rows of a multiple of 4 pixels start on 16-byte boundaries
// (u0 and the width are multiples of 4), so 16-byte copies unless the detector's rows are not.
// THREADS: the threads 0 .. THREADS - 1 that copy it.
template <int THREADS = FDK_THREADS>
__device__ __forceinline__ void fillTile(float* tile, const FdkLocal& L, const TileSource& s, int p) {
    if ((s.cols & 3) == 0)
        fillChunks<4, THREADS>(tile, L, s, p);
    else
        fillChunks<1, THREADS>(tile, L, s, p);
}

// Voxel offsets of this thread's columns from the block's reference voxel, and the reference voxel, for the column
// kernels' block of 32 x TY·C columns and Z slices (TY = FDK_TILE_Y: the block's 8 warps cover 32 x 8 columns; TY = 4:
// its two halves cover the same 32 x 4, see splitKernel).
template <int C, int Z, int TY = FDK_TILE_Y>
struct ColumnBlock {
    int i, j;   // this thread's first column (voxel indices)
    int ir, jr, kr, kb;  // reference voxel (volume indices) and the block's first slice, from the slab's (may be < 0)
    float di, dj, dk;    // offsets of the first column and slice from the reference voxel
    __device__ ColumnBlock(int k0) {
        int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        int tx = (warp & 3) * 8 + (lane & 7), ty = (TY == 8 ? (warp >> 2) * 4 : 0) + (lane >> 3);
        int bi = blockIdx.x * FDK_TILE_X, bj = blockIdx.y * TY * C;
        kb = blockIdx.z * Z - k0 % Z;
        i = bi + tx;
        j = bj + ty;
        ir = bi + FDK_TILE_X / 2;
        jr = bj + TY * C / 2;
        kr = k0 + kb + Z / 2;
        di = (float)(i - ir);
        dj = (float)(j - jr);
        dk = (float)(k0 + kb - kr);
    }
};

// The local views of projections [p0, p0 + np) for this block, into table (one thread a projection).
template <int C, int Z, int TY>
__device__ void localViews(FdkLocal* table, const ColumnBlock<C, Z, TY>& cb, int p0, int np, int n, int nz, int k0, double s,
                           int cap) {
    int bi = blockIdx.x * FDK_TILE_X, bj = blockIdx.y * TY * C, kk = k0 + cb.kb;
    for (int t = threadIdx.x; t < np; t += FDK_THREADS)
        fdkLocal<FDK_VIEW_UNROLL>(p0 + t, n, nz, s, bi, bi + FDK_TILE_X - 1, bj, bj + TY * C - 1, kk, kk + Z - 1, cb.ir,
                                  cb.jr, cb.kr, cap, table[t]);
}

// How the texture share of a batch is read: filtered by the hardware (8-bit weights) or gathered (the 4 texels of the
// bilinear footprint, tld4) and interpolated on the ALU (exact); TEX_HALF: filtered from a texture of the scaled band in
// half precision (the pair kernels' scale).
enum TexMode { TEX_FILTERED = 1, TEX_GATHER = 2, TEX_HALF = 3 };

// The four texels around (x, y) of layer l: for x = iu + 1, y = iv + 1 the pixels (iu, iv + 1), (iu + 1, iv + 1),
// (iu + 1, iv), (iu, iv) in that order (tld4's order).
__device__ __forceinline__ float4 gatherLayered(cudaTextureObject_t t, float x, float y, int l) {
    float4 r;
    asm volatile("tld4.r.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                 : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
                 : "l"(t), "r"(l), "f"(x), "f"(y));
    return r;
}

// The dynamic shared memory of every FDK kernel: the launch's local views, then the tiles. Tiles are addressed by
// byte offset from its start, so that a pixel's address is one multiply-add of the row's float bits (floorBits) and
// a per-column constant.

// A word of shared memory at a 32-bit shared-window address (and at 4 bytes beyond it): a float, or a pair of halves.
// Written as loads of the window so that a pixel's address stays one multiply-add; volatile keeps them after the
// barrier that fills the tile.
__device__ __forceinline__ unsigned ldsWord(unsigned addr) {
    unsigned v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}
__device__ __forceinline__ unsigned ldsWordNext(unsigned addr) {
    unsigned v;
    asm volatile("ld.shared.b32 %0, [%1+4];" : "=r"(v) : "r"(addr));
    return v;
}
__device__ __forceinline__ float lds(unsigned addr) { return __uint_as_float(ldsWord(addr)); }
__device__ __forceinline__ float ldsNext(unsigned addr) { return __uint_as_float(ldsWordNext(addr)); }

// The shared-window address of byte offset b of the dynamic shared memory, opaque to the compiler so that the sums
// folded into it are not re-associated into the per-pixel arithmetic.
__device__ __forceinline__ unsigned sharedAddress(unsigned b) {
    unsigned a = (unsigned)__cvta_generic_to_shared(fdkShared) + b, r;
    asm("mov.u32 %0, %1;" : "=r"(r) : "r"(a));
    return r;
}

// The four pixels around the tile position whose row's float bits are vbits (floorBits), for a column whose
// constant part is col (sharedAddress of the tile plus 4·iu less kMagicBits·rowBytes); bilinear in (fu, fv).
__device__ __forceinline__ float bilinear(unsigned col, unsigned vbits, unsigned rowBytes, float fu, float fv) {
    unsigned a0 = vbits * rowBytes + col, a1 = a0 + rowBytes;
    float a = lds(a0), b = ldsNext(a0), c = lds(a1), d = ldsNext(a1);
    float top = fmaf(fu, b - a, a), bottom = fmaf(fu, d - c, c);
    return fmaf(fv, bottom - top, top);
}

// floor(x) (as the float bits of x + kMagic rounded down) and x - floor(x), for 0 <= x < 2^22.
__device__ __forceinline__ unsigned floorBits(float x, float& frac) {
    float t = __fadd_rd(x, kMagic);
    frac = x - (t - kMagic);
    return __float_as_uint(t);
}

// Half-precision arithmetic on words of two halves (low, high).
__device__ __forceinline__ unsigned hsub2(unsigned a, unsigned b) {
    unsigned r;
    asm("sub.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
__device__ __forceinline__ unsigned hfma2(unsigned a, unsigned b, unsigned c) {
    unsigned r;
    asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
// x rounded to half, in both halves
__device__ __forceinline__ unsigned hsplat(float x) {
    unsigned r;
    asm("{.reg .f16 h;\n cvt.rn.f16.f32 h, %1;\n mov.b32 %0, {h, h};}" : "=r"(r) : "f"(x));
    return r;
}
__device__ __forceinline__ float2 hwiden(unsigned a) {
    float2 r;
    asm("{.reg .f16 l, h;\n mov.b32 {l, h}, %2;\n cvt.f32.f16 %0, l;\n cvt.f32.f16 %1, h;}" : "=f"(r.x), "=f"(r.y) : "r"(a));
    return r;
}

// Bilinear from a tile of half pairs (fdk_pairs: a word a pixel, holding it and the pixel below): the column's pair and
// the next column's, interpolated in u as a pair (fu2: the column weight in both halves), then in v in float.
__device__ __forceinline__ float pairBilinear(unsigned col, unsigned vbits, unsigned rowBytes, unsigned fu2, float fv) {
    unsigned a0 = vbits * rowBytes + col;
    unsigned ac = ldsWord(a0), bd = ldsWordNext(a0);
    float2 f = hwiden(hfma2(fu2, hsub2(bd, ac), ac));
    return fmaf(fv, f.y - f.x, f.x);
}

// Adds projection p's contribution, from its shared-memory tile at byte offset tileBytes (floats, or half pairs: PAIRS),
// to the C x Z voxels of this thread (u and w constant down a column, v stepping linearly).
template <int C, int Z, bool PAIRS, int TY>
__device__ __forceinline__ void columnsFromTile(float (&acc)[C][Z], unsigned tileBytes, const FdkLocal& view,
                                                const ColumnBlock<C, Z, TY>& cb) {
    const FdkLocal L = view;  // in registers: the tile's loads below are asm the compiler cannot see through
    const unsigned rowBytes = 4u * L.w, magicRows = (unsigned)kMagicBits * rowBytes + 4u * (unsigned)kMagicBits;
#pragma unroll
    for (int c = 0; c < C; c++) {
        float dj = cb.dj + c * TY;
        float w = fmaf(L.m[8], cb.di, fmaf(L.m[9], dj, L.m[11]));
        float nu = fmaf(L.m[0], cb.di, fmaf(L.m[1], dj, L.m[3]));
        float nv = fmaf(L.m[4], cb.di, fmaf(L.m[5], dj, fmaf(L.m[6], cb.dk, L.m[7])));
        float iw = recip(w), w2 = iw * iw;
        float u = nu * iw, v0 = nv * iw, dv = L.m[6] * iw;
        float fu;
        unsigned col = sharedAddress(tileBytes + 4u * floorBits(u, fu) - magicRows), fu2 = PAIRS ? hsplat(fu) : 0u;
#pragma unroll
        for (int z = 0; z < Z; z++) {
            float fv;
            unsigned vbits = floorBits(fmaf((float)z, dv, v0), fv);
            float sample = PAIRS ? pairBilinear(col, vbits, rowBytes, fu2, fv) : bilinear(col, vbits, rowBytes, fu, fv);
            acc[c][z] = fmaf(sample, w2, acc[c][z]);
        }
    }
}

// The same for any matrix: u, v and w per voxel (their numerators step linearly down the column).
template <int C, int Z, bool PAIRS>
__device__ __forceinline__ void generalFromTile(float (&acc)[C][Z], unsigned tileBytes, const FdkLocal& view, const ColumnBlock<C, Z>& cb) {
    const FdkLocal L = view;  // in registers: the tile's loads below are asm the compiler cannot see through
    const unsigned rowBytes = 4u * L.w;
    const unsigned base = sharedAddress(tileBytes - (unsigned)kMagicBits * rowBytes - 4u * (unsigned)kMagicBits);
#pragma unroll
    for (int c = 0; c < C; c++) {
        float dj = cb.dj + c * FDK_TILE_Y;
        float w0 = fmaf(L.m[8], cb.di, fmaf(L.m[9], dj, fmaf(L.m[10], cb.dk, L.m[11])));
        float nu0 = fmaf(L.m[0], cb.di, fmaf(L.m[1], dj, fmaf(L.m[2], cb.dk, L.m[3])));
        float nv0 = fmaf(L.m[4], cb.di, fmaf(L.m[5], dj, fmaf(L.m[6], cb.dk, L.m[7])));
#pragma unroll
        for (int z = 0; z < Z; z++) {
            float w = fmaf((float)z, L.m[10], w0), nu = fmaf((float)z, L.m[2], nu0), nv = fmaf((float)z, L.m[6], nv0);
            float iw = recip(w), fu, fv;
            unsigned ubits = floorBits(nu * iw, fu), vbits = floorBits(nv * iw, fv);
            float sample = PAIRS ? pairBilinear(base + 4u * ubits, vbits, rowBytes, hsplat(fu), fv)
                                 : bilinear(base + 4u * ubits, vbits, rowBytes, fu, fv);
            acc[c][z] = fmaf(sample, iw * iw, acc[c][z]);
        }
    }
}

// Projection p through the texture unit (layers are projections, rows the band): filtered, or gathered and
// interpolated on the ALU.
// ws: a factor on the weights (the half-precision tiles' scale, so that both shares add in the same units).
template <int C, int Z, int MODE, int TY>
__device__ __forceinline__ void columnsFromTexture(float (&acc)[C][Z], cudaTextureObject_t tex, int p, const FdkLocal& L,
                                                   const ColumnBlock<C, Z, TY>& cb, int bandFirst, float ws) {
#pragma unroll
    for (int c = 0; c < C; c++) {
        float dj = cb.dj + c * TY;
        float w = fmaf(L.m[8], cb.di, fmaf(L.m[9], dj, L.m[11]));
        float nu = fmaf(L.m[0], cb.di, fmaf(L.m[1], dj, L.m[3]));
        float nv = fmaf(L.m[4], cb.di, fmaf(L.m[5], dj, fmaf(L.m[6], cb.dk, L.m[7])));
        if (MODE != TEX_GATHER) {
            float iw = __fdividef(1.0f, w), w2 = iw * iw * ws;
            float u = fmaf(nu, iw, L.u0 + 0.5f), v0 = fmaf(nv, iw, (float)(L.v0 - bandFirst) + 0.5f), dv = L.m[6] * iw;
#pragma unroll
            for (int z = 0; z < Z; z++) acc[c][z] = fmaf(tex2DLayered<float>(tex, u, fmaf((float)z, dv, v0), p), w2, acc[c][z]);
        } else {
            float iw = recip(w), w2 = iw * iw * ws;
            float u = nu * iw, v0 = nv * iw, dv = L.m[6] * iw, fu;
            float x = (float)(floorFrac(u, fu) + L.u0 + 1), oy = (float)(L.v0 - bandFirst + 1) - kMagic;
#pragma unroll
            for (int z = 0; z < Z; z++) {
                float v = fmaf((float)z, dv, v0);
                float t = __fadd_rd(v, kMagic), fv = v - (t - kMagic);
                float4 g = gatherLayered(tex, x, t + oy, p);
                float top = fmaf(fu, g.z - g.w, g.w), bottom = fmaf(fu, g.y - g.x, g.x);
                acc[c][z] = fmaf(fmaf(fv, bottom - top, top), w2, acc[c][z]);
            }
        }
    }
}

// Any matrix through the texture unit: u, v and w per voxel.
template <int C, int Z>
__device__ __forceinline__ void generalFromTexture(float (&acc)[C][Z], cudaTextureObject_t tex, int p, const FdkLocal& L,
                                                   const ColumnBlock<C, Z>& cb, int bandFirst, float ws) {
    const float ou = L.u0 + 0.5f, ov = (float)(L.v0 - bandFirst) + 0.5f;
#pragma unroll
    for (int c = 0; c < C; c++) {
        float dj = cb.dj + c * FDK_TILE_Y;
        float w0 = fmaf(L.m[8], cb.di, fmaf(L.m[9], dj, fmaf(L.m[10], cb.dk, L.m[11])));
        float nu0 = fmaf(L.m[0], cb.di, fmaf(L.m[1], dj, fmaf(L.m[2], cb.dk, L.m[3])));
        float nv0 = fmaf(L.m[4], cb.di, fmaf(L.m[5], dj, fmaf(L.m[6], cb.dk, L.m[7])));
#pragma unroll
        for (int z = 0; z < Z; z++) {
            float w = fmaf((float)z, L.m[10], w0), nu = fmaf((float)z, L.m[2], nu0), nv = fmaf((float)z, L.m[6], nv0);
            float iw = __fdividef(1.0f, w);
            acc[c][z] = fmaf(tex2DLayered<float>(tex, fmaf(nu, iw, ou), fmaf(nv, iw, ov), p), iw * iw * ws, acc[c][z]);
        }
    }
}

template <int C, int Z, int TY>
__device__ __forceinline__ void storeColumns(const float (&acc)[C][Z], float* slab, const ColumnBlock<C, Z, TY>& cb, int n,
                                             int slices, float factor) {
    if (cb.i >= n) return;
#pragma unroll
    for (int c = 0; c < C; c++) {
        int j = cb.j + c * TY;
        if (j >= n) continue;
#pragma unroll
        for (int z = 0; z < Z; z++) {
            int kk = cb.kb + z;
            if (kk >= 0 && kk < slices) slab[((size_t)kk * n + j) * n + cb.i] += acc[c][z] * factor;
        }
    }
}

template <int C, int Z>
__device__ __forceinline__ void clearSums(float (&acc)[C][Z]) {
#pragma unroll
    for (int c = 0; c < C; c++)
#pragma unroll
        for (int z = 0; z < Z; z++) acc[c][z] = 0.f;
}

// The column kernels: B projections of every batch from shared-memory tiles, T through the texture. Tiles of the float
// band q, or (PAIRS) q holds the band's half pairs (fdk_pairs) times scale: the texture's share is then weighted by
// scale too (unless it holds the scaled band itself, TEX_HALF), and the sums divided by it at the end. Dynamic shared
// memory: the local views of the launch's np projections, then two buffers of B tiles of cap words each.
template <int Z, int C, int B, int T, int MODE, bool GENERAL, bool PAIRS>
__device__ void columnKernel(const float* __restrict__ q, cudaTextureObject_t tex, float* __restrict__ slab, int n, int nz, int k0,
                             int slices, double voxel, int cols, int rows, int bandFirst, int bandRows, int chunk, int p0, int np,
                             int cap, float scale) {
    FdkLocal* table = reinterpret_cast<FdkLocal*>(fdkShared);
    float* tiles = reinterpret_cast<float*>(table + np);
    const unsigned tilesBytes = (unsigned)(np * sizeof(FdkLocal));
    const TileSource src = PAIRS ? pairSource(q, cols, bandFirst, bandRows) : bandSource(q, cols, rows, bandFirst, bandRows);
    ColumnBlock<C, Z> cb(k0);
    localViews(table, cb, p0, np, n, nz, k0, voxel, cap);
    float acc[C][Z];
    clearSums(acc);
    __syncthreads();
    constexpr int PER = B + T;
    int batches = (np + PER - 1) / PER;
    auto fill = [&](int b) {
        float* buf = tiles + (size_t)(b & 1) * B * cap;
        for (int t = 0; t < B; t++) {
            int p = b * PER + t;
            if (p < np && table[p].w > 0) fillTile(buf + (size_t)t * cap, table[p], src, chunk + p0 + p);
        }
        copyCommit();
    };
    if (B > 0) {
        fill(0);
        copyWait();
        __syncthreads();
    }
    const float ws = PAIRS && MODE != TEX_HALF ? scale : 1.0f;
    for (int b = 0; b < batches; b++) {
        if (B > 0 && b + 1 < batches) fill(b + 1);
        const unsigned buf = tilesBytes + 4u * (unsigned)((b & 1) * B * cap);
#pragma unroll 1
        for (int t = 0; t < B; t++) {
            int p = b * PER + t;
            if (p >= np) break;
            const FdkLocal& L = table[p];
            if (L.w == 0) __trap();  // the caller sizes cap from fdk_footprint: never
            const unsigned tile = buf + 4u * (unsigned)(t * cap);
            if (GENERAL)
                generalFromTile<C, Z, PAIRS>(acc, tile, L, cb);
            else
                columnsFromTile<C, Z, PAIRS>(acc, tile, L, cb);
        }
#pragma unroll 1
        for (int t = B; t < PER; t++) {
            int p = b * PER + t;
            if (p >= np) break;
            if (GENERAL)
                generalFromTexture<C, Z>(acc, tex, chunk + p0 + p, table[p], cb, bandFirst, ws);
            else
                columnsFromTexture<C, Z, MODE>(acc, tex, chunk + p0 + p, table[p], cb, bandFirst, ws);
        }
        if (B > 0) {
            copyWait();
            __syncthreads();
        }
    }
    storeColumns(acc, slab, cb, n, slices, PAIRS ? 1.0f / scale : 1.0f);
}

// The split kernels' texture half: of every B + T projections of the launch's np (band projections chunk + p0 on), the
// last T filtered through the half-precision texture.
template <int Z, int C, int B, int T>
__device__ __forceinline__ void splitTextureShare(float (&acc)[C][Z], cudaTextureObject_t tex, const FdkLocal* table,
                                                  const ColumnBlock<C, Z, FDK_SPLIT_TILE_Y>& cb, int chunk, int p0, int np, int bandFirst) {
    constexpr int PER = B + T;
#pragma unroll 1
    for (int p = B; p < np; p += p % PER == PER - 1 ? B + 1 : 1)
        columnsFromTexture<C, Z, TEX_HALF>(acc, tex, chunk + p0 + p, table[p], cb, bandFirst, 1.0f);
}

// The end of a split kernel, once every thread is past its share and the tiles are free (at least 128·C·Z words at
// sums): the texture half's sums (texHalf: this thread's half) are added to the tile half's through shared memory, and
// the tile half stores them.
template <int C, int Z>
__device__ __forceinline__ void joinSplitHalves(float (&acc)[C][Z], bool texHalf, float* sums, float* slab,
                                                const ColumnBlock<C, Z, FDK_SPLIT_TILE_Y>& cb, int n, int slices, float scale) {
    constexpr int HALF = FDK_THREADS / 2;
    float* mine = sums + (threadIdx.x & (HALF - 1));
    if (texHalf) {
#pragma unroll
        for (int c = 0; c < C; c++)
#pragma unroll
            for (int z = 0; z < Z; z++) mine[(c * Z + z) * HALF] = acc[c][z];
    }
    __syncthreads();
    if (!texHalf) {
#pragma unroll
        for (int c = 0; c < C; c++)
#pragma unroll
            for (int z = 0; z < Z; z++) acc[c][z] += mine[(c * Z + z) * HALF];
        storeColumns(acc, slab, cb, n, slices, 1.0f / scale);
    }
}

// The texture mode's hybrid with its two shares on different warps: the block's first four warps interpolate B
// projections of every B + T from shared-memory tiles of half pairs (double-buffered, synchronised among themselves by
// barrier 1), the last four filter the other T through the half-precision texture. Both halves hold the same
// 32 x 4·C columns of Z slices, so that the texture unit and the shared-memory loads are busy at once, not in turns as
// when every warp takes both shares. At the end the texture half's sums are added through shared memory (the tiles'
// space: at least 128·C·Z words) and the first half stores them.
template <int Z, int C, int B, int T>
__device__ void splitKernel(const float* __restrict__ q, cudaTextureObject_t tex, float* __restrict__ slab, int n, int nz, int k0,
                            int slices, double voxel, int cols, int bandFirst, int bandRows, int chunk, int p0, int np, int cap,
                            float scale) {
    constexpr int HALF = FDK_THREADS / 2, PER = B + T;
    FdkLocal* table = reinterpret_cast<FdkLocal*>(fdkShared);
    float* tiles = reinterpret_cast<float*>(table + np);
    const unsigned tilesBytes = (unsigned)(np * sizeof(FdkLocal));
    ColumnBlock<C, Z, FDK_SPLIT_TILE_Y> cb(k0);
    localViews(table, cb, p0, np, n, nz, k0, voxel, cap);
    float acc[C][Z];
    clearSums(acc);
    __syncthreads();
    const bool texHalf = threadIdx.x >= HALF;
    if (!texHalf) {
        const TileSource src = pairSource(q, cols, bandFirst, bandRows);
        auto proj = [](int k) { return k / B * PER + k % B; };  // the k-th tile projection
        const int count = np / PER * B + min(B, np % PER);
        auto fill = [&](int k) {
            const FdkLocal& L = table[proj(k)];
            if (L.w > 0) fillTile<HALF>(tiles + (size_t)(k & 1) * cap, L, src, chunk + p0 + proj(k));
            copyCommit();
        };
        if (count > 0) {
            fill(0);
            copyWait();
            asm volatile("bar.sync 1, %0;" ::"n"(HALF));
        }
#pragma unroll 1
        for (int k = 0; k < count; k++) {
            if (k + 1 < count) fill(k + 1);
            const FdkLocal& L = table[proj(k)];
            if (L.w == 0) __trap();  // the caller sizes cap from fdk_footprint: never
            columnsFromTile<C, Z, true>(acc, tilesBytes + 4u * (unsigned)((k & 1) * cap), L, cb);
            copyWait();
            asm volatile("bar.sync 1, %0;" ::"n"(HALF));
        }
    } else {
        splitTextureShare<Z, C, B, T>(acc, tex, table, cb, chunk, p0, np, bandFirst);
    }
    __syncthreads();  // the tiles are free: the texture half's sums go there
    joinSplitHalves(acc, texHalf, tiles, slab, cb, n, slices, scale);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
// Hopper's tensor copies (TMA, sm_90 on): a box of a tensor in global memory copied into shared memory by the copy
// engine, completing on an mbarrier (a shared-memory word counting arrivals and the bytes still to come).
__device__ __forceinline__ void mbarrierInit(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbarrierInitFence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
// arrives, and expects `bytes` more to complete the phase
__device__ __forceinline__ void mbarrierExpect(unsigned bar, unsigned bytes) {
    asm volatile("{.reg .b64 state;\n mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;}" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbarrierWait(unsigned bar, unsigned parity) {
    asm volatile("{.reg .pred done;\nWAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra WAIT_%=;}" ::"r"(bar),
                 "r"(parity) : "memory");
}
// the box of `map` whose first element is (x, y), to shared-memory address dst, completing on bar
__device__ __forceinline__ void tensorBox(unsigned dst, const CUtensorMap* map, int x, int y, unsigned bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"((unsigned long long)map), "r"(x), "r"(y), "r"(bar) : "memory");
}

// The split kernel (splitKernel) with its tiles filled by tensor copies: map is the band's pairs (fdk_pairs, guard rows
// included) as a tensor of cols x rows words with boxes of bw x FDK_PAIR_GUARD words. One thread issues a tile's boxes
// (its footprint's height in boxes) one tile ahead; the tile half waits on the tile's mbarrier, so that its warps spend
// nothing on the copy. A tile's rows lie bw words apart (bw: at least the launch's widest footprint, a multiple of 4).
// A box that reaches past a projection's entries by up to 7 rows reads the guard rows' zeros; one wholly above or below
// them copies the guard rows next to them. The copy engine then never fills rows outside the tensor, which on the H200
// made the blocks at the volume's top and bottom, whose footprints leave the detector, much slower (and one zero region
// for every block's outside boxes, read by all SMs at once, slower still). Columns beyond the detector's are filled
// with zeros by the copy engine. Dynamic shared memory: the views, then (from a 128-byte boundary) two tiles of
// bw x FDK_PAIR_GUARD·boxes words.
template <int Z, int C, int B, int T>
__device__ void tensorSplit(const CUtensorMap* map, cudaTextureObject_t tex, float* __restrict__ slab, int n, int nz, int k0,
                            int slices, double voxel, int bandFirst, int bandRows, int chunk, int p0, int np, int bw, int boxes,
                            float scale) {
    constexpr int HALF = FDK_THREADS / 2, PER = B + T, BOX_ROWS = FDK_PAIR_GUARD;
    __shared__ __align__(8) unsigned long long bars[2];
    FdkLocal* table = reinterpret_cast<FdkLocal*>(fdkShared);
    const unsigned base = (unsigned)__cvta_generic_to_shared(fdkShared);
    const unsigned tilesBytes = ((base + (unsigned)(np * sizeof(FdkLocal)) + (FDK_TENSOR_ALIGNMENT - 1u)) & ~(FDK_TENSOR_ALIGNMENT - 1u)) - base;
    float* tiles = reinterpret_cast<float*>(reinterpret_cast<char*>(fdkShared) + tilesBytes);
    const unsigned bar0 = (unsigned)__cvta_generic_to_shared(bars);
    const int cap = bw * BOX_ROWS * boxes;
    if (threadIdx.x == 0) {
        mbarrierInit(bar0, 1);
        mbarrierInit(bar0 + 8, 1);
        mbarrierInitFence();
    }
    ColumnBlock<C, Z, FDK_SPLIT_TILE_Y> cb(k0);
    localViews(table, cb, p0, np, n, nz, k0, voxel, 1 << 30);
    float acc[C][Z];
    clearSums(acc);
    __syncthreads();
    const bool texHalf = threadIdx.x >= HALF;
    if (!texHalf) {
        auto proj = [](int k) { return k / B * PER + k % B; };  // the k-th tile projection
        const int count = np / PER * B + min(B, np % PER), planeRows = bandRows + 1 + FDK_PAIR_GUARD;
        const unsigned boxBytes = 4u * (unsigned)(bw * BOX_ROWS);
        auto fill = [&](int k) {
            if (threadIdx.x != 0) return;
            const FdkLocal& L = table[proj(k)];
            const int nb = (L.h + BOX_ROWS - 1) / BOX_ROWS;
            if (L.w == 0 || L.w > bw || nb > boxes) __trap();  // the caller sizes bw and boxes from fdk_footprint: never
            const unsigned bar = bar0 + 8u * (k & 1), dst = base + tilesBytes + 4u * (unsigned)((k & 1) * cap);
            const int plane = FDK_PAIR_GUARD + (chunk + p0 + proj(k)) * planeRows;
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            mbarrierExpect(bar, boxBytes * nb);
            for (int b = 0; b < nb; b++) {
                // the box's first entry row of the projection; a box wholly above or below the entries reads the guard
                // rows just before or after them
                const int e = L.v0 - (bandFirst - 1) + b * BOX_ROWS;
                const int y = e + BOX_ROWS <= 0 ? -FDK_PAIR_GUARD : e > bandRows ? bandRows + 1 : e;
                tensorBox(dst + boxBytes * b, map, L.u0, plane + y, bar);
            }
        };
        if (count > 0) fill(0);
#pragma unroll 1
        for (int k = 0; k < count; k++) {
            if (k + 1 < count) fill(k + 1);
            FdkLocal L = table[proj(k)];
            L.w = bw;
            mbarrierWait(bar0 + 8u * (k & 1), (unsigned)(k >> 1) & 1u);
            columnsFromTile<C, Z, true>(acc, tilesBytes + 4u * (unsigned)((k & 1) * cap), L, cb);
            asm volatile("bar.sync 1, %0;" ::"n"(HALF));  // the buffer is free for the tile after next
        }
    } else {
        splitTextureShare<Z, C, B, T>(acc, tex, table, cb, chunk, p0, np, bandFirst);
    }
    __syncthreads();
    joinSplitHalves(acc, texHalf, tiles, slab, cb, n, slices, scale);
}
#endif

}  // namespace

// The baseline: a thread per voxel (8 x 4 x 8 voxels a block, a warp per 8 x 4 of one slice: a small block keeps the
// offsets from its reference voxel, and so the float error of u and v, small), every pixel read from global memory with
// bounds checks. Dynamic shared memory: the local views of the launch's np projections.
extern "C" __global__ void __launch_bounds__(FDK_THREADS)
FDK_NAME_NAIVE(TS_PARAMS_FDK) {
    FdkLocal* table = reinterpret_cast<FdkLocal*>(fdkShared);
    int bi = blockIdx.x * FDK_NAIVE_X, bj = blockIdx.y * FDK_NAIVE_Y, bk = blockIdx.z * FDK_NAIVE_Z - k0 % FDK_NAIVE_Z;
    int ir = bi + FDK_NAIVE_X / 2, jr = bj + FDK_NAIVE_Y / 2, kr = k0 + bk + FDK_NAIVE_Z / 2;
    for (int t = threadIdx.x; t < np; t += FDK_THREADS)
        fdkLocal<1>(p0 + t, n, nz, voxel, bi, bi + FDK_NAIVE_X - 1, bj, bj + FDK_NAIVE_Y - 1, k0 + bk, k0 + bk + FDK_NAIVE_Z - 1, ir, jr,
                 kr, 0, table[t]);
    __syncthreads();
    int i = bi + threadIdx.x % FDK_NAIVE_X, j = bj + threadIdx.x / FDK_NAIVE_X % FDK_NAIVE_Y;
    int kk = bk + threadIdx.x / (FDK_NAIVE_X * FDK_NAIVE_Y);
    float di = (float)(i - ir), dj = (float)(j - jr), dk = (float)(k0 + kk - kr), acc = 0.f;
    for (int p = 0; p < np; p++) {
        const FdkLocal& L = table[p];
        float w = fmaf(L.m[8], di, fmaf(L.m[9], dj, fmaf(L.m[10], dk, L.m[11])));
        float nu = fmaf(L.m[0], di, fmaf(L.m[1], dj, fmaf(L.m[2], dk, L.m[3])));
        float nv = fmaf(L.m[4], di, fmaf(L.m[5], dj, fmaf(L.m[6], dk, L.m[7])));
        float iw = 1.0f / w;
        acc = fmaf(fdkSampleGlobal(q, chunk + p0 + p, L, nu / w, nv / w, cols, rows, bandFirst, bandRows), iw * iw, acc);
    }
    if (i < n && j < n && kk >= 0 && kk < slices) slab[((size_t)kk * n + j) * n + i] += acc;
}

// The largest footprint (pixels) of any block of tileX x tileY columns and tileZ slices of the slab over projections
// [p0, p0 + np), atomically into result[0], and 1 into result[1] if some block has none (a corner behind the source, or
// a footprint millions of pixels off the detector), the widest and the tallest footprint into result[2] and result[3];
// result zeroed by the caller. Sizes the column kernels' tiles. A thread per (block, projection).
// ends (matrices whose u and w do not depend on z): only the blocks of the slab's first and last chunk of slices, each
// footprint a row taller. A block's footprint then has the same width whatever its chunk, and its height spans
// floor(vmax) - floor(vmin) rows, where vmax - vmin (the v extent of the block's corners, each v linear in z) is a convex
// function of the chunk's position: largest at an end chunk, so an inner chunk's floors span at most one row more.
extern "C" __global__ void TS_KERNEL(FDK_FOOTPRINT) {
    // the column kernels' blocks: whole chunks of tileZ slices of the volume (see the top of this file)
    int kfirst = k0 - k0 % tileZ;
    long long bx = (n + tileX - 1) / tileX, by = (n + tileY - 1) / tileY, bz = (k0 + slices - kfirst + tileZ - 1) / tileZ;
    long long chunks = ends ? min(bz, 2LL) : bz, blocks = bx * by * chunks, total = blocks * np;
    const int extraRow = ends ? 1 : 0;
    int largest = 0, widest = 0, tallest = 0;
    bool missing = false;
    // neighbouring threads take neighbouring blocks of one projection: a warp's matrix reads from constant memory are
    // then one address (a broadcast), not 32 served one after another
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
        int p = (int)(t / blocks);
        long long b = t % blocks;
        long long c = b / bx / by;
        int i0 = (int)(b % bx) * tileX, j0 = (int)(b / bx % by) * tileY, kk = kfirst + (int)(ends && c == 1 ? bz - 1 : c) * tileZ;
        FdkLocal L;
        fdkLocal<FDK_VIEW_UNROLL>(p0 + p, n, nz, voxel, i0, i0 + tileX - 1, j0, j0 + tileY - 1, kk, kk + tileZ - 1, i0, j0, kk,
                                  0x7fffffff, L);
        missing |= L.w == 0;
        largest = max(largest, (int)min((long long)L.w * (L.h + extraRow), 0x7fffffffLL));
        widest = max(widest, L.w);
        tallest = max(tallest, L.h + extraRow);
    }
    // one atomic a warp: millions on one address would serialise in L2
    largest = __reduce_max_sync(0xffffffffu, largest);
    widest = __reduce_max_sync(0xffffffffu, widest);
    tallest = __reduce_max_sync(0xffffffffu, tallest);
    missing = __any_sync(0xffffffffu, missing);
    if ((threadIdx.x & 31) == 0) {
        atomicMax(result, largest);
        if (missing) atomicOr(result + 1, 1);
        atomicMax(result + 2, widest);
        atomicMax(result + 3, tallest);
    }
}

// FDK's weights of a band before its ramp filter (org.tomospark.executor.filter.FdkFilter), in place: pixel (c, r) of
// projection p times the cosine weight DSD / sqrt(DSD² + u_mm² + v_mm²) of detector row bandFirst + r and times uw[p·cols +
// c] (the angular step and the redundancy weight). In double with every operation rounded as written, as the Java
// filter computes it, so that both give the same floats. pixels = projections · bandRows · cols; a grid-stride loop.
extern "C" __global__ void TS_KERNEL(FDK_WEIGHT) {
    double dsd2 = __dmul_rn(dsd, dsd);
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < pixels; t += (long long)gridDim.x * blockDim.x) {
        int c = (int)(t % cols);
        long long pr = t / cols;
        int r = (int)(pr % bandRows);
        long long p = pr / bandRows;
        double um = __dmul_rn(__dsub_rn((double)c, cu), du), vm = __dmul_rn(__dsub_rn((double)(bandFirst + r), cv), dv);
        double cosw = __ddiv_rn(dsd, __dsqrt_rn(__dadd_rn(__dadd_rn(dsd2, __dmul_rn(um, um)), __dmul_rn(vm, vm))));
        q[t] = (float)__dmul_rn(__dmul_rn((double)q[t], cosw), __ldg(uw + p * cols + c));
    }
}

// The largest |value| of a band, as float bits (non-negative floats order as their bits), atomically into result[0]
// (zeroed by the caller): sizes the scale of fdk_pairs. A grid-stride loop.
extern "C" __global__ void TS_KERNEL(FDK_ABSMAX) {
    unsigned largest = 0;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < count; t += (long long)gridDim.x * blockDim.x)
        largest = max(largest, __float_as_uint(fabsf(q[t])));
    largest = __reduce_max_sync(0xffffffffu, largest);
    if ((threadIdx.x & 31) == 0) atomicMax(result, largest);
}

// The half-precision pairs of a band, the tiles of the FDK_PAIRS kernels: for each projection, entry (r, c) for
// r = 0 .. bandRows (detector row bandFirst - 1 + r) holds band rows r - 1 and r of column c (rows outside the band
// zero) times scale (a power of two that keeps the band's largest value below 2^15), as the low and high half of a
// word. Layout: FDK_PAIR_GUARD rows of zeros, then per projection its bandRows + 1 rows of entries and FDK_PAIR_GUARD
// rows of zeros (np · (bandRows + 1 + FDK_PAIR_GUARD) + FDK_PAIR_GUARD rows of cols words). A grid-stride loop.
extern "C" __global__ void TS_KERNEL(FDK_MAKE_PAIRS) {
    const int planeRows = bandRows + 1 + FDK_PAIR_GUARD;
    long long words = ((long long)np * planeRows + FDK_PAIR_GUARD) * cols;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < words; t += (long long)gridDim.x * blockDim.x) {
        int c = (int)(t % cols);
        long long pr = t / cols - FDK_PAIR_GUARD;  // the row from the first projection's entries
        int r = pr < 0 ? bandRows + 1 : (int)(pr % planeRows);
        long long p = pr < 0 ? 0 : pr / planeRows;
        unsigned word = 0;
        if (r <= bandRows) {
            const float* column = q + p * bandRows * (long long)cols + c;
            float a = r > 0 ? column[(long long)(r - 1) * cols] * scale : 0.f;
            float b = r < bandRows ? column[(long long)r * cols] * scale : 0.f;
            __half2 h = __floats2half2_rn(a, b);
            word = *reinterpret_cast<unsigned*>(&h);
        }
        pairs[t] = word;
    }
}

// The band times scale in half precision (the texture of the pair kernels' texture share). A grid-stride loop.
extern "C" __global__ void TS_KERNEL(FDK_HALVES) {
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < count; t += (long long)gridDim.x * blockDim.x)
        halves[t] = __half_as_ushort(__float2half_rn(q[t] * scale));
}

// Instantiations. Every FDK kernel has the parameter list of fdk_naive (signatures.cuh: FDK); the half-pair ones
// add the scale of their pairs (FDK_PAIRS).
#define FDK_KERNEL(NAME, Z, C, B, T, MODE, GENERAL, MINB)                                                              \
    extern "C" __global__ void __launch_bounds__(FDK_THREADS, MINB) NAME(                                                  \
        TS_PARAMS_FDK) {                                                                                                     \
        columnKernel<Z, C, B, T, MODE, GENERAL, false>(q, tex, slab, n, nz, k0, slices, voxel, cols, rows, bandFirst, bandRows,  \
                                                   chunk, p0, np, cap, 1.0f);                                                \
    }
#define FDK_PAIR_KERNEL(NAME, Z, C, B, T, MODE, GENERAL, MINB)                                                         \
    extern "C" __global__ void __launch_bounds__(FDK_THREADS, MINB) NAME(                                                  \
        TS_PARAMS_FDK_PAIRS) {                                                                                               \
        columnKernel<Z, C, B, T, MODE, GENERAL, true>(q, tex, slab, n, nz, k0, slices, voxel, cols, rows, bandFirst,         \
                                                      bandRows, chunk, p0, np, cap, scale);                                  \
    }
// exact: from shared-memory tiles (no texture share: the texture mode argument is unused)
#define FDK_COL(Z, C, B, M) FDK_KERNEL(FDK_NAME_COL(Z, C, B, M), Z, C, B, 0, TEX_GATHER, false, M)
#define FDK_GEN(Z, C, B, M) FDK_KERNEL(FDK_NAME_GEN(Z, C, B, M), Z, C, B, 0, TEX_GATHER, true, M)
// exact: B of every B + T projections from tiles, T gathered from the texture
#define FDK_XHYB(Z, C, B, T, M) FDK_KERNEL(fdk_xhyb_z##Z##_c##C##_b##B##_t##T##_m##M, Z, C, B, T, TEX_GATHER, false, M)
// texture weights: B from tiles, T filtered by the texture unit
#define FDK_HYB(Z, C, B, T, M) FDK_KERNEL(fdk_hyb_z##Z##_c##C##_b##B##_t##T##_m##M, Z, C, B, T, TEX_FILTERED, false, M)
#define FDK_TEX(Z, C, M) FDK_KERNEL(fdk_tex_z##Z##_c##C##_m##M, Z, C, 0, 1, TEX_FILTERED, false, M)
#define FDK_GAT(Z, C, M) FDK_KERNEL(fdk_gat_z##Z##_c##C##_m##M, Z, C, 0, 1, TEX_GATHER, false, M)
// any matrix, every projection filtered by the texture unit
#define FDK_GTEX(Z, C, M) FDK_KERNEL(fdk_gtex_z##Z##_c##C##_m##M, Z, C, 0, 1, TEX_FILTERED, true, M)
// half precision: B of every B + T projections from tiles of half pairs, T filtered by the texture (hh: a texture of
// the scaled band in half precision)
#define FDK_HCOL(Z, C, B, M) FDK_PAIR_KERNEL(fdk_hcol_z##Z##_c##C##_b##B##_m##M, Z, C, B, 0, TEX_FILTERED, false, M)
#define FDK_HHYB(Z, C, B, T, M) FDK_PAIR_KERNEL(fdk_hhyb_z##Z##_c##C##_b##B##_t##T##_m##M, Z, C, B, T, TEX_FILTERED, false, M)
#define FDK_HHHYB(Z, C, B, T, M) FDK_PAIR_KERNEL(fdk_hhhyb_z##Z##_c##C##_b##B##_t##T##_m##M, Z, C, B, T, TEX_HALF, false, M)
// the hybrid's shares on separate warps (splitKernel): blocks of 32 x 4·C columns
#define FDK_SPLIT(Z, C, B, T, M)                                                                                     \
    extern "C" __global__ void __launch_bounds__(FDK_THREADS, M) FDK_NAME_SPLIT(Z, C, B, T, M)(                          \
        TS_PARAMS_FDK_PAIRS) {                                                                                               \
        splitKernel<Z, C, B, T>(q, tex, slab, n, nz, k0, slices, voxel, cols, bandFirst, bandRows, chunk, p0, np, cap,   \
                                scale);                                                                             \
    }
#define FDK_HGEN(Z, C, B, M) FDK_PAIR_KERNEL(fdk_hgen_z##Z##_c##C##_b##B##_m##M, Z, C, B, 0, TEX_FILTERED, true, M)
#define FDK_GHYB(Z, C, B, T, M) FDK_PAIR_KERNEL(fdk_ghyb_z##Z##_c##C##_b##B##_t##T##_m##M, Z, C, B, T, TEX_FILTERED, true, M)
#define FDK_GHHYB(Z, C, B, T, M) FDK_PAIR_KERNEL(fdk_ghhyb_z##Z##_c##C##_b##B##_t##T##_m##M, Z, C, B, T, TEX_HALF, true, M)
// splitKernel with tensor copies (tensorSplit): sm_90 on, so in the fatbins' sm_90 code and compute_90 PTX only, not in
// the compute_80 PTX (FDK_TENSOR)
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define FDK_TSPLIT(Z, C, B, T, M)                                                                                    \
    extern "C" __global__ void __launch_bounds__(FDK_THREADS, M) FDK_NAME_TSPLIT(Z, C, B, T, M)(                         \
        TS_PARAMS_FDK_TENSOR) {                                                                                      \
        tensorSplit<Z, C, B, T>(&map, tex, slab, n, nz, k0, slices, voxel, bandFirst, bandRows, chunk, p0, np, bw,    \
                                boxes, scale);                                                                       \
    }
#else
#define FDK_TSPLIT(Z, C, B, T, M)
#endif
// every projection filtered from the half-precision texture (the texture mode's kernels without tiles)
#define FDK_HTEX(Z, C, M) FDK_PAIR_KERNEL(FDK_NAME_HTEX(Z, C, M), Z, C, 0, 1, TEX_HALF, false, M)
#define FDK_GHTEX(Z, C, M) FDK_PAIR_KERNEL(FDK_NAME_GHTEX(Z, C, M), Z, C, 0, 1, TEX_HALF, true, M)

// The product set (fdk.cuh)
#define FDK_PRODUCT_COL(ROLE, Z, C, B, M) FDK_COL(Z, C, B, M)
#define FDK_PRODUCT_GEN(ROLE, Z, C, B, M) FDK_GEN(Z, C, B, M)
#define FDK_PRODUCT_SPLIT(ROLE, Z, C, B, T, M) FDK_SPLIT(Z, C, B, T, M)
#define FDK_PRODUCT_TSPLIT(ROLE, Z, C, B, T, M) FDK_TSPLIT(Z, C, B, T, M)
#define FDK_PRODUCT_HTEX(ROLE, Z, C, M) FDK_HTEX(Z, C, M)
#define FDK_PRODUCT_GHTEX(ROLE, Z, C, M) FDK_GHTEX(Z, C, M)
FDK_PRODUCT(FDK_PRODUCT_COL, FDK_PRODUCT_GEN, FDK_PRODUCT_SPLIT, FDK_PRODUCT_TSPLIT, FDK_PRODUCT_HTEX, FDK_PRODUCT_GHTEX)

// The other variants measured there, built by the exploration harness (-DFDK_EXPLORE) only.
#ifdef FDK_EXPLORE
FDK_HHHYB(16, 2, 1, 1, 3)
FDK_COL(8, 4, 1, 3)
FDK_HHHYB(8, 4, 1, 1, 3)
FDK_COL(8, 4, 1, 2)
FDK_COL(8, 2, 1, 3)
FDK_COL(16, 2, 1, 2)
FDK_GEN(16, 2, 1, 3)
FDK_COL(4, 4, 1, 3)
FDK_GEN(8, 4, 1, 2)
FDK_GEN(8, 2, 1, 3)
FDK_XHYB(8, 4, 1, 1, 3)
FDK_XHYB(8, 2, 1, 1, 3)
FDK_HYB(8, 4, 1, 1, 3)
FDK_HYB(8, 4, 1, 2, 3)
FDK_HYB(8, 2, 1, 1, 3)
FDK_HYB(8, 2, 1, 2, 3)
FDK_HYB(8, 2, 1, 3, 3)
FDK_TEX(8, 1, 3)
FDK_GTEX(8, 4, 3)
FDK_GTEX(8, 1, 3)
FDK_HCOL(8, 4, 1, 3)
FDK_HCOL(8, 2, 1, 4)
FDK_HHYB(8, 4, 1, 1, 3)
FDK_HHYB(8, 4, 1, 1, 2)
FDK_HHYB(8, 2, 1, 1, 4)
FDK_HHYB(16, 2, 1, 1, 3)
FDK_HHYB(8, 4, 1, 2, 3)
FDK_HHYB(8, 4, 2, 2, 3)
FDK_HHYB(8, 4, 3, 2, 3)
FDK_HHHYB(8, 4, 1, 2, 3)
FDK_HHHYB(8, 4, 2, 2, 3)
FDK_HHHYB(8, 2, 1, 1, 4)
FDK_HHHYB(16, 1, 1, 1, 4)
FDK_HHHYB(32, 1, 1, 1, 3)
FDK_HHHYB(16, 4, 1, 1, 2)
FDK_HHHYB(32, 2, 1, 1, 2)
FDK_HHHYB(16, 2, 1, 1, 2)
FDK_HHHYB(4, 4, 1, 1, 4)
FDK_HHHYB(8, 4, 1, 3, 3)
FDK_HHHYB(8, 4, 2, 3, 3)
FDK_HTEX(8, 2, 3)
FDK_HTEX(8, 4, 3)
FDK_GHTEX(8, 2, 3)
FDK_HGEN(8, 4, 1, 3)
FDK_GHYB(8, 4, 1, 1, 3)
FDK_GHHYB(8, 4, 1, 1, 3)
FDK_GHHYB(8, 4, 1, 2, 3)
FDK_SPLIT(16, 2, 1, 1, 3)
FDK_SPLIT(16, 2, 1, 2, 3)
FDK_SPLIT(16, 2, 3, 4, 3)
FDK_SPLIT(8, 4, 1, 1, 3)
FDK_SPLIT(16, 4, 1, 2, 2)
FDK_SPLIT(16, 4, 2, 3, 2)
FDK_SPLIT(16, 4, 4, 5, 2)
FDK_SPLIT(16, 4, 5, 7, 2)
FDK_SPLIT(16, 4, 3, 2, 2)
FDK_TSPLIT(16, 4, 1, 2, 2)
FDK_TSPLIT(16, 4, 3, 4, 2)
FDK_TSPLIT(16, 4, 6, 7, 2)
FDK_TSPLIT(16, 4, 3, 2, 2)
#endif
