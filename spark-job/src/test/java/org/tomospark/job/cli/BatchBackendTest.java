package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.batch.BatchKeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The backend a batch is checked for before its Spark application starts: the batch's own where every scan takes it
 * (no table), "auto" where a table may give a scan another backend (only the checks no scan could pass come first);
 * a backend that is no backend is named before anything starts.
 */
class BatchBackendTest {
    private static Settings batch(String backend, String table) {
        Settings s = Settings.empty().with(BatchKeys.OUTPUT_ROOT.name(), "/tmp/out");
        if (backend != null) s = s.with(CoreKeys.BACKEND.name(), backend);
        if (table != null) s = s.with(BatchKeys.TABLE.name(), table);
        return s;
    }

    @Test
    void withoutATableEveryScanTakesTheBatchsBackend() {
        assertEquals("cuda", EngineLauncher.batchBackend(batch("cuda", null)));
        assertEquals("java", EngineLauncher.batchBackend(batch("java", null)));
        assertEquals(CoreKeys.BACKEND.parse(""), EngineLauncher.batchBackend(batch(null, null)), "the key's default");
    }

    @Test
    void aTableMayGiveScansOtherBackends() {
        assertEquals("auto", EngineLauncher.batchBackend(batch("cuda", "hdfs:///beamline/table.csv")));
    }

    @Test
    void aBackendThatIsNoneIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineLauncher.batchBackend(batch("gpu9", null)));
        assertTrue(e.getMessage().contains(CoreKeys.BACKEND.name()), e.getMessage());
    }
}
