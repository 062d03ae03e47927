package org.tomospark.executor.backends.opencl;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.backends.java.JavaBackend;


/** The Java-backend reference and a plain run of a backend, for the OpenCL tests. */
final class TestData {
    private TestData() {
    }

    /** The Java backend's (scalar, double-coordinate) result: the specification. */
    static float[][] javaReference(BackendOptions o, BackprojectionJob job, float[][] sinos) {
        try (JavaBackend j = new JavaBackend()) {
            j.setup(o.withVariant("scalar").withThreads(2));
            j.validate(job);
            return run(j, job, sinos, true);
        }
    }

    static float[][] run(BackprojectionBackend b, BackprojectionJob job, float[][] sinos, boolean filtered) {
        float[][] out = new float[sinos.length][job.slice().pixels()];
        b.process(new SliceBatch(0, sinos, job.scan().numProjections(), job.scan().detectorWidth(), filtered), out);
        return out;
    }
}
