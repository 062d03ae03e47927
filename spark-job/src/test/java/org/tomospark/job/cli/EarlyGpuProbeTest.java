package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.Backends;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which command lines start the GPU backends' probes before they are parsed: runs that may end on a backend that runs on
 * the GPUs it is given (CUDA here), no others.
 */
class EarlyGpuProbeTest {

    private static boolean probes(String... args) {
        return TomoCli.mayUseGpus(args);
    }

    @Test
    void runsThatMayUseCudaProbeEarly() {
        assertTrue(probes("reconstruct", "--input", "scan.h5", "--output", "out"));
        assertTrue(probes("reconstruct", "--backend", "cuda", "--input", "scan.h5"));
        assertTrue(probes("reprocess", "arch", "--backend=auto"));
        assertTrue(probes("reconstruct", "--backend", "CUDA"), "backend ids are case-insensitive, as everywhere");
        assertTrue(Backends.mayRunOnAssignedGpus(null) && Backends.mayRunOnAssignedGpus(" "), "no backend named is auto");
        assertFalse(Backends.mayRunOnAssignedGpus("no-such-backend"));
    }

    @Test
    void otherBackendsAndCommandsDoNot() {
        assertFalse(probes("reconstruct", "--backend", "java", "--input", "scan.h5"));
        assertFalse(probes("reconstruct", "--backend=opencl"));
        assertFalse(probes("reconstruct", "--conf", "backend=java", "--input", "scan.h5"), "the backend as a setting");
        assertFalse(probes("reconstruct", "--conf=backend=opencl"));
        assertTrue(probes("reconstruct", "--conf", "backend.variant=alu", "--conf", "backend=cuda"), "backend.* keys are others");
        assertFalse(probes("reconstruct", "--algorithm", "gridrec", "--input", "scan.h5"), "gridrec runs on CPUs");
        assertFalse(probes("reconstruct", "--conf", "algorithm=GRIDREC"));
        assertTrue(probes("reconstruct", "--algorithm", "auto"), "auto may run FBP on a GPU");
        assertTrue(probes("reconstruct", "--conf", "backend=java", "--backend", "cuda"), "the option wins over --conf");
        assertFalse(probes("demo-data", "--output", "d.h5"));
        assertFalse(probes("backends"));
        assertFalse(probes());
        // an option's value that only looks like the flag is not taken for it
        assertFalse(probes("reprocess", "arch", "--backend", "java", "--output-root", "--backend"));
    }
}
