package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.geometry.ConeGeometry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The projection matrices of a geometry as the FDK kernels take them: row-major 3×4 doubles, normalised so that w = 1
 * at the isocentre (ConeGeometry's convention, checked here), in chunks that fit the kernels' constant memory, and the
 * launches of a chunk (a block keeps its view of every projection of a launch in shared memory). Also whether u and w
 * do not depend on z (P[0][2] = P[2][2] = 0, every circular trajectory), which lets the column kernels share them down a
 * column of voxels.
 */
final class FdkMatrices {
    /** Matrices in constant memory at once (FDK_MAX_PROJECTIONS of kernels/fdk.cuh). */
    static final int CONSTANT_PROJECTIONS = KernelFacts.FDK_MAX_PROJECTIONS;
    /**
     * Projections of one launch unless the kernel takes more (FdkVariant.launchProjections): its blocks hold
     * FdkVariant.LOCAL_BYTES of shared memory for each.
     */
    static final int LAUNCH_PROJECTIONS = 128;

    /** Projections [first, first + count). */
    record Range(int first, int count) {
    }

    private final double[] packed;
    private final boolean zInvariant;

    FdkMatrices(ConeGeometry g) {
        int np = g.numProjections();
        packed = new double[np * 12];
        boolean invariant = true;
        for (int p = 0; p < np; p++) {
            double[] m = g.matrix(p).m();
            if (Math.abs(m[11] - 1) > 1e-9)
                throw new IllegalArgumentException("projection matrix " + p + " is not normalised (w = " + m[11] + " at the isocentre)");
            System.arraycopy(m, 0, packed, p * 12, 12);
            invariant &= m[2] == 0 && m[10] == 0;
        }
        zInvariant = invariant;
    }

    int count() {
        return packed.length / 12;
    }

    /** Whether u and w of every projection are independent of z (the column kernels apply). */
    boolean zInvariant() {
        return zInvariant;
    }

    /** The matrices of projections r, packed for constant memory. */
    double[] constants(Range r) {
        return Arrays.copyOfRange(packed, r.first() * 12, (r.first() + r.count()) * 12);
    }

    /** Consecutive chunks of at most {@link #CONSTANT_PROJECTIONS} covering [0, np). */
    static List<Range> chunks(int np) {
        return split(new Range(0, np), CONSTANT_PROJECTIONS);
    }

    /** Launches of a chunk: at most {@link #LAUNCH_PROJECTIONS} projections each, as even as possible. */
    static List<Range> launches(Range chunk) {
        return launches(chunk, LAUNCH_PROJECTIONS);
    }

    /** Launches of a chunk: at most {@code most} projections each (FdkVariant.launchProjections), as even as possible. */
    static List<Range> launches(Range chunk, int most) {
        if (most < 1) throw new IllegalArgumentException("cuda fdk: launches of " + most + " projections");
        return split(chunk, most);
    }

    private static List<Range> split(Range r, int most) {
        List<Range> l = new ArrayList<>();
        int parts = Math.max(1, (r.count() + most - 1) / most);
        for (int i = 0, at = r.first(); i < parts; i++) {
            int c = r.count() / parts + (i < r.count() % parts ? 1 : 0);
            l.add(new Range(at, c));
            at += c;
        }
        return l;
    }
}
