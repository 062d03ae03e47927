package org.tomospark.executor.backend;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.backends.cuda.CudaKeys;
import org.tomospark.executor.params.CoreKeys;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the engines ask the providers when they plan devices, with the backends this build installs (java, cuda, opencl,
 * and the tests' toy): none of it needs a GPU or loads a native library.
 */
class BackendPlanningTest {
    private static List<String> ids(List<BackendProvider> l) {
        return l.stream().map(BackendProvider::id).toList();
    }

    @Test
    void autoIsPlannedOntoTheGpuBackendWithGpusAndOntoTheHostsWithout() {
        assertEquals("cuda", Backends.planned("auto", true).id());
        assertEquals("java", Backends.planned("auto", false).id());
        assertEquals("java", Backends.planned(null, false).id(), "no backend named is auto");
        assertEquals("opencl", Backends.planned("opencl", true).id(), "a backend named is planned as named");
        assertEquals("java", Backends.onHostCpus());
    }

    @Test
    void onlyTheBackendsThatRunOnAssignedGpusTakeThem() {
        assertEquals(List.of("cuda"), ids(Backends.onAssignedGpus("auto")));
        assertEquals(List.of("cuda"), ids(Backends.onAssignedGpus(" CUDA ")));
        assertEquals(List.of(), ids(Backends.onAssignedGpus("opencl")), "OpenCL picks its device by backend.device");
        assertTrue(Backends.mayRunOnAssignedGpus("auto"));
        assertFalse(Backends.mayRunOnAssignedGpus("java"));
        assertFalse(Backends.mayRunOnAssignedGpus("toy"));
        assertTrue(Backends.of("java").runsOnHostCpus());
        assertFalse(Backends.of("cuda").runsOnHostCpus());
        assertFalse(Backends.of("toy").runsOnHostCpus(), "a backend says so itself; the default is not");
    }

    /** A backend added as one package (the tests' toy) is selectable by the backend key with no edit elsewhere. */
    @Test
    void theBackendKeyTakesEveryInstalledBackend() {
        assertEquals("toy", CoreKeys.BACKEND.parse(" TOY "));
        assertEquals("auto", CoreKeys.BACKEND.parse(""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CoreKeys.BACKEND.parse("tyo"));
        assertTrue(e.getMessage().startsWith("config key backend: invalid value 'tyo': expected auto or an installed backend: ")
                && e.getMessage().contains("toy") && e.getMessage().endsWith("(did you mean 'toy'?)"), e.getMessage());
    }

    @Test
    void sharingADeviceAndTheSameBytesOnEveryDeviceLeaveWhatTheUserSet() {
        BackendProvider cuda = Backends.of("cuda");
        BackendOptions o = BackendOptions.defaults();
        BackendOptions shared = cuda.sharingOneDevice(cuda.sameBytesOnEveryDevice(o), 3);
        assertEquals("3", shared.extra().get(CudaKeys.PROCESSORS_PER_DEVICE.name()));
        assertEquals("false", shared.extra().get(CudaKeys.AUTOTUNE.name()));
        BackendOptions mine = o.withExtra(CudaKeys.PROCESSORS_PER_DEVICE.name(), "1")
                .withExtra(CudaKeys.AUTOTUNE.name(), "true");
        assertSame(mine, cuda.sharingOneDevice(cuda.sameBytesOnEveryDevice(mine), 3));
        BackendProvider java = Backends.of("java");
        assertSame(o, java.sharingOneDevice(java.sameBytesOnEveryDevice(o), 3), "the host's backend has no device to share");
        assertFalse(java.correctsOnDevice(o) || java.fillsDirectFrames());
        assertTrue(cuda.fillsDirectFrames());
        assertTrue(cuda.correctsOnDevice(o), "by default the CUDA backend corrects raw counts on its device");
        assertFalse(cuda.correctsOnDevice(o.withExtra(CudaKeys.CORRECT_ON_DEVICE.name(), "false")), "unless told not to");
    }
}
