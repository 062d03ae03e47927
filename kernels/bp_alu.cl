/*
 * tomospark OpenCL back-projection: the ALU kernel of the seed paper (sect. 6, Algorithm 6). No
 * images: the sinogram is a plain buffer, so this is also the kernel for devices without image support.
 *
 * A work-group of GROUP x GROUP items reconstructs a square of TILE = GROUP*PIX pixels on a side; each
 * item owns PIX x PIX pixels (strided by GROUP so that writes coalesce). Projections are processed in
 * chunks of PCHUNK: first the minimal bin hm touched by the square is found for each projection of the
 * chunk, then CACHE consecutive bins from hm on are copied into __local memory, then every item
 * interpolates its pixels from that cache with the ALUs.
 *
 * Variants, chosen at build time with the options of kernels/opencl.def (every one required):
 *   CHANNELS=1|2|4   slices interleaved per bin (float, float2, float4 per bin)
 *   HALF_STORAGE=1   bins stored as IEEE half (read with vload_half*, no cl_khr_fp16 needed)
 *   LINEAR=1|0       linear interpolation or nearest bin
 *   COORD_DOUBLE=1   detector coordinate in double (cl_khr_fp64)
 *   GROUP, PIX, PCHUNK  work-group edge, pixels per item per dimension, projections per cache fill
 *
 * Same math as the Java backend: t = off[p] + c*cos[p] - r*sin[p]; linear i0 = floor(t), f = t - i0,
 * s[i0] + f*(s[i0+1]-s[i0]); nearest s[floor(t+0.5)]; bins outside [0, width) are 0.
 * Input layout: sino[(p*width + bin)*CHANNELS + s]. Output: CHANNELS planes of rows*cols floats.
 */
#ifndef CHANNELS
#error "bp_alu.cl: build option CHANNELS missing (kernels/opencl.def)"
#endif
#ifndef HALF_STORAGE
#error "bp_alu.cl: build option HALF_STORAGE missing (kernels/opencl.def)"
#endif
#ifndef LINEAR
#error "bp_alu.cl: build option LINEAR missing (kernels/opencl.def)"
#endif
#ifndef COORD_DOUBLE
#error "bp_alu.cl: build option COORD_DOUBLE missing (kernels/opencl.def)"
#endif
#ifndef GROUP
#error "bp_alu.cl: build option GROUP missing (kernels/opencl.def)"
#endif
#ifndef PIX
#error "bp_alu.cl: build option PIX missing (kernels/opencl.def)"
#endif
#ifndef PCHUNK
#error "bp_alu.cl: build option PCHUNK missing (kernels/opencl.def)"
#endif
#ifdef BROKEN
this is not OpenCL C;
#endif

#define TILE (GROUP * PIX)
/* a TILE x TILE square touches at most TILE*sqrt(2)+2 bins per projection; 3/2 TILE + 4 leaves a margin */
#define CACHE (TILE * 3 / 2 + 4)

#if COORD_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double coord_t;
#define CONSTS dconsts
#else
typedef float coord_t;
#define CONSTS consts
#endif

#if HALF_STORAGE
typedef half store_t;
#if CHANNELS == 1
#define LOAD(i) vload_half((i), sino)
#elif CHANNELS == 2
#define LOAD(i) vload_half2((i), sino)
#else
#define LOAD(i) vload_half4((i), sino)
#endif
#else
typedef float store_t;
#if CHANNELS == 1
#define LOAD(i) (sino[(i)])
#elif CHANNELS == 2
#define LOAD(i) vload2((i), sino)
#else
#define LOAD(i) vload4((i), sino)
#endif
#endif

#if CHANNELS == 1
typedef float acc_t;
#elif CHANNELS == 2
typedef float2 acc_t;
#elif CHANNELS == 4
typedef float4 acc_t;
#else
#error "CHANNELS must be 1, 2 or 4"
#endif

__kernel __attribute__((reqd_work_group_size(GROUP, GROUP, 1)))
void bp_alu(__global const store_t *sino,
            __global const float4 *consts,
#if COORD_DOUBLE
            __global const double4 *dconsts,
#endif
            const int nproj, const int width, const int cols, const int rows,
            __global float *out)
{
    __local acc_t cache[PCHUNK][CACHE];
    __local int hm[PCHUNK];

    const int lx = get_local_id(0), ly = get_local_id(1);
    const int lid = ly * GROUP + lx;
    const int c0 = get_group_id(0) * TILE, r0 = get_group_id(1) * TILE;

    acc_t sum[PIX][PIX];
    for (int j = 0; j < PIX; j++)
        for (int i = 0; i < PIX; i++) sum[j][i] = (acc_t)(0.0f);

    for (int p0 = 0; p0 < nproj; p0 += PCHUNK) {
        const int np = min(PCHUNK, nproj - p0);
        /* stage 1: lowest bin touched by this square, per projection */
        if (lid < np) {
#if COORD_DOUBLE
            const double4 k = dconsts[p0 + lid];
#else
            const float4 k = consts[p0 + lid];
#endif
            const coord_t t0 = (k.z + (coord_t)c0 * k.x) - (coord_t)r0 * k.y;
            const coord_t tmin = t0 + fmin((coord_t)0, (coord_t)(TILE - 1) * k.x) + fmin((coord_t)0, -(coord_t)(TILE - 1) * k.y);
            hm[lid] = (int)floor(tmin) - 1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* stage 2: copy CACHE bins from hm on, zero outside the detector */
        for (int e = lid; e < np * CACHE; e += GROUP * GROUP) {
            const int pp = e / CACHE;
            const int bin = hm[pp] + (e - pp * CACHE);
            acc_t v = (acc_t)(0.0f);
            if (bin >= 0 && bin < width) v = LOAD((p0 + pp) * width + bin);
            cache[pp][e - pp * CACHE] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* stage 3: interpolate from the cache */
        for (int pp = 0; pp < np; pp++) {
#if COORD_DOUBLE
            const double4 k = dconsts[p0 + pp];
#else
            const float4 k = consts[p0 + pp];
#endif
            const int h = hm[pp];
            for (int j = 0; j < PIX; j++) {
                const coord_t y = (coord_t)(r0 + ly + j * GROUP);
#if COORD_DOUBLE
                const coord_t base = k.z - y * k.y;
#else
                const coord_t base = fma(-y, k.y, k.z);
#endif
                for (int i = 0; i < PIX; i++) {
                    const coord_t x = (coord_t)(c0 + lx + i * GROUP);
#if COORD_DOUBLE
                    const coord_t t = (k.z + x * k.x) - y * k.y;
#else
                    const coord_t t = fma(x, k.x, base);
#endif
#if LINEAR
                    const coord_t fl = floor(t);
                    const float f = (float)(t - fl);
                    const int idx = clamp((int)fl - h, 0, CACHE - 2);
                    const acc_t v0 = cache[pp][idx];
                    sum[j][i] += v0 + f * (cache[pp][idx + 1] - v0);
#else
                    const int idx = clamp((int)floor(t + (coord_t)0.5) - h, 0, CACHE - 1);
                    sum[j][i] += cache[pp][idx];
#endif
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const int plane = rows * cols;
    for (int j = 0; j < PIX; j++) {
        const int r = r0 + ly + j * GROUP;
        for (int i = 0; i < PIX; i++) {
            const int c = c0 + lx + i * GROUP;
            if (r < rows && c < cols) {
                const int pix = r * cols + c;
#if CHANNELS == 1
                out[pix] = sum[j][i];
#elif CHANNELS == 2
                out[pix] = sum[j][i].x;
                out[plane + pix] = sum[j][i].y;
#else
                out[pix] = sum[j][i].x;
                out[plane + pix] = sum[j][i].y;
                out[2 * plane + pix] = sum[j][i].z;
                out[3 * plane + pix] = sum[j][i].w;
#endif
            }
        }
    }
}
