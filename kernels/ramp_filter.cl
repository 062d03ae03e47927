/*
 * tomospark OpenCL ramp filter: one work-group filters one sinogram row of one slice with a radix-2
 * FFT in __local memory (bit-reversed load, in-place Cooley-Tukey butterflies), multiplies by the real
 * response of RampFilter.response() (scale included) and transforms back. The result equals
 * RampFilter.filterRow up to float rounding.
 *
 * Build options (kernels/opencl.def, every one required):
 *   NFFT      padded FFT length (power of two >= 2*width, FilterSpec.paddedLength)
 *   LOG2N     log2(NFFT)
 *   CHANNELS  slices interleaved per bin, as in the back-projection kernels
 *   EDGE_PAD  1: pad with the edge values (right half of the pad = last bin, left half = first bin)
 *   OUT_HALF  1: store the result as IEEE half (vstore_half; no cl_khr_fp16 needed)
 *
 * raw and out: [(p*width + col)*CHANNELS + s]. response: NFFT/2+1 floats. Launch: global = (L*rows), local = L,
 * rows = nproj*CHANNELS, group g filters projection g / CHANNELS, slice g % CHANNELS.
 */
#ifndef NFFT
#error "ramp_filter.cl: build option NFFT missing (kernels/opencl.def)"
#endif
#ifndef LOG2N
#error "ramp_filter.cl: build option LOG2N missing (kernels/opencl.def)"
#endif
#ifndef CHANNELS
#error "ramp_filter.cl: build option CHANNELS missing (kernels/opencl.def)"
#endif
#ifndef EDGE_PAD
#error "ramp_filter.cl: build option EDGE_PAD missing (kernels/opencl.def)"
#endif
#ifndef OUT_HALF
#error "ramp_filter.cl: build option OUT_HALF missing (kernels/opencl.def)"
#endif
#ifdef BROKEN
this is not OpenCL C;
#endif

#if OUT_HALF
typedef half out_t;
#else
typedef float out_t;
#endif

static void fft_inplace(__local float2 *buf, const float sign)
{
    const int lid = get_local_id(0), L = get_local_size(0);
    for (int s = 1; s <= LOG2N; s++) {
        const int m = 1 << s, half_m = m >> 1;
        for (int b = lid; b < NFFT / 2; b += L) {
            const int grp = b / half_m, j = b - grp * half_m;
            const int i0 = grp * m + j, i1 = i0 + half_m;
            float cs;
            const float sn = sincos(sign * 2.0f * M_PI_F * (float)j / (float)m, &cs);
            const float2 u = buf[i0], v = buf[i1];
            const float2 w = (float2)(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
            buf[i0] = u + w;
            buf[i1] = u - w;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

static int bitrev(int x)
{
    int r = 0;
    for (int i = 0; i < LOG2N; i++) { r = (r << 1) | (x & 1); x >>= 1; }
    return r;
}

__kernel void ramp_filter(__global const float *raw, __global out_t *out, __global const float *response,
                          const int width, __local float2 *buf)
{
    const int g = get_group_id(0);
    const int p = g / CHANNELS, s = g - p * CHANNELS;
    const int lid = get_local_id(0), L = get_local_size(0);
    __global const float *row = raw + (size_t)p * width * CHANNELS + s;
    const float first = row[0], last = row[(size_t)(width - 1) * CHANNELS];
    const int right = (NFFT - width) / 2;
    for (int i = lid; i < NFFT; i += L) {
        float v;
        if (i < width) v = row[(size_t)i * CHANNELS];
#if EDGE_PAD
        else if (i < width + right) v = last;
        else v = first;
#else
        else v = 0.0f;
#endif
        buf[bitrev(i)] = (float2)(v, 0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    fft_inplace(buf, -1.0f);
    for (int k = lid; k < NFFT; k += L) {
        const float w = response[k <= NFFT / 2 ? k : NFFT - k];
        buf[k] *= w;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* inverse: bit-reverse permutation again, then butterflies with the opposite sign */
    for (int i = lid; i < NFFT; i += L) {
        const int j = bitrev(i);
        if (j > i) { const float2 t = buf[i]; buf[i] = buf[j]; buf[j] = t; }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    fft_inplace(buf, 1.0f);
    __global out_t *orow = out + (size_t)p * width * CHANNELS + s;
    for (int i = lid; i < width; i += L) {
        const float v = buf[i].x * (1.0f / NFFT);
#if OUT_HALF
        vstore_half(v, (size_t)i * CHANNELS, orow);
#else
        orow[(size_t)i * CHANNELS] = v;
#endif
    }
}
