package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.config.Settings;
import org.tomospark.job.fs.HadoopConf;
import org.tomospark.job.local.DirectEngine;
import org.tomospark.job.run.JobRequest;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The direct engine's report takes its time before the job apart, step by step in the order they run, and counts the
 * slices written from their frames as they were (none on the java backend, whose slices are Java arrays, encoded), and
 * reports a device pipeline's times only for a backend that has one.
 */
class DirectReportTimingsTest {
    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void theStepsBeforeTheJobAreTimedInOrder() {
        DirectEngine.Result r = new DirectEngine(HadoopConf.create(), new PrintStream(new ByteArrayOutputStream()))
                .run(new JobRequest(TestScans.hdf5().toString(), tmp.resolve("out").toString(), TestScans.params(), false, false,
                        true, Settings.empty()));
        Map<?, ?> t = (Map<?, ?>) r.report().get("timings");
        Map<?, ?> steps = (Map<?, ?>) t.get("beforeJobSeconds");
        assertEquals(List.of("open the input", "centre", "plan", "flats, darks and preflight", "backend",
                "claim and prepare the output"), new ArrayList<>(steps.keySet()));
        double sum = 0;
        for (Object v : steps.values()) {
            double s = ((Number) v).doubleValue();
            assertTrue(s >= 0, steps.toString());
            sum += s;
        }
        double outside = ((Number) t.get("outsideJobSeconds")).doubleValue();
        assertTrue(sum <= outside + 1e-6, "the steps before the job (" + sum + " s) lie outside it (" + outside + " s)");
        assertEquals(0, ((Number) t.get("slicesWrittenFromFrames")).intValue());
        // the java backend has no device pipeline to time: the group loop's times come without one
        Map<?, ?> loop = (Map<?, ?>) t.get("groupLoop");
        assertTrue(loop.containsKey("processSeconds"), loop.toString());
        assertTrue(!loop.containsKey("devicePipeline"), loop.toString());
    }
}
