package org.tomospark.executor.testing;

import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.SplittableRandom;

/** A scan geometry, the slice to reconstruct and one sinogram per slice: the input of a back-projection check. */
public record SinogramSet(ScanGeometry scan, SliceGeometry slice, float[][] sinograms) {

    public BackprojectionJob job(int count) {
        return new BackprojectionJob(scan, slice, count);
    }

    /** The sinograms (a copy: backends may not keep them intact), filtered or not. */
    public SliceBatch batch(boolean filtered) {
        return new SliceBatch(0, copy(sinograms), scan.numProjections(), scan.detectorWidth(), filtered);
    }

    /** A deep copy of a stack of sinograms. */
    public static float[][] copy(float[][] a) {
        float[][] c = new float[a.length][];
        for (int i = 0; i < a.length; i++) c[i] = a[i].clone();
        return c;
    }

    /**
     * White noise in [-1, 1) from a fixed seed on an awkward geometry: 333 columns, 181 projections over 180°, an
     * off-centre rotation axis (165.3) with a random per-projection axis correction, a full 333x317 slice.
     */
    public static SinogramSet offCentreNoise(int count, long seed) {
        int w = 333, np = 181;
        SplittableRandom r = new SplittableRandom(seed);
        double[] corr = new double[np];
        for (int p = 0; p < np; p++) corr[p] = r.nextDouble(-0.7, 0.7);
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(w).anglesRange(180, np).centerOfRotation(165.3)
                .axisCorrection(corr).build();
        float[][] s = new float[count][np * w];
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = (float) r.nextDouble(-1, 1);
        return new SinogramSet(scan, SliceGeometry.full(w, 317), s);
    }
}
