package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.Projector;
import org.tomospark.executor.backend.SolverOps.Vec;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.util.ImageErrors;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two {@link SolverOps} of the same shape (a device's and the host's) driven with the same random vectors, operation by
 * operation: every result downloaded and compared. A projection after the updates reads the guards a device layout
 * keeps around its lines, so an update that wrote them shows as a projection that differs.
 */
final class OpsPair {
    private final SolverOps dev, host;
    private final Random rnd;
    private final int k, imageLen, sinoLen, rowLen;

    OpsPair(SolverOps dev, SolverOps host, Random rnd) {
        this.dev = dev;
        this.host = host;
        this.rnd = rnd;
        Projector.Shape s = host.shape();
        assertEquals(s, dev.shape());
        k = s.k();
        imageLen = s.rows() * s.cols() * k;
        sinoLen = s.projections() * s.width() * k;
        rowLen = s.width() * k;
    }

    /** A vector on both sides with the same random content in [lo, hi). */
    private final class Both implements AutoCloseable {
        final Vec d, h;
        final int len;

        Both(boolean image, float lo, float hi) {
            d = image ? dev.image() : dev.sinogram();
            h = image ? host.image() : host.sinogram();
            len = image ? imageLen : sinoLen;
            float[] v = new float[len];
            for (int i = 0; i < len; i++) v[i] = lo + (hi - lo) * rnd.nextFloat();
            dev.upload(v, d);
            host.upload(v, h);
        }

        void check(String what, double tolerance) {
            float[] a = new float[len], b = new float[len];
            dev.download(d, a);
            host.download(h, b);
            double e = ImageErrors.relL2(a, b);
            assertTrue(e <= tolerance, what + ": device against host, relative L2 " + e);
        }

        @Override
        public void close() {
            d.close();
            h.close();
        }
    }

    private Both image(float lo, float hi) {
        return new Both(true, lo, hi);
    }

    private Both sino(float lo, float hi) {
        return new Both(false, lo, hi);
    }

    private static void both(Both a, Both b, Both c, TriOp op) {
        op.apply(a.d, b.d, c.d, true);
        op.apply(a.h, b.h, c.h, false);
    }

    private interface TriOp {
        void apply(Vec a, Vec b, Vec c, boolean device);
    }

    void compareAll() {
        int[] all = host.allAngles(), subset = new int[(all.length + 2) / 3];
        for (int i = 0; i < subset.length; i++) subset[i] = 3 * i + 1 < all.length ? 3 * i + 1 : all.length - 1;
        float[] alpha = new float[k], beta = new float[k];
        for (int s = 0; s < k; s++) {
            alpha[s] = rnd.nextFloat() - 0.5f;
            beta[s] = rnd.nextFloat();
        }
        float[] blankHost = new float[rowLen];
        for (int i = 0; i < rowLen; i++) blankHost[i] = 100 + 900 * rnd.nextFloat();
        try (Both x = image(-1, 1); Both c = image(0, 2); Both u = image(-1, 1); Both p = sino(0, 3); Both y = sino(0, 3);
             Both r = sino(0, 2); Vec bd = dev.row(blankHost); Vec bh = host.row(blankHost)) {
            assertArrayEquals(host.dots(x.h, u.h), dev.dots(x.d, u.d), 1e-9 * imageLen, "per-slice dots");
            assertEquals(host.distanceSquared(p.h, y.h), dev.distanceSquared(p.d, y.d), 1e-9 * sinoLen, "distance squared");
            both(p, y, r, (a, b, cc, d) -> (d ? dev : host).weightedResidual(a, b, cc));
            y.check("weighted residual", 1e-7);
            both(x, c, u, (a, b, cc, d) -> (d ? dev : host).scaledUpdate(a, b, cc, false));
            x.check("scaled update", 1e-7);
            both(x, c, u, (a, b, cc, d) -> (d ? dev : host).scaledUpdate(a, b, cc, true));
            x.check("scaled update, non-negative", 1e-7);
            both(p, r, r, (a, b, cc, d) -> (d ? dev : host).subtractFrom(a, b));
            r.check("subtraction", 1e-7);
            both(u, x, x, (a, b, cc, d) -> (d ? dev : host).axpy(alpha, a, b));
            x.check("axpy", 1e-7);
            both(u, x, x, (a, b, cc, d) -> (d ? dev : host).xpby(a, beta, b));
            x.check("xpby", 1e-7);
            both(c, c, c, (a, b, cc, d) -> (d ? dev : host).reciprocal(a));
            c.check("reciprocal", 1e-7);
            both(u, c, c, (a, b, cc, d) -> (d ? dev : host).copy(a, b));
            c.check("copy", 0);
            both(x, x, x, (a, b, cc, d) -> (d ? dev : host).fill(a, 1.5f));
            x.check("fill", 0);
            // rays that pass beside the image interpolate between its edge and the guards: a fill that reached the
            // guards would show here
            both(x, r, r, (a, b, cc, d) -> (d ? dev : host).forward(a, b, all));
            r.check("forward projection of a filled image", 1e-6);
            // MLTR's terms on a subset of the projections, then its update
            try (Both counts = sino(0, 1); Both num = sino(0, 1); Both den = sino(0, 1); Both rowSum = sino(1, 30)) {
                dev.counts(bd, p.d, counts.d);
                host.counts(bh, p.h, counts.h);
                counts.check("measured counts", 1e-7);
                dev.likelihoodTerms(y.d, bd, counts.d, rowSum.d, subset, num.d, den.d);
                host.likelihoodTerms(y.h, bh, counts.h, rowSum.h, subset, num.h, den.h);
                num.check("likelihood numerator (only the subset's rows written)", 1e-6);
                den.check("likelihood denominator", 1e-6);
                try (Both gn = image(-1, 1); Both gd = image(-0.2f, 1)) {
                    both(u, gn, gd, (a, b, cc, d) -> (d ? dev : host).ratioUpdate(a, b, cc));
                    u.check("ratio update", 1e-6);
                }
            }
            // projections after every update: the device's guards must still be zero
            both(u, y, y, (a, b, cc, d) -> (d ? dev : host).forward(a, b, subset));
            y.check("forward projection of a subset", 1e-6);
            both(r, u, u, (a, b, cc, d) -> (d ? dev : host).back(a, b, all));
            u.check("back-projection", 1e-6);
        }
    }
}
