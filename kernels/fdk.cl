// FDK's voxel-driven cone-beam back-projection of one z-slab: every voxel adds, for every projection p, the filtered
// projection bilinearly interpolated where the voxel's centre projects, times the distance weight 1/w^2, where
// [u*w, v*w, w] = P_p*[x, y, z, 1] with P_p the projection's 3x4 matrix (row-major, normalised so that w = 1 at the
// isocentre). Voxel (i, j, k) of an n x n x nzVol volume of edge s has its centre at
// ((i - (n-1)/2)*s, (j - (n-1)/2)*s, (k - (nzVol-1)/2)*s).
//
// Build options (kernels/opencl.def, every one required): REAL, the type of the per-column terms (double with USE_DOUBLE=1, else float); ZB, the slices one
// work-item covers. Per voxel only small offsets from the block's first voxel are evaluated, in float, about the
// pixel that voxel projects into, so that float keeps the accuracy of the per-column terms at any detector size;
// samples, weights and sums are float.
//
// Work layout: one work-item per voxel column (i = get_global_id(0), j = get_global_id(1)) and block of ZB slices
// (get_global_id(2)). Blocks are whole chunks of ZB slices of the volume (k = ZB*c .. ZB*c + ZB - 1), not of the slab,
// so that a voxel's arithmetic, which starts from its block's first slice, does not depend on where its slab starts;
// the first and last block of a slab may reach beyond it, and only the slab's slices are stored. The terms of the column that do not depend on z are computed once per projection, the ZB sums
// stay in private memory over every projection of the launch and are written (add = 0) or added (add = 1) to out at
// the end. One launch covers np projections, whose matrices are mats[12*p .. 12*p + 11] in constant memory; their
// data start at projection p0 of proj.
//
// Projection layout: each projection holds the band of detector rows [bandFirst, bandFirst + bandRows) with one
// zero pixel on every side: (bandRows + 2) rows of pitch = cols + 2 floats, projStride = (bandRows + 2)*pitch floats
// per projection; detector pixel (u, r) of the band is at (r - bandFirst + 1)*pitch + u + 1. A voxel samples when
// floor(u) lies in [-1, cols - 1] and floor(v) in [vLo, vHi] (vLo = max(-1, bandFirst - 1), vHi = min(rows - 1,
// bandFirst + bandRows - 1)); its four pixels are then all inside the padded band, pixels beyond the detector read
// the zero padding, and no read is tested. Beyond those bounds a voxel reads zero.
//
// out holds the slab's slices [k0, k0 + nzSlab) of the volume, slice after slice, image[j*n + i] in each.
#ifndef USE_DOUBLE
#error "fdk.cl: build option USE_DOUBLE missing (kernels/opencl.def)"
#endif
#if USE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double REAL;
#else
typedef float REAL;
#endif

#ifndef ZB
#error "fdk.cl: build option ZB missing (kernels/opencl.def)"
#endif

// The bilinear sample at column iu + fu of the band, row iv + fv (iv relative to the band's first padded row).
inline float bilinear(__global const float* q, int pitch, int iu, float fu, int iv, float fv) {
    __global const float* r = q + iv * pitch + iu;
    float a = r[0], b = r[1], c = r[pitch], d = r[pitch + 1];
    float top = a + fu * (b - a), bottom = c + fu * (d - c);
    return top + fv * (bottom - top);
}

// Writes or adds the column's sums into the slab: slices kb + kk (from the slab's first) in [0, nzSlab).
inline void store(__global float* out, const float* acc, int kb, int nzSlab, int n, int j, int i, int add) {
    size_t plane = (size_t) n * n, o = (size_t) kb * plane + (size_t) j * n + i;
    for (int kk = 0; kk < ZB; kk++) {
        if (kb + kk >= 0 && kb + kk < nzSlab) {
            if (add) out[o] += acc[kk];
            else out[o] = acc[kk];
        }
        o += plane;
    }
}

// Trajectories whose matrices have P[0][2] = P[2][2] = 0 (the circular one): u and w do not change along the column
// and v moves by the constant step P[1][2]*s/w per slice, so u, its weights and 1/w^2 are computed once per column.
__kernel void fdk_columns(__global const float* proj, __constant REAL* mats, int np, int p0, int projStride, int pitch,
                          int cols, int bandFirst, int vLo, int vHi, int n, int nzSlab, int k0, REAL centreXy,
                          REAL centreZ, REAL s, __global float* out, int add) {
    int i = get_global_id(0), j = get_global_id(1), kb = (int) get_global_id(2) * ZB - k0 % ZB;
    if (i >= n || j >= n || kb >= nzSlab) return;
    REAL x = (i - centreXy) * s, y = (j - centreXy) * s, z0 = (k0 + kb - centreZ) * s;
    REAL lo = (REAL) vLo, hi = (REAL) (vHi + 1);
    int rowLo = vLo + 1 - bandFirst, rowHi = vHi + 1 - bandFirst;
    float acc[ZB];
    for (int kk = 0; kk < ZB; kk++) acc[kk] = 0.0f;
    for (int p = 0; p < np; p++) {
        __constant REAL* m = mats + 12 * p;
        REAL iw = (REAL) 1 / (m[8] * x + m[9] * y + m[11]);
        REAL u = (m[0] * x + m[1] * y + m[3]) * iw;
        if (!(u >= -1 && u < cols)) continue;
        REAL v0 = (m[4] * x + m[5] * y + m[6] * z0 + m[7]) * iw, dv = m[6] * s * iw, v1 = v0 + (ZB - 1) * dv;
        if (!(fmax(v0, v1) >= lo && fmin(v0, v1) < hi)) continue;
        REAL fl = floor(u), vb = floor(v0);
        int iu = (int) fl + 1, rowBase = (int) vb + 1 - bandFirst;
        float fu = (float) (u - fl), w2 = (float) (iw * iw), f0 = (float) (v0 - vb), dvf = (float) dv;
        __global const float* q = proj + (size_t) (p0 + p) * projStride;
        for (int kk = 0; kk < ZB; kk++) {
            float t = f0 + kk * dvf, ft = floor(t);
            int row = rowBase + (int) ft;
            if (row >= rowLo && row <= rowHi) acc[kk] += bilinear(q, pitch, iu, fu, row, t - ft) * w2;
        }
    }
    store(out, acc, kb, nzSlab, n, j, i, add);
}

// Any trajectory. Along a block of slices from z_a (where u = u_a, v = v_a, w = w_a), with zeta = kk*s:
// w = w_a + P[2][2]*zeta, u = u_a + zeta*(P[0][2] - u_a*P[2][2])/w, v = v_a + zeta*(P[1][2] - v_a*P[2][2])/w.
// The block's end points are projected in REAL; blocks whose u or v range misses the detector's bounds are skipped
// (a segment in front of the source projects to a segment, so its ends bound it), as are blocks reaching the source
// plane (w <= 0: a volume the slab planning refuses). The offsets from the block's first voxel are small, so they
// are evaluated in float at every voxel, about the pixel they start from.
__kernel void fdk_general(__global const float* proj, __constant REAL* mats, int np, int p0, int projStride, int pitch,
                          int cols, int bandFirst, int vLo, int vHi, int n, int nzSlab, int k0, REAL centreXy,
                          REAL centreZ, REAL s, __global float* out, int add) {
    int i = get_global_id(0), j = get_global_id(1), kb = (int) get_global_id(2) * ZB - k0 % ZB;
    if (i >= n || j >= n || kb >= nzSlab) return;
    // the block's last slice inside the volume (2*centreZ + 1 slices): its end point bounds the block's segment
    int last = min(ZB - 1, (int) (2 * centreZ + 0.5) - (k0 + kb));
    REAL x = (i - centreXy) * s, y = (j - centreXy) * s, za = (k0 + kb - centreZ) * s, ze = last * s;
    REAL lo = (REAL) vLo, hi = (REAL) (vHi + 1);
    int rowLo = vLo + 1 - bandFirst, rowHi = vHi + 1 - bandFirst;
    float acc[ZB];
    for (int kk = 0; kk < ZB; kk++) acc[kk] = 0.0f;
    for (int p = 0; p < np; p++) {
        __constant REAL* m = mats + 12 * p;
        REAL uw = m[0] * x + m[1] * y + m[2] * za + m[3], vw = m[4] * x + m[5] * y + m[6] * za + m[7];
        REAL wa = m[8] * x + m[9] * y + m[10] * za + m[11], we = wa + m[10] * ze;
        if (!(wa > 0 && we > 0)) continue;
        REAL ia = (REAL) 1 / wa, ie = (REAL) 1 / we;
        REAL ua = uw * ia, va = vw * ia, ue = (uw + m[2] * ze) * ie, ve = (vw + m[6] * ze) * ie;
        if (!(fmax(ua, ue) >= -1 && fmin(ua, ue) < cols && fmax(va, ve) >= lo && fmin(va, ve) < hi)) continue;
        REAL ub = floor(ua), vb = floor(va);
        int colBase = (int) ub + 1, rowBase = (int) vb + 1 - bandFirst;
        float fu0 = (float) (ua - ub), fv0 = (float) (va - vb), wf = (float) wa, ws = (float) (m[10] * s);
        float gu = (float) ((m[2] - ua * m[10]) * s), gv = (float) ((m[6] - va * m[10]) * s);
        __global const float* q = proj + (size_t) (p0 + p) * projStride;
        for (int kk = 0; kk < ZB; kk++) {
            float iw = 1.0f / (wf + kk * ws);
            float tu = fu0 + kk * gu * iw, tv = fv0 + kk * gv * iw, fu = floor(tu), fv = floor(tv);
            int col = colBase + (int) fu, row = rowBase + (int) fv;
            if (kk <= last && col >= 0 && col <= cols && row >= rowLo && row <= rowHi)
                acc[kk] += bilinear(q, pitch, col, tu - fu, row, tv - fv) * (iw * iw);
        }
    }
    store(out, acc, kb, nzSlab, n, j, i, add);
}
