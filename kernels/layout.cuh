// Shapes and shared-memory layouts of the back-projection kernels, as compile-time constants: the kernels of
// backproject.cu lay out their memory with them, and kernels/manifest.cpp prints them into the variant manifest
// that the Java side reads (threads, tiles, dynamic shared memory, entry sizes). Stated here once, so the launch
// and the kernel cannot disagree.
#pragma once
#include "common.cuh"

// Texture kernels (Algorithms 1-4): 16x16-pixel blocks of 256 threads (bpStd: a pixel a thread; bpTex: 4 pixels a
// thread, 4 projections at once).
constexpr int TS_TEX_TILE = 16;
constexpr int TS_TEX_THREADS = 256;
static_assert(TS_TEX_TILE * TS_TEX_TILE == TS_TEX_THREADS, "texture kernels: as many threads as pixels in a block");

// Cache entry for linear interpolation with advanced caching:
//   float32: (mid, diff) = ((v0+v1)/2, v1-v0): value = mid + (f-1/2)*diff, one FADD+FFMA per slice;
//   half:    (v0, v1) both stored raw, interpolated in float: value = (1-f)*v0 + f*v1.
template <int K, bool HALF, bool ADV> struct __align__(2 * sizeof(typename Bin<K, HALF>::T) >= 16 ? 16 : 2 * sizeof(typename Bin<K, HALF>::T)) CacheEntry {
    typedef typename Bin<K, HALF>::T B;
    B a, b;
};
template <int K, bool HALF> struct CacheEntry<K, HALF, false> {
    typedef typename Bin<K, HALF>::T B;
    B a;
};

// Cache width in bins for a TILE x TILE block: (TILE-1)*sqrt(2) + 4 rounded up to 16.
template <int TILE> struct CacheW { static const int value = (((TILE - 1) * 1415) / 1000 + 4 + 15) / 16 * 16; };

constexpr int isqrtUp(int v) {
    int r = 0;
    while (r * r < v) r++;
    return r;
}
// bins cached per projection and cache row for a TX x TY tile: one margin bin below, the tile's t span (at most its
// diagonal), an 8-bin patch window, rounding up to 8
template <int TX, int TY> struct CacheWT {
    static const int value = (isqrtUp((TX - 1) * (TX - 1) + (TY - 1) * (TY - 1)) + 17) / 8 * 8;
};

// Dynamic shared memory of the register-window kernels (bpAluWin, bpAluWinF), in 16-byte units from its start: the
// double-buffered cache of bins [2][SD][CW] (V 16-byte units a bin: 1 for 8 half or 4 float32 slices, 2 for 8
// float32 slices), then per projection of three batches the window constants spc (float4 or int4), sps (int4) and
// scp (int2).
template <int TILE, int SD, int V = 1> struct WinLayout {
    static constexpr int CW = CacheW<TILE>::value;
    static constexpr int SPC = 2 * SD * CW * V;
    static constexpr int SPS = SPC + 3 * SD;
    static constexpr int SCP = SPS + 3 * SD;
    static constexpr int BYTES = 16 * SCP + 8 * 3 * SD;
};

// The tensor-core kernel (bpTc) for KB half slices per bin and a TX x TY tile: a warp per 8x8 pixels; its dynamic
// shared memory, in 16-byte units from its start: the double-buffered cache [2][SD][G][CWT] of 8-slice entries,
// then per projection of three batches spc (float4) and shm (int2).
template <int KB, int TX, int TY, int SD> struct TcLayout {
    static constexpr int G = 4;        // 8-slice cache rows per projection (mma n = 8 slices)
    static constexpr int H = 8 / KB;   // groups per cache row
    static constexpr int GB = G * H;   // groups per block: 32 slices
    static constexpr int NT = 32 * (TX / 8) * (TY / 8);
    static constexpr int CWT = CacheWT<TX, TY>::value;
    static constexpr int SPC = 2 * SD * G * CWT;
    static constexpr int SHM = SPC + 3 * SD;
    static constexpr int BYTES = 16 * SHM + 8 * 3 * SD;
};
