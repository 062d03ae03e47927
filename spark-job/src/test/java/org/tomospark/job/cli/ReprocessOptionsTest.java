package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.job.JobKeys;
import org.tomospark.job.batch.BatchKeys;
import org.tomospark.job.batch.ScanInputs;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each option of {@code tomospark reprocess} sets its batch key; the scan options are reconstruct's. */
class ReprocessOptionsTest {
    @Test
    void optionsSetTheBatchKeys() throws Exception {
        ReprocessCommand cmd = new ReprocessCommand();
        new CommandLine(cmd).parseArgs("/data/2026-01", "hdfs://nn/b/2026-*/scan_*.h5", "@list.txt", "--output-root", "/rec",
                "--table", "/data/rotation_axis.json", "--scans-in-flight", "3", "--overwrite", "--redo-if-version-below",
                "0.2.0", "--center", "auto", "--filter", "hann", "--conf", "batch.extensions=h5");
        Settings s = cmd.settings();
        assertEquals(List.of("/data/2026-01", "hdfs://nn/b/2026-*/scan_*.h5", "@list.txt"), ScanInputs.split(s.get(BatchKeys.INPUTS)));
        assertEquals("/rec", s.get(BatchKeys.OUTPUT_ROOT));
        assertEquals("/data/rotation_axis.json", s.get(BatchKeys.TABLE));
        assertEquals(3, s.get(BatchKeys.SCANS_IN_FLIGHT));
        assertEquals("0.2.0", s.get(BatchKeys.REDO_IF_VERSION_BELOW));
        assertEquals("h5", s.get(BatchKeys.EXTENSIONS));
        assertTrue(s.get(JobKeys.OVERWRITE));
        assertEquals(CoreKeys.AUTO_CENTER, s.get(CoreKeys.CENTER));
        assertEquals("hann", s.asMap().get("filter"));
    }

    @Test
    void findCentersTakesTheSameInputs() {
        FindCentersCommand cmd = new FindCentersCommand();
        new CommandLine(cmd).parseArgs("/data/2026-01", "--output", "/data/centers.json", "--center-method", "correlation");
        assertEquals(List.of("/data/2026-01"), cmd.inputs);
        assertEquals("/data/centers.json", cmd.output);
    }
}
