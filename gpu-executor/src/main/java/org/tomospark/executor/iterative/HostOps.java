package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.backend.SolverOps;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * {@link SolverOps} in Java arrays around any {@link Projector} (the Java pair, or a device's pair that takes and gives
 * host arrays): the element-wise work and the reductions run on the caller's fork-join pool, the reductions summed in
 * an order that does not depend on the number of threads.
 */
public final class HostOps implements SolverOps {
    private final Projector projector;
    private final boolean ownsProjector;

    private HostOps(Projector projector, boolean ownsProjector) {
        this.projector = projector;
        this.ownsProjector = ownsProjector;
    }

    /** Ops over {@code projector}, which the caller keeps and closes. */
    public static HostOps over(Projector projector) {
        return new HostOps(projector, false);
    }

    /** Ops that own {@code projector} and close it with themselves when it is closeable. */
    public static HostOps owning(Projector projector) {
        return new HostOps(projector, true);
    }

    /** The projector pair the ops project with. */
    public Projector projector() {
        return projector;
    }

    private static final class HostVec implements Vec {
        final float[] data;

        HostVec(float[] data) {
            this.data = data;
        }

        @Override
        public void close() {
            // garbage-collected
        }
    }

    private static float[] a(Vec v) {
        if (!(v instanceof HostVec h)) throw new IllegalArgumentException("not a host vector: " + v);
        return h.data;
    }

    @Override
    public Projector.Shape shape() {
        return projector.shape();
    }

    @Override
    public Vec image() {
        return new HostVec(new float[projector.pixels() * projector.slicesPerPass()]);
    }

    @Override
    public Vec sinogram() {
        return new HostVec(new float[projector.numProjections() * projector.detectorWidth() * projector.slicesPerPass()]);
    }

    @Override
    public Vec row(float[] host) {
        int n = projector.detectorWidth() * projector.slicesPerPass();
        if (host.length != n) throw new IllegalArgumentException("detector row holds " + host.length + " floats, expected " + n);
        return new HostVec(host.clone());
    }

    @Override
    public void upload(float[] host, Vec dst) {
        float[] d = a(dst);
        if (host.length != d.length)
            throw new IllegalArgumentException("upload of " + host.length + " floats into a vector of " + d.length);
        System.arraycopy(host, 0, d, 0, d.length);
    }

    @Override
    public void download(Vec src, float[] host) {
        float[] s = a(src);
        if (host.length != s.length)
            throw new IllegalArgumentException("download of a vector of " + s.length + " floats into " + host.length);
        System.arraycopy(s, 0, host, 0, s.length);
    }

    @Override
    public void fill(Vec v, float value) {
        Arrays.fill(a(v), value);
    }

    @Override
    public void copy(Vec src, Vec dst) {
        float[] s = a(src);
        System.arraycopy(s, 0, a(dst), 0, s.length);
    }

    @Override
    public void forward(Vec x, Vec y, int[] angles) {
        projector.forward(a(x), a(y), angles);
    }

    @Override
    public void back(Vec y, Vec x, int[] angles) {
        projector.back(a(y), a(x), angles);
    }

    @Override
    public double[] dots(Vec a, Vec b) {
        return Interleaved.dotsPerSlice(a(a), a(b), projector.slicesPerPass());
    }

    @Override
    public double distanceSquared(Vec a, Vec b) {
        return Interleaved.distanceSquared(a(a), a(b));
    }

    @Override
    public double[] distancesSquared(Vec a, Vec b) {
        return Interleaved.distancesSquared(a(a), a(b), projector.slicesPerPass());
    }

    @Override
    public void reciprocal(Vec v) {
        float[] d = a(v);
        Interleaved.forEach(d.length, (from, to) -> {
            for (int i = from; i < to; i++) d[i] = d[i] > 0 ? 1f / d[i] : 0f;
        });
    }

    @Override
    public void weightedResidual(Vec pv, Vec yv, Vec rv) {
        float[] p = a(pv), y = a(yv), r = a(rv);
        Interleaved.forEach(p.length, (from, to) -> {
            for (int i = from; i < to; i++) y[i] = (p[i] - y[i]) * r[i];
        });
    }

    @Override
    public void scaledUpdate(Vec xv, Vec cv, Vec uv, boolean nonNegative) {
        float[] x = a(xv), c = a(cv), u = a(uv);
        Interleaved.forEach(x.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                float v = x[i] + c[i] * u[i];
                x[i] = nonNegative && v < 0 ? 0f : v;
            }
        });
    }

    @Override
    public void subtractFrom(Vec bv, Vec rv) {
        float[] b = a(bv), r = a(rv);
        Interleaved.forEach(b.length, (from, to) -> {
            for (int i = from; i < to; i++) r[i] = b[i] - r[i];
        });
    }

    @Override
    public void axpy(float[] alpha, Vec xv, Vec yv) {
        float[] x = a(xv), y = a(yv);
        int k = checkCoefficients(alpha);
        Interleaved.forEach(x.length / k, (from, to) -> {
            for (int e = from; e < to; e++)
                for (int j = 0; j < k; j++) y[e * k + j] += alpha[j] * x[e * k + j];
        });
    }

    @Override
    public void xpby(Vec sv, float[] beta, Vec dv) {
        float[] s = a(sv), d = a(dv);
        int k = checkCoefficients(beta);
        Interleaved.forEach(s.length / k, (from, to) -> {
            for (int e = from; e < to; e++)
                for (int j = 0; j < k; j++) d[e * k + j] = s[e * k + j] + beta[j] * d[e * k + j];
        });
    }

    @Override
    public void counts(Vec blankv, Vec pv, Vec outv) {
        float[] blank = a(blankv), p = a(pv), out = a(outv);
        int rowLen = blank.length;
        Interleaved.forEach(p.length, (from, to) -> {
            for (int i = from; i < to; i++) out[i] = blank[i % rowLen] * (float) Math.exp(-p[i]);
        });
    }

    @Override
    public void likelihoodTerms(Vec linev, Vec blankv, Vec countsv, Vec rowSumv, int[] angles, Vec numv, Vec denv) {
        float[] line = a(linev), blank = a(blankv), counts = a(countsv), rowSum = a(rowSumv), num = a(numv), den = a(denv);
        int rowLen = blank.length;
        Interleaved.forEach(angles.length, (from, to) -> {
            for (int ai = from; ai < to; ai++) {
                int o = angles[ai] * rowLen;
                for (int e = 0; e < rowLen; e++) {
                    float expected = blank[e] * (float) Math.exp(-line[o + e]);
                    num[o + e] = expected - counts[o + e];
                    den[o + e] = rowSum[o + e] * expected;
                }
            }
        });
    }

    @Override
    public void ratioUpdate(Vec xv, Vec numv, Vec denv) {
        float[] x = a(xv), num = a(numv), den = a(denv);
        Interleaved.forEach(x.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                if (den[i] <= 0) continue;
                float v = x[i] + num[i] / den[i];
                x[i] = v < 0 ? 0f : v;
            }
        });
    }

    @Override
    public Vec weights() {
        return new HostVec(new float[projector.pixels()]);
    }

    @Override
    public void firstSlice(Vec imagev, Vec wv) {
        float[] img = a(imagev), w = a(wv);
        int k = projector.slicesPerPass();
        Interleaved.forEach(w.length, (from, to) -> {
            for (int p = from; p < to; p++) w[p] = img[p * k];
        });
    }

    @Override
    public void weightedUpdate(Vec xv, Vec wv, Vec uv, boolean nonNegative) {
        float[] x = a(xv), w = a(wv), u = a(uv);
        int k = projector.slicesPerPass();
        Interleaved.forEach(w.length, (from, to) -> {
            for (int p = from; p < to; p++) {
                float c = w[p];
                for (int s = 0, i = p * k; s < k; s++, i++) {
                    float v = x[i] + c * u[i];
                    x[i] = nonNegative && v < 0 ? 0f : v;
                }
            }
        });
    }

    @Override
    public double[] subsetResidual(Vec pv, Vec yv, Vec rv, int[] angles) {
        float[] p = a(pv), y = a(yv), r = a(rv);
        int k = projector.slicesPerPass(), rowLen = projector.detectorWidth() * k;
        double[][] part = new double[angles.length][];
        // per row and slice a sum in column order, the rows' sums added in order: the same on any number of threads and
        // for any k
        IntStream.range(0, angles.length).parallel().forEach(ai -> {
            double[] sum = new double[k];
            for (int i = angles[ai] * rowLen, end = i + rowLen, s = 0; i < end; i++, s = s + 1 == k ? 0 : s + 1) {
                float d = p[i] - y[i];
                sum[s] += (double) d * d;
                y[i] = d * r[i];
            }
            part[ai] = sum;
        });
        double[] out = new double[k];
        for (double[] row : part) for (int s = 0; s < k; s++) out[s] += row[s];
        return out;
    }

    @Override
    public void offsetReciprocal(Vec v, float offset) {
        float[] d = a(v);
        Interleaved.forEach(d.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                float t = d[i] + offset;
                d[i] = t > 0 ? 1f / t : 0f;
            }
        });
    }

    @Override
    public void dataDual(Vec qv, Vec yv, Vec pv, Vec sigmav) {
        float[] q = a(qv), y = a(yv), p = a(pv), sigma = a(sigmav);
        Interleaved.forEach(q.length, (from, to) -> {
            for (int i = from; i < to; i++) q[i] = (q[i] + sigma[i] * (y[i] - p[i])) / (1f + sigma[i]);
        });
    }

    @Override
    public void tvDual(Vec zx, Vec zy, Vec xbar, float sigma, float[] weight) {
        Projector.Shape sh = projector.shape();
        checkCoefficients(weight);
        TotalVariation.dual(a(zx), a(zy), a(xbar), sigma, weight, sh.rows(), sh.cols(), sh.k());
    }

    @Override
    public void tvPrimal(Vec x, Vec xbar, Vec u, Vec zx, Vec zy, Vec tau, boolean nonNegative) {
        Projector.Shape sh = projector.shape();
        TotalVariation.primal(a(x), a(xbar), a(u), a(zx), a(zy), a(tau), nonNegative, sh.rows(), sh.cols(), sh.k());
    }

    private int checkCoefficients(float[] c) {
        if (c.length != projector.slicesPerPass())
            throw new IllegalArgumentException(c.length + " coefficients for " + projector.slicesPerPass() + " slices");
        return c.length;
    }

    @Override
    public void close() {
        if (ownsProjector && projector instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the " + projector.getClass().getSimpleName(), e);
            }
        }
    }
}
