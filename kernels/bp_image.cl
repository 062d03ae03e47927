/*
 * tomospark OpenCL back-projection: texture (image2d_t) kernels, seed paper Algorithm 1 and
 * the multi-slice packing of sect. 5.2 / half storage of sect. 5.3.
 *
 * One source, variants chosen at build time with the options of kernels/opencl.def (every one required):
 *   CHANNELS=1|2|4     slices packed in one texel (CL_R, CL_RG, CL_RGBA); 1 = the standard kernel
 *   LINEAR=1|0         detector interpolation: hardware linear filter or nearest bin
 *   COORD_DOUBLE=1     compute the detector coordinate in double (needs cl_khr_fp64): nearest then picks
 *                      exactly the Java backend's bin; linear still hands a float coordinate to the sampler
 *   BROKEN=1           (not in the table) a deliberate syntax error, used by the tests to check build-log reporting
 *
 * Geometry (same as the Java backend): for ROI pixel (row r, col c) and projection p,
 *   t = off[p] + c*cos[p] - r*sin[p];
 * linear: s[i0] + f*(s[i0+1]-s[i0]) with i0 = floor(t), nearest: s[floor(t+0.5)]; bins outside the
 * detector are 0. The image is sampled with unnormalised coordinates at (t+0.5, p+0.5) and
 * CLK_ADDRESS_CLAMP (border colour 0), which reproduces exactly that rule.
 *
 * consts[p] = (cos, sin, off, 0) as float4; with COORD_DOUBLE, dconsts[p] = (cos, sin, off, 0) as double4.
 * Output: CHANNELS planes of rows*cols floats, plane s holds slice s.
 */
#ifndef CHANNELS
#error "bp_image.cl: build option CHANNELS missing (kernels/opencl.def)"
#endif
#ifndef LINEAR
#error "bp_image.cl: build option LINEAR missing (kernels/opencl.def)"
#endif
#ifndef COORD_DOUBLE
#error "bp_image.cl: build option COORD_DOUBLE missing (kernels/opencl.def)"
#endif
#ifdef BROKEN
this is not OpenCL C;
#endif

#if COORD_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#if CHANNELS == 1
typedef float acc_t;
#define PICK(v) ((v).x)
#elif CHANNELS == 2
typedef float2 acc_t;
#define PICK(v) ((v).xy)
#elif CHANNELS == 4
typedef float4 acc_t;
#define PICK(v) (v)
#else
#error "CHANNELS must be 1, 2 or 4"
#endif

#if LINEAR
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
#else
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
#endif

__kernel void bp_image(__read_only image2d_t sino,
                       __global const float4 *consts,
#if COORD_DOUBLE
                       __global const double4 *dconsts,
#endif
                       const int nproj, const int cols, const int rows,
                       __global float *out)
{
    const int c = get_global_id(0);
    const int r = get_global_id(1);
    if (c >= cols || r >= rows) return;
    acc_t sum = (acc_t)(0.0f);
#if COORD_DOUBLE
    const double x = (double)c, y = (double)r;
    for (int p = 0; p < nproj; p++) {
        const double4 k = dconsts[p];
        const double t = (k.z + x * k.x) - y * k.y;
#if LINEAR
        sum += PICK(read_imagef(sino, smp, (float2)((float)(t + 0.5), (float)p + 0.5f)));
#else
        const int i0 = (int)floor(t + 0.5);
        /* integer coordinates address texel i0 of row p exactly; outside -> border 0 */
        sum += PICK(read_imagef(sino, smp, (int2)(i0, p)));
#endif
    }
#else
    const float x = (float)c, y = (float)r;
    for (int p = 0; p < nproj; p++) {
        const float4 k = consts[p];
        const float t = fma(x, k.x, fma(-y, k.y, k.z));
        sum += PICK(read_imagef(sino, smp, (float2)(t + 0.5f, (float)p + 0.5f)));
    }
#endif
    const int pix = r * cols + c;
    const int plane = rows * cols;
#if CHANNELS == 1
    out[pix] = sum;
#elif CHANNELS == 2
    out[pix] = sum.x;
    out[plane + pix] = sum.y;
#else
    out[pix] = sum.x;
    out[plane + pix] = sum.y;
    out[2 * plane + pix] = sum.z;
    out[3 * plane + pix] = sum.w;
#endif
}
