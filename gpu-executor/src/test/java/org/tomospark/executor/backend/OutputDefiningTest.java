package org.tomospark.executor.backend;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * What goes into a run signature: settings that change only the speed (threads, tiling, pipeline chunks, tuning, where
 * the correction runs) and other backends' settings are left out; what changes the bytes (kernel, storage,
 * interpolation) stays in.
 */
class OutputDefiningTest {
    static final BackendOptions BASE = BackendOptions.defaults().withSlicesPerPass(8).withFormat(SampleFormat.HALF);

    @Test
    void speedSettingsAndOtherBackendsSettingsAreLeftOut() {
        BackendOptions fast = BASE.withThreads(7).withDevice("gpu3").withExtra("cuda.chunkSlices", "64")
                .withExtra("cuda.autotune", "false").withExtra("cuda.correctOnDevice", "false").withExtra("java.tile", "64");
        assertEquals(Backends.outputDefining("cuda", BASE), Backends.outputDefining("cuda", fast));
        assertEquals(Backends.outputDefining("java", BASE), Backends.outputDefining("java", fast));
        assertEquals(Backends.outputDefining("auto", BASE), Backends.outputDefining("auto", fast));
        assertEquals(Backends.outputDefining("opencl", BASE), Backends.outputDefining("opencl", fast.withoutExtra("java.tile")));
    }

    @Test
    void whatChangesTheBytesStays() {
        assertNotEquals(Backends.outputDefining("cuda", BASE), Backends.outputDefining("cuda", BASE.withVariant("tc")));
        assertNotEquals(Backends.outputDefining("cuda", BASE), Backends.outputDefining("cuda", BASE.withSlicesPerPass(4)));
        assertNotEquals(Backends.outputDefining("cuda", BASE), Backends.outputDefining("cuda", BASE.withFormat(SampleFormat.FLOAT32)));
        assertNotEquals(Backends.outputDefining("java", BASE),
                Backends.outputDefining("java", BASE.withInterpolation(Interpolation.NEAREST)));
        assertNotEquals(Backends.outputDefining("java", BASE), Backends.outputDefining("java", BASE.withFormat(SampleFormat.FLOAT32)));
        // the java backend computes every slice alike whatever the interleaving and the variant
        assertEquals(Backends.outputDefining("java", BASE),
                Backends.outputDefining("java", BASE.withSlicesPerPass(2).withVariant("scalar")));
        assertNotEquals(Backends.outputDefining("opencl", BASE),
                Backends.outputDefining("opencl", BASE.withExtra("opencl.coords", "float")));
    }
}
