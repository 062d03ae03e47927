// Joseph's projector pair for the iterative methods, K interleaved slices per pass (K and USE_DOUBLE, the options of kernels/opencl.def).
// The same matrix as the Java JosephProjector: a(p,u; i,j) = hat((u - t)/g)/g with t = off[p] + j*cos[p] - i*sin[p]
// and g = max(|cos|, |sin|). Images and sinograms come with GUARD zero pixels (bins) at both ends of every line, so
// neither kernel tests the edges of the image or the detector.
#ifndef USE_DOUBLE
#error "joseph.cl: build option USE_DOUBLE missing (kernels/opencl.def)"
#endif
#ifndef K
#error "joseph.cl: build option K missing (kernels/opencl.def)"
#endif
#if USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double REAL;
#else
typedef float REAL;
#endif
#define GUARD 2

// One work-item per ray: u = get_global_id(0), the projection angles[get_global_id(1)]. The ray steps along the image
// axis it is most parallel to: rows (guarded rows of byRows) when |cos| >= |sin|, else columns (guarded, transposed).
__kernel void joseph_forward(__global const float* byRows, __global const float* byColumns, __global float* sino,
                             __global const int* angles, __global const REAL* cosT, __global const REAL* sinT,
                             __global const REAL* offT, int rows, int cols, int width) {
    int u = get_global_id(0);
    if (u >= width) return;
    int p = angles[get_global_id(1)];
    REAL c = cosT[p], s = sinT[p], o = offT[p];
    float acc[K];
    for (int q = 0; q < K; q++) acc[q] = 0.0f;
    bool flat = fabs(c) >= fabs(s);
    int lines = flat ? rows : cols, n = flat ? cols : rows;
    __global const float* img = flat ? byRows : byColumns;
    REAL inv = flat ? (REAL) 1 / c : (REAL) -1 / s;
    float w = (float) ((REAL) 1 / (flat ? fabs(c) : fabs(s)));
    for (int l = 0; l < lines; l++) {
        REAL base = flat ? o - l * s : o + l * c;
        REAL a = flat ? base - c : base + s, b = flat ? base + cols * c : base - rows * s;
        if (!(u > fmin(a, b) && u < fmax(a, b))) continue;
        REAL pos = (u - base) * inv;
        REAL fl = floor(pos);
        float f = (float) (pos - fl);
        float w0 = w * (1.0f - f), w1 = w * f;
        int idx = (l * (n + 2 * GUARD) + (int) fl + GUARD) * K;
        for (int q = 0; q < K; q++) acc[q] += w0 * img[idx + q] + w1 * img[idx + K + q];
    }
    int out = (p * width + u) * K;
    for (int q = 0; q < K; q++) sino[out + q] = acc[q];
}

// One work-item per pixel (j = get_global_id(0), i = get_global_id(1)): the gather of the adjoint over the angles,
// from the guarded sinogram rows.
__kernel void joseph_back(__global const float* sino, __global float* image, __global const int* angles, int nangles,
                          __global const REAL* cosT, __global const REAL* sinT, __global const REAL* offT,
                          int rows, int cols, int width) {
    int j = get_global_id(0), i = get_global_id(1);
    if (j >= cols || i >= rows) return;
    float acc[K];
    for (int q = 0; q < K; q++) acc[q] = 0.0f;
    for (int a = 0; a < nangles; a++) {
        int p = angles[a];
        REAL c = cosT[p], s = sinT[p];
        REAL t = offT[p] - i * s + j * c;
        if (t <= -1 || t >= width) continue;
        REAL ig = (REAL) 1 / fmax(fabs(c), fabs(s));
        REAL fl = floor(t);
        REAL d = t - fl;
        float w0 = (float) (fmax((REAL) 0, 1 - d * ig) * ig);
        float w1 = (float) (fmax((REAL) 0, 1 - (1 - d) * ig) * ig);
        int idx = (p * (width + 2 * GUARD) + (int) fl + GUARD) * K;
        for (int q = 0; q < K; q++) acc[q] += w0 * sino[idx + q] + w1 * sino[idx + K + q];
    }
    int out = (i * cols + j) * K;
    for (int q = 0; q < K; q++) image[out + q] = acc[q];
}
