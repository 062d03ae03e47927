package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Backends;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs everywhere: on a machine without a GPU the provider must say why, and forcing "cuda" must fail clearly. */
class CudaAvailabilityTest {

    @Test
    void providerIsRegistered() {
        assertTrue(Backends.availability().containsKey("cuda"));
        assertTrue(Backends.availability().containsKey("java"));
    }

    @Test
    void withoutGpuTheReasonIsClearAndForcingCudaFails() {
        String reason = new CudaBackendProvider().unavailableReason();
        Assumptions.assumeTrue(reason != null, "a CUDA device is present here");
        assertTrue(reason.contains("CUDA driver"), reason);
        assertFalse(reason.contains("\n"), "one line: " + reason);
        assertSame(reason, new CudaBackendProvider().unavailableReason(), "probed once and cached");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Backends.resolve("cuda"));
        assertTrue(e.getMessage().contains("backend 'cuda' was requested but cannot run here"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> Backends.open("cuda", BackendOptions.defaults()));
        assertEquals("java", Backends.resolve("auto").id(), "auto falls back to java");
    }

    @Test
    void deviceOptionAcceptsIndicesAndSparkAddresses() {
        assertEquals(0, CudaDevice.parseDevice(""));
        assertEquals(0, CudaDevice.parseDevice(null));
        assertEquals(3, CudaDevice.parseDevice("3"));
        assertEquals(1, CudaDevice.parseDevice("gpu1"));
        assertEquals(12, CudaDevice.parseDevice("cuda:12"));
        assertThrows(IllegalArgumentException.class, () -> CudaDevice.parseDevice("first"));
    }

    @Test
    void cudaErrorNamesAndStickiness() {
        assertEquals("CUDA_ERROR_ILLEGAL_ADDRESS", CudaException.nameFrom("CUDA_ERROR_ILLEGAL_ADDRESS"));
        assertEquals("CUDA_ERROR_OUT_OF_MEMORY", CudaException.nameFrom("jcuda: CUDA_ERROR_OUT_OF_MEMORY (2)"));
        assertEquals("CUDA_ERROR_UNKNOWN", CudaException.nameFrom(null));
        CudaException sticky = new CudaException("launching x", "CUDA_ERROR_LAUNCH_FAILED", null);
        assertTrue(sticky.sticky());
        assertTrue(sticky.getMessage().contains("CUDA_ERROR_LAUNCH_FAILED") && sticky.getMessage().contains("unusable"));
        CudaException oom = new CudaException("allocating", "CUDA_ERROR_OUT_OF_MEMORY", null);
        assertFalse(oom.sticky());
        assertEquals("CUDA_ERROR_OUT_OF_MEMORY", oom.errorName());
    }
}
