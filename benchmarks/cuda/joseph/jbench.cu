// Standalone harness for the Joseph projector kernels of kernels/joseph.cu (padded layouts, fixed-point walks, every
// variant of the product and exploration sets) against the kernels they replaced (old_joseph.cuh, generated from the
// repository's history: see README.md), for correctness on awkward sizes and for speed at 2048. No Java needed.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <string>
#include <algorithm>
#include <random>
#include <functional>
#include "old_joseph.cuh"
#define JOSEPH_EXPLORE
#include "../../../kernels/joseph.cu"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

struct Geo {
    int rows, cols, width, np;
    std::vector<double> c, s, o;          // old tables
    std::vector<long long> tab;           // new [np][8]
    std::vector<float> ftab;              // new [np][4]
};

static long long fx(double x) { return llrint(x * 4294967296.0); }

static Geo makeGeo(int rows, int cols, int width, int np, bool irregular, double centerShift) {
    Geo g{rows, cols, width, np};
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-0.3, 0.3);
    g.c.resize(np); g.s.resize(np); g.o.resize(np); g.tab.resize(np * 8); g.ftab.resize(np * 4);
    for (int p = 0; p < np; p++) {
        double a = M_PI * p / np;
        if (irregular) a += (p % 7 == 3) ? 0.01 * U(rng) : 0;
        if (irregular && p == 1) a = M_PI / 4;
        if (irregular && p == 2) a = M_PI / 2;
        if (irregular && p == 3) a = 3 * M_PI / 4;
        double c = cos(a), s = sin(a);
        double x0 = -(cols - 1) / 2.0, y0 = (rows - 1) / 2.0;
        double o = x0 * c + y0 * s + (width - 1) / 2.0 + centerShift + (irregular ? U(rng) : 0);
        g.c[p] = c; g.s[p] = s; g.o[p] = o;
        bool flat = fabs(c) >= fabs(s);
        int sgn = s >= 0 ? 1 : -1;
        long long* t = &g.tab[p * 8];
        t[0] = fx(sgn * o); t[1] = fx(sgn * c); t[2] = fx(fabs(s)); t[3] = sgn;
        double ray = flat ? 1 / c : -1 / s, pos0 = flat ? -o / c : o / s, lineStep = flat ? s / c : c / s;
        int fs = ray < 0 ? -1 : 1;
        t[4] = fx(fs * pos0); t[5] = fx(fabs(ray)); t[6] = fx(fs * lineStep); t[7] = (flat ? 1 : 0) | (fs < 0 ? 2 : 0);
        double ig = 1 / std::max(fabs(c), fabs(s));
        g.ftab[p * 4 + 0] = (float)ig; g.ftab[p * 4 + 1] = (float)(ig * ig); g.ftab[p * 4 + 2] = (float)ig; g.ftab[p * 4 + 3] = 0;
    }
    return g;
}

template <class T> struct DBuf {
    T* p = nullptr; size_t n = 0;
    void alloc(size_t m) { n = m; CK(cudaMalloc(&p, m * sizeof(T))); CK(cudaMemset(p, 0, m * sizeof(T))); }
    void up(const std::vector<T>& h) { CK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); }
    std::vector<T> down() { std::vector<T> h(n); CK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost)); return h; }
    ~DBuf() { if (p) cudaFree(p); }
};

static const int G = JOSEPH_GUARD;

static std::vector<float> padImage(const std::vector<float>& x, int rows, int cols, int k) {
    std::vector<float> o((size_t)(rows + 2 * G) * (cols + 2 * G) * k, 0.f);
    for (int i = 0; i < rows; i++)
        std::copy(x.begin() + (size_t)i * cols * k, x.begin() + (size_t)(i + 1) * cols * k,
                  o.begin() + ((size_t)(i + G) * (cols + 2 * G) + G) * k);
    return o;
}
static std::vector<float> unpadImage(const std::vector<float>& x, int rows, int cols, int k) {
    std::vector<float> o((size_t)rows * cols * k);
    for (int i = 0; i < rows; i++)
        std::copy(x.begin() + ((size_t)(i + G) * (cols + 2 * G) + G) * k, x.begin() + ((size_t)(i + G) * (cols + 2 * G) + G + cols) * k,
                  o.begin() + (size_t)i * cols * k);
    return o;
}
static std::vector<float> padSino(const std::vector<float>& x, int np, int width, int k) { return padImage(x, np, width, k); }
// a sinogram's padding is only along the row: reuse with rows = np but no guard rows
static std::vector<float> padSinoRows(const std::vector<float>& x, int np, int width, int k) {
    std::vector<float> o((size_t)np * (width + 2 * G) * k, 0.f);
    for (int p = 0; p < np; p++)
        std::copy(x.begin() + (size_t)p * width * k, x.begin() + (size_t)(p + 1) * width * k, o.begin() + ((size_t)p * (width + 2 * G) + G) * k);
    return o;
}
static std::vector<float> unpadSinoRows(const std::vector<float>& x, int np, int width, int k) {
    std::vector<float> o((size_t)np * width * k);
    for (int p = 0; p < np; p++)
        std::copy(x.begin() + ((size_t)p * (width + 2 * G) + G) * k, x.begin() + ((size_t)p * (width + 2 * G) + G + width) * k,
                  o.begin() + (size_t)p * width * k);
    return o;
}

static double relL2(const std::vector<float>& a, const std::vector<float>& b) {
    double n = 0, d = 0;
    for (size_t i = 0; i < a.size(); i++) { double e = (double)a[i] - b[i]; n += e * e; d += (double)b[i] * b[i]; }
    return sqrt(n / std::max(d, 1e-300));
}

typedef void (*FwdK)(const float*, float*, const long long*, const float*, const int*, int, int, int, int, int);
typedef void (*BackK)(const float*, float*, const long long*, const float*, const int*, int, int, int, int, int);

struct FwdV { const char* name; FwdK f; int C, U, A, B; };
struct BackV { const char* name; BackK f; int C, R, B; };

static FwdV fwdProduct(int k) {
    if (k % 8 == 0) return {"c8u2a2b4", joseph_forward_c8_u2_a2_b4, 8, 2, 2, 4};
    if (k % 4 == 0) return {"c4u4a2b8", joseph_forward_c4_u4_a2_b8, 4, 4, 2, 8};
    if (k % 2 == 0) return {"c2u4a2b4", joseph_forward_c2_u4_a2_b4, 2, 4, 2, 4};
    return {"c1u4a2b1", joseph_forward_c1_u4_a2_b1, 1, 4, 2, 1};
}
static BackV backProduct(int k) {
    if (k % 8 == 0) return {"c8r4b8", joseph_back_c8_r4_b8, 8, 4, 8};
    if (k % 4 == 0) return {"c4r4b16", joseph_back_c4_r4_b16, 4, 4, 16};
    if (k % 2 == 0) return {"c2r4b8", joseph_back_c2_r4_b8, 2, 4, 8};
    return {"c1r4b1", joseph_back_c1_r4_b1, 1, 4, 1};
}

static void launchFwd(const FwdV& v, const float* img, float* sino, const long long* tab, const float* ftab, const int* ang, int na,
                      const Geo& g, int k) {
    int per = 256 / (v.B * (k / v.C));
    int groups = (na + v.A - 1) / v.A, rayGroups = (g.width + v.U - 1) / v.U;
    dim3 grid((unsigned)((rayGroups + per - 1) / per), (unsigned)((groups + v.B - 1) / v.B));
    v.f<<<grid, 256>>>(img, sino, tab, ftab, ang, na, g.rows, g.cols, g.width, k);
}
static void launchBack(const BackV& v, const float* sino, float* img, const long long* tab, const float* ftab, const int* ang, int na, const Geo& g, int k) {
    int per = 256 / (v.B * (k / v.C));
    int bands = (g.rows + v.R - 1) / v.R;
    dim3 grid((unsigned)((g.cols + per - 1) / per), (unsigned)((bands + v.B - 1) / v.B));
    v.f<<<grid, 256>>>(sino, img, tab, ftab, ang, na, g.rows, g.cols, g.width, k);
}

struct Dev {
    DBuf<double> c, s, o; DBuf<long long> tab; DBuf<float> ftab; DBuf<int> ang;
    void setup(const Geo& g, const std::vector<int>& angles) {
        c.alloc(g.np); s.alloc(g.np); o.alloc(g.np); tab.alloc(g.np * 8); ftab.alloc(g.np * 4); ang.alloc(std::max<size_t>(1, angles.size()));
        c.up(g.c); s.up(g.s); o.up(g.o); tab.up(g.tab); ftab.up(g.ftab); ang.up(angles);
    }
};

static bool check(int rows, int cols, int width, int np, int k, double shift, bool subset) {
    Geo g = makeGeo(rows, cols, width, np, true, shift);
    std::vector<int> angles;
    for (int p = 0; p < np; p++) if (!subset || p % 3 == 1) angles.push_back(p);
    int na = angles.size();
    Dev d; d.setup(g, angles);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> U(0, 1);
    std::vector<float> x((size_t)rows * cols * k), y((size_t)np * width * k);
    for (auto& v : x) v = U(rng);
    for (auto& v : y) v = U(rng);
    // old forward (c1, one projection at a time) on unpadded
    DBuf<float> xo, yo, xn, yn;
    xo.alloc(x.size()); yo.alloc(y.size()); xo.up(x);
    {
        dim3 grid((unsigned)(((long long)width * k + 255) / 256), na);
        old_joseph_forward_c1<<<grid, 256>>>(xo.p, yo.p, d.c.p, d.s.p, d.o.p, d.ang.p, rows, cols, width, k);
    }
    CK(cudaDeviceSynchronize());
    std::vector<float> refF = yo.down();
    std::vector<float> xp = padImage(x, rows, cols, k);
    xn.alloc(xp.size()); xn.up(xp);
    yn.alloc((size_t)np * (width + 2 * G) * k);
    FwdV fv = fwdProduct(k);
    launchFwd(fv, xn.p, yn.p, d.tab.p, d.ftab.p, d.ang.p, na, g, k);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    std::vector<float> ynp = yn.down(), newF = unpadSinoRows(ynp, np, width, k);
    // guards untouched
    double guardMax = 0;
    for (int p = 0; p < np; p++) for (int u = -G; u < 0; u++) for (int s = 0; s < k; s++) {
        guardMax = std::max(guardMax, (double)fabs(ynp[((size_t)p * (width + 2 * G) + G + u) * k + s]));
        guardMax = std::max(guardMax, (double)fabs(ynp[((size_t)p * (width + 2 * G) + G + width - u - 1) * k + s]));
    }
    double eF = relL2(newF, refF);
    // old adjoint c1
    DBuf<float> yo2, xo2; yo2.alloc(y.size()); yo2.up(y); xo2.alloc(x.size());
    {
        dim3 grid((unsigned)(((long long)cols * k + 255) / 256), rows);
        old_joseph_back_c1<<<grid, 256>>>(yo2.p, xo2.p, d.c.p, d.s.p, d.o.p, d.ang.p, na, rows, cols, width, k);
    }
    CK(cudaDeviceSynchronize());
    std::vector<float> refB = xo2.down();
    std::vector<float> yp = padSinoRows(y, np, width, k);
    DBuf<float> yn2, xn2; yn2.alloc(yp.size()); yn2.up(yp); xn2.alloc(xp.size());
    BackV bv = backProduct(k);
    launchBack(bv, yn2.p, xn2.p, d.tab.p, d.ftab.p, d.ang.p, na, g, k);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    std::vector<float> xnp = xn2.down(), newB = unpadImage(xnp, rows, cols, k);
    double guardB = 0;
    {
        std::vector<float> z = padImage(newB, rows, cols, k);
        for (size_t i = 0; i < z.size(); i++) if (z[i] == 0) guardB = std::max(guardB, (double)fabs(xnp[i]));
    }
    double eB = relL2(newB, refB);
    // adjointness of the new pair over the used angles: <A x, y> vs <x, A^T y>
    double ax = 0, aty = 0;
    for (int p : angles) for (int u = 0; u < width; u++) for (int s = 0; s < k; s++) {
        size_t i = ((size_t)p * width + u) * k + s;
        ax += (double)newF[i] * y[i];
    }
    for (size_t i = 0; i < x.size(); i++) aty += (double)x[i] * newB[i];
    double eA = fabs(ax - aty) / std::max(fabs(ax), 1e-30);
    bool ok = eF < 2e-6 && eB < 2e-6 && eA < 1e-5 && guardMax == 0 && guardB == 0;
    printf("check %4dx%-4d w%-4d np%-4d k%-2d %s fwd %s %.2e  back %s %.2e  adjoint %.2e  guards %g %g  %s\n", rows, cols, width,
           np, k, subset ? "subset" : "all   ", fv.name, eF, bv.name, eB, eA, guardMax, guardB, ok ? "ok" : "FAIL");
    return ok;
}

static float timeIt(std::function<void()> f, int reps, float* median) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    f(); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    std::vector<float> t;
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    *median = t[t.size() / 2];
    return t[0];
}

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2048, k = argc > 2 ? atoi(argv[2]) : 32, reps = argc > 3 ? atoi(argv[3]) : 3;
    bool allOk = true;
    allOk &= check(301, 333, 350, 181, 8, 3.3, false);
    allOk &= check(301, 333, 350, 181, 12, -2.1, false);
    allOk &= check(64, 40, 31, 60, 3, 0.4, false);
    allOk &= check(257, 257, 200, 90, 32, 0.0, false);
    allOk &= check(301, 333, 350, 181, 8, 3.3, true);
    allOk &= check(128, 96, 160, 45, 2, 1.7, true);
    printf("checks: %s\n", allOk ? "all ok" : "SOME FAILED");

    Geo g = makeGeo(n, n, n, n, false, 0.0);
    std::vector<int> angles(n);
    for (int p = 0; p < n; p++) angles[p] = p;
    Dev d; d.setup(g, angles);
    size_t img = (size_t)n * n * k, imgP = (size_t)(n + 2 * G) * (n + 2 * G) * k, sino = (size_t)n * n * k,
           sinoP = (size_t)n * (n + 2 * G) * k;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> U(0, 1);
    std::vector<float> x(img), y(sino);
    for (auto& v : x) v = U(rng);
    for (auto& v : y) v = U(rng);
    DBuf<float> xo, yo, xn, yn;
    xo.alloc(img); yo.alloc(sino); xn.alloc(imgP); yn.alloc(sinoP);
    xo.up(x); xn.up(padImage(x, n, n, k));
    double updates = (double)k * n * n * n;
    // baselines
    float med;
    float t0 = timeIt([&] {
        dim3 grid((unsigned)(((long long)n * (k / 8) + 255) / 256), (n + 3) / 4);
        old_joseph_forward_c8_a4<<<grid, 256>>>(xo.p, yo.p, d.c.p, d.s.p, d.o.p, d.ang.p, n, n, n, n, k);
    }, reps, &med);
    printf("%-28s %8.2f ms (median %8.2f)  %7.1f GU/s\n", "old forward c8_a4", t0, med, updates / t0 / 1e6);
    std::vector<float> refF = yo.down();
    FwdV fvs[] = {
#define F(C, U, A, B) {"forward c" #C "u" #U "a" #A "b" #B, joseph_forward_c##C##_u##U##_a##A##_b##B, C, U, A, B}
        F(8, 2, 2, 4), F(8, 2, 2, 8), F(8, 2, 1, 8), F(8, 2, 4, 2), F(8, 1, 2, 8), F(8, 1, 4, 4), F(4, 4, 2, 8), F(4, 2, 2, 8),
        F(4, 2, 4, 4), F(8, 4, 1, 4)};
    for (auto& v : fvs) {
        if (k % v.C) continue;
        CK(cudaMemset(yn.p, 0, sinoP * 4));
        float t = timeIt([&] { launchFwd(v, xn.p, yn.p, d.tab.p, d.ftab.p, d.ang.p, n, g, k); }, reps, &med);
        double e = relL2(unpadSinoRows(yn.down(), n, n, k), refF);
        printf("%-28s %8.2f ms (median %8.2f)  %7.1f GU/s  x%.2f  rel %.1e\n", v.name, t, med, updates / t / 1e6, t0 / t, e);
    }
    yo.up(y); yn.up(padSinoRows(y, n, n, k));
    float t1 = timeIt([&] {
        dim3 grid((unsigned)(((long long)n * (k / 8) + 255) / 256), (n + 3) / 4);
        old_joseph_back_c8_r4<<<grid, 256>>>(yo.p, xo.p, d.c.p, d.s.p, d.o.p, d.ang.p, n, n, n, n, k);
    }, reps, &med);
    printf("%-28s %8.2f ms (median %8.2f)  %7.1f GU/s\n", "old back c8_r4", t1, med, updates / t1 / 1e6);
    std::vector<float> refB = xo.down();
    BackV bvs[] = {
#define BK(C, R, B) {"back c" #C "r" #R "b" #B, joseph_back_c##C##_r##R##_b##B, C, R, B}
        BK(8, 4, 8), BK(8, 4, 16), BK(8, 2, 16), BK(8, 3, 8), BK(4, 4, 16), BK(4, 8, 8)};
    for (auto& v : bvs) {
        if (k % v.C) continue;
        float t = timeIt([&] { launchBack(v, yn.p, xn.p, d.tab.p, d.ftab.p, d.ang.p, n, g, k); }, reps, &med);
        double e = relL2(unpadImage(xn.down(), n, n, k), refB);
        printf("%-28s %8.2f ms (median %8.2f)  %7.1f GU/s  x%.2f  rel %.1e\n", v.name, t, med, updates / t / 1e6, t1 / t, e);
    }
    return allOk ? 0 : 1;
}
