package org.tomospark.executor.backends.cuda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tomospark.executor.backend.Interpolation.LINEAR;
import static org.tomospark.executor.backend.Interpolation.NEAREST;
import static org.tomospark.executor.backend.SampleFormat.FLOAT32;
import static org.tomospark.executor.backend.SampleFormat.HALF;

/** How a job's variant is chosen, without a device: the tuner is a stand-in that records its calls. */
class VariantSelectorTest {
    private static final String DEVICE = "Test GPU";
    private static final int HOPPER_SHARED = 227 * 1024;
    private final List<String> sweeps = new ArrayList<>();

    private VariantSelector selector(int maxShared) {
        return new VariantSelector(KernelVariantTest.PRODUCT, "v1", DEVICE, maxShared);
    }

    private VariantSelector.Tuner tuner(String pick) {
        return (k, f, in) -> {
            sweeps.add(KernelVariant.modeKey(k, f, in));
            return pick;
        };
    }

    private static BackendOptions options(Path cache, int k, SampleFormat f, Interpolation in, boolean autotune) {
        return BackendOptions.defaults().withSlicesPerPass(k).withFormat(f).withInterpolation(in).withVariant("auto")
                .withExtra("cuda.autotune", Boolean.toString(autotune)).withExtra("cuda.tuningCache", cache.toString());
    }

    /** A tuning cache in {@code dir} holding {@code variant} for {@code mode} on the test device. */
    private static Path cacheHolding(Path dir, String mode, String variant) throws Exception {
        Path cache = dir.resolve("tuning.properties");
        TuningTable t = new TuningTable();
        t.putForDevice(DEVICE + " kernels v1", mode, variant);
        t.store(cache, "test");
        return cache;
    }

    @Test
    void aNamedVariantIsUsedAsNamed(@TempDir Path tmp) {
        VariantSelector.Selection s = selector(48 * 1024).select(options(tmp.resolve("c"), 8, HALF, LINEAR, true)
                .withVariant("tc:t32x32"), 8, 181, 16, tuner("never"));
        // neither the device's 48 KiB nor the 16-slice batches replace a requested variant (validate then refuses it)
        assertEquals("tc:t32x32", s.variant().id());
        assertEquals("requested", s.source());
        assertTrue(sweeps.isEmpty());
    }

    @Test
    void withoutTuningTheFallbackTableDecides(@TempDir Path tmp) {
        VariantSelector.Selection s = selector(HOPPER_SHARED).select(options(tmp.resolve("c"), 8, HALF, LINEAR, false), 8, 181, 64,
                tuner("never"));
        assertEquals("tc:t32x16", s.variant().id());
        assertEquals("fallback table", s.source());
        s = selector(HOPPER_SHARED).select(options(tmp.resolve("c"), 4, FLOAT32, NEAREST, false), 4, 181, 64, tuner("never"));
        assertEquals("alu:t32p4", s.variant().id());
        assertTrue(sweeps.isEmpty());
    }

    @Test
    void withoutTuningACachedChoiceIsNotTaken(@TempDir Path tmp) throws Exception {
        // executors of one job, each with its host's cache: with tuning off they all take the table's variant
        Path cache = cacheHolding(tmp, "k8.half.linear", "alu:t32p8:h8p:win");
        VariantSelector.Selection s = selector(HOPPER_SHARED).select(options(cache, 8, HALF, LINEAR, false), 8, 181, 64,
                tuner("never"));
        assertEquals("tc:t32x16", s.variant().id());
        assertEquals("fallback table", s.source());
        assertTrue(sweeps.isEmpty());
        // the same cache is taken where tuning is on
        s = selector(HOPPER_SHARED).select(options(cache, 8, HALF, LINEAR, true), 8, 181, 64, tuner("never"));
        assertEquals("alu:t32p8:h8p:win", s.variant().id());
        assertEquals("tuned, cached in " + cache, s.source());
        assertTrue(sweeps.isEmpty());
    }

    @Test
    void smallBatchesAndSmallerGpusGetReplacements(@TempDir Path tmp) {
        VariantSelector.Selection s = selector(HOPPER_SHARED).select(options(tmp.resolve("c"), 8, HALF, LINEAR, false), 8, 181, 16,
                tuner("never"));
        assertEquals("alu:t32p8:h8p:win", s.variant().id());
        assertEquals("fallback table; tc:t32x16 takes 32 slices per block, batches hold at most 16, using alu:t32p8:h8p:win", s.source());
        s = selector(99 * 1024).select(options(tmp.resolve("c"), 4, HALF, LINEAR, false), 4, 181, 64, tuner("never"));
        assertEquals("tc:t32x16", s.variant().id());
        assertEquals("fallback table; tc:t32x32 needs 115840 bytes of shared memory, Test GPU allows 101376, using tc:t32x16",
                s.source());
        s = selector(64 * 1024).select(options(tmp.resolve("c"), 4, HALF, LINEAR, false), 4, 181, 64, tuner("never"));
        assertEquals("alu:t32p8:adv", s.variant().id());
    }

    @Test
    void aTunedChoiceIsCachedPerDeviceAndKernelBuild(@TempDir Path tmp) throws Exception {
        Path cache = tmp.resolve("tuning.properties");
        VariantSelector.Selection s = selector(HOPPER_SHARED).select(options(cache, 2, FLOAT32, LINEAR, true), 2, 181, 64,
                tuner("alu:t32p8:adv"));
        assertEquals("alu:t32p8:adv", s.variant().id());
        assertEquals("tuned now", s.source());
        assertEquals(List.of("k2.float32.linear"), sweeps);
        assertEquals("alu:t32p8:adv", TuningTable.load(cache).forDevice(DEVICE + " kernels v1", "k2.float32.linear"));
        s = selector(HOPPER_SHARED).select(options(cache, 2, FLOAT32, LINEAR, true), 2, 181, 64, tuner("never"));
        assertEquals("alu:t32p8:adv", s.variant().id());
        assertEquals("tuned, cached in " + cache, s.source());
        assertEquals(1, sweeps.size(), "the cached choice is not tuned again");
        // another kernel build tunes again
        new VariantSelector(KernelVariantTest.PRODUCT, "v2", DEVICE, HOPPER_SHARED)
                .select(options(cache, 2, FLOAT32, LINEAR, true), 2, 181, 64, tuner("alu"));
        assertEquals(2, sweeps.size());
    }

    @Test
    void textureKernelsGiveWayToAluPastTheirConstantMemory(@TempDir Path tmp) throws Exception {
        Path cache = cacheHolding(tmp, "k1.float32.linear", "std");
        VariantSelector.Selection s = selector(HOPPER_SHARED).select(options(cache, 1, FLOAT32, LINEAR, true), 1, 4096, 8, tuner("never"));
        assertEquals("std", s.variant().id());
        s = selector(HOPPER_SHARED).select(options(cache, 1, FLOAT32, LINEAR, true), 1, 4097, 8, tuner("never"));
        assertEquals("alu:t32p8:adv", s.variant().id());
        assertEquals("tuned, cached in " + cache + "; std cannot take 4097 projections, using alu", s.source());
    }
}
