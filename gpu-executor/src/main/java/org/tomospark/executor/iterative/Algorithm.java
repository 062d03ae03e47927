package org.tomospark.executor.iterative;

import org.tomospark.executor.util.EnumIds;

/** How slices are reconstructed: filtered back-projection, or one of the iterative methods. */
public enum Algorithm {
    /** Filtered back-projection (the backends' own path). */
    FBP("fbp"),
    /** Filtered back-projection done in Fourier space by regridding (gridrec), on CPUs. */
    GRIDREC("gridrec"),
    /** gridrec where the run's slices are computed on CPUs and the scan lies where its accuracy was measured, else fbp. */
    AUTO("auto"),
    /** Simultaneous iterative reconstruction on the −log sinograms, non-negative. */
    SIRT("sirt"),
    /** SIRT's update taken by ordered subsets of the projections (OS-SART), non-negative. */
    OS_SART("os-sart"),
    /** Conjugate gradients on the least-squares normal equations of the −log sinograms. */
    CGLS("cgls"),
    /** Maximum likelihood for transmission data, on the counts, with ordered subsets. */
    MLTR("mltr"),
    /** Total-variation regularised least squares on the −log sinograms, non-negative (Chambolle–Pock). */
    TV("tv");

    private final String id;

    Algorithm(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public boolean iterative() {
        return this != FBP && this != GRIDREC && this != AUTO;
    }

    /** Whether the method takes ordered subsets of the projections. */
    public boolean hasSubsets() {
        return this == OS_SART || this == MLTR;
    }

    public static Algorithm parse(String s) {
        return EnumIds.parse(values(), Algorithm::id, s, "algorithm");
    }

    public static String choices() {
        return EnumIds.choices(values(), Algorithm::id);
    }
}
