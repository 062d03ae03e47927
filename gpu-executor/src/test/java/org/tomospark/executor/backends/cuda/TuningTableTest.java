package org.tomospark.executor.backends.cuda;

import org.tomospark.executor.backends.java.JavaKeys;
import org.tomospark.executor.backend.BackendOptions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.nio.file.Path;
import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TuningTableTest {

    @Test
    void parsesGenericAndDeviceEntries() {
        TuningTable t = TuningTable.parse("""
                # comment
                k4.half.linear = hybrid:t32p8:s8:adv
                nvidia-h200/k4.half.linear = alu:t32p4:adv
                """);
        assertEquals("hybrid:t32p8:s8:adv", t.generic("k4.half.linear"));
        assertEquals("alu:t32p4:adv", t.forDevice("NVIDIA H200", "k4.half.linear"));
        assertNull(t.forDevice("NVIDIA H100 80GB HBM3", "k4.half.linear"));
        assertNull(t.generic("k2.half.linear"));
    }

    @Test
    void deviceKeyIsNormalised() {
        assertEquals("nvidia-h100-80gb-hbm3", TuningTable.deviceKey("NVIDIA H100 80GB HBM3"));
        assertEquals("nvidia-geforce-rtx-4090", TuningTable.deviceKey("  NVIDIA GeForce RTX 4090 "));
    }

    @Test
    void rejectsMalformedEntries() {
        assertThrows(IllegalArgumentException.class, () -> TuningTable.parse("k4.half.linear =\n"));
        assertThrows(IllegalArgumentException.class, () -> TuningTable.parse("nonsense = alu\n"));
    }

    @Test
    void storeAndLoadRoundTrip(@TempDir Path dir) throws Exception {
        TuningTable t = new TuningTable();
        t.putForDevice("NVIDIA H200", "k8.half.linear", "alu:t32p4:std");
        Path f = dir.resolve("sub/cache.properties");
        t.store(f, "test");
        TuningTable u = TuningTable.load(f);
        assertEquals(Map.of("nvidia-h200/k8.half.linear", "alu:t32p4:std"), u.entries());
        assertTrue(TuningTable.load(dir.resolve("absent")).entries().isEmpty());
    }

    @Test
    void committedFallbackCoversEveryModeWithCompiledVariants() {
        TuningTable t = TuningTable.fallback();
        int n = 0;
        for (int k : new int[]{1, 2, 4, 8})
            for (SampleFormat f : SampleFormat.values())
                for (Interpolation i : Interpolation.values()) {
                    String mode = KernelVariant.modeKey(k, f, i);
                    String v = t.generic(mode);
                    assertNotNull(v, "conf/cuda-tuning.properties lacks " + mode);
                    KernelVariant kv = KernelBuild.packaged().catalog().parse(v, k, f, i);
                    assertEquals(i, kv.interpolation());
                    n++;
                }
        assertEquals(16, n);
    }

    @Test
    void everyAllowedSlicesPerPassMapsToAModeOfTheTable() {
        // backend.slicesPerPass 0 (auto) and 16 are allowed by the options; the CUDA backend runs 8 (half) / 2 (float32)
        // for auto and 8 for 16, so the fallback table and the tuning cache always have a mode to look up
        BackendOptions d = BackendOptions.defaults();
        assertEquals(8, CudaBackend.slicesPerPass(d.withSlicesPerPass(0).withFormat(SampleFormat.HALF)));
        assertEquals(4, CudaBackend.slicesPerPass(d.withSlicesPerPass(0).withFormat(SampleFormat.FLOAT32)));
        assertEquals(8, CudaBackend.slicesPerPass(d.withSlicesPerPass(16)));
        for (int k : new int[]{0, 1, 2, 4, 8, 16})
            for (SampleFormat f : SampleFormat.values()) {
                int run = CudaBackend.slicesPerPass(d.withSlicesPerPass(k).withFormat(f));
                assertTrue(k == 0 || k == 16 || run == k, k + " -> " + run);
                assertNotNull(TuningTable.fallback().generic(KernelVariant.modeKey(run, f, Interpolation.LINEAR)), k + " " + f);
            }
    }

    @Test
    void backendSettingsAreTypedKeysThatNameThemselves() {
        BackendOptions o = BackendOptions.defaults().withExtra("cuda.autotune", "maybe").withExtra("cuda.chunkSlices", "-1")
                .withExtra("cuda.memoryFraction", "0,5").withExtra("java.tile", "16");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.get(CudaKeys.AUTOTUNE));
        assertTrue(e.getMessage().startsWith("config key cuda.autotune: invalid value 'maybe'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> o.get(CudaKeys.CHUNK_SLICES));
        assertTrue(e.getMessage().startsWith("config key cuda.chunkSlices: invalid value '-1'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> o.get(CudaKeys.MEMORY_FRACTION));
        assertTrue(e.getMessage().startsWith("config key cuda.memoryFraction: invalid value '0,5'"), e.getMessage());
        assertEquals(16, o.get(JavaKeys.TILE));
        assertEquals(128, o.get(JavaKeys.PROJECTION_CHUNK), "unset: the key's default");
        assertFalse(BackendOptions.defaults().withExtra("cuda.autotune", " FALSE ").get(CudaKeys.AUTOTUNE));
        assertThrows(IllegalArgumentException.class,
                () -> BackendOptions.defaults().withExtra("cuda.memoryFraction", "1.5").get(CudaKeys.MEMORY_FRACTION));
    }
}
