package org.tomospark.executor.backend.cuda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

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
                    KernelVariant kv = KernelVariant.parse(v, k, f, i);
                    assertEquals(i, kv.interpolation());
                    n++;
                }
        assertEquals(16, n);
    }
}
