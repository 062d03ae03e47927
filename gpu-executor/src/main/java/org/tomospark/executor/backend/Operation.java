package org.tomospark.executor.backend;

import java.util.Locale;

/**
 * What a backend computes. Every backend back-projects for FBP ({@link BackendProvider#create}); cone-beam FDK
 * ({@link BackendProvider#openFdk}) and the iterative methods' projector pair ({@link BackendProvider#openSolverOps})
 * are offered where the backend says so ({@link BackendProvider#operations}).
 */
public enum Operation {
    /** Filtered back-projection of parallel-beam sinograms, several slices per pass. */
    FBP("filtered back-projection"),
    /** FDK's voxel-driven back-projection of cone-beam projections into z-slabs. */
    FDK("cone-beam FDK"),
    /** The matched forward and back projection, with the solvers' vector operations. */
    PROJECTOR_PAIR("the iterative methods' projector pair");

    private final String words;

    Operation(String words) {
        this.words = words;
    }

    /** The operation in words, for errors and reports. */
    public String words() {
        return words;
    }

    /** The id as reports and errors print it: fbp, fdk, projector-pair. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
