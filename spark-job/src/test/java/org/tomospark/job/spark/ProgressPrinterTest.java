package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;
import org.tomospark.executor.conveyor.VolumeReconstructor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text bar: the first update, then at most a line every two seconds, and always the last. */
class ProgressPrinterTest {
    @Test
    void printsTheFirstTheLastAndAtMostOneLineEveryTwoSeconds() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        VolumeReconstructor.Progress p = SparkReconstruction.printer(new PrintStream(buf, true, StandardCharsets.UTF_8));
        long s = 1_000_000_000L;
        p.update(0, 100, 0, 0);
        p.update(10, 100, 10, s / 2);      // 0.5 s after the first line: held back
        p.update(20, 100, 20, 2 * s + 1);  // past two seconds: printed
        p.update(20, 100, 20, 5 * s);      // no progress: nothing
        p.update(30, 100, 30, 5 * s + 1);  // printed (three seconds after the last line)
        p.update(40, 100, 40, 6 * s);      // held back
        p.update(100, 100, 100, 6 * s + 2); // the last: always
        List<String> lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).contains(" 0/100 slices"), lines.get(0));
        assertTrue(lines.get(1).contains(" 20/100 slices"), lines.get(1));
        assertTrue(lines.get(2).contains(" 30/100 slices"), lines.get(2));
        assertTrue(lines.get(3).startsWith("[##############################] 100/100 slices"), lines.get(3));
    }
}
