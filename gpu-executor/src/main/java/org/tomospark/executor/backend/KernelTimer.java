package org.tomospark.executor.backend;

import java.util.Arrays;

/**
 * Optional capability of a device backend, for benchmarks: time only the back-projection kernels on data
 * already on the device (no transfers, no filtering), with device events.
 */
public interface KernelTimer {

    /**
     * @param msPerRep        device time of each repetition, milliseconds
     * @param updatesPerRep   voxel updates per repetition (slices × ROI pixels × projections)
     * @param description     the kernel variant timed
     */
    record Timing(double[] msPerRep, long updatesPerRep, String description) {
        public double medianMs() {
            double[] a = msPerRep.clone();
            Arrays.sort(a);
            int n = a.length;
            return n % 2 == 1 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
        }

        /** Giga-updates per second at the median time. */
        public double gups() {
            return updatesPerRep / (medianMs() * 1e6);
        }
    }

    /**
     * Uploads (up to one pipeline chunk of) the batch's filtered sinograms once, runs {@code warmup} untimed
     * repetitions and then {@code reps} timed ones of the back-projection of those slices.
     */
    Timing timeKernels(SliceBatch batch, int warmup, int reps);
}
