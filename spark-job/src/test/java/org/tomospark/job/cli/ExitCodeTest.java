package org.tomospark.job.cli;

import org.apache.hadoop.fs.FSError;
import org.junit.jupiter.api.Test;
import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.job.ExitCode;
import org.tomospark.job.RunFailedException;
import org.tomospark.job.outputs.OutputBusyException;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One exit-status scheme for every failure (README, docs/faults.md), and one error line for expected failures. */
class ExitCodeTest {
    static FSError diskFull() throws Exception {
        Constructor<FSError> c = FSError.class.getDeclaredConstructor(Throwable.class);
        c.setAccessible(true);
        return c.newInstance(new IOException("No space left on device"));
    }

    @Test
    void eachKindOfFailureHasItsStatus() throws Exception {
        assertEquals(2, ExitCode.of(new IllegalArgumentException("config key x")).code());
        assertEquals(3, ExitCode.of(new BackendUnavailableException("no GPU")).code());
        assertEquals(3, ExitCode.of(new OutputBusyException("in use")).code());
        assertEquals(3, ExitCode.of(new UncheckedIOException("cannot write", new IOException("EIO"))).code());
        assertEquals(3, ExitCode.of(diskFull()).code());
        assertEquals(4, ExitCode.of(new RunFailedException("task failed")).code());
        assertEquals(1, ExitCode.of(new NullPointerException()).code());
        // the statuses are distinct and documented; 5 is a batch's, never a single failure's
        assertEquals(6, Arrays.stream(ExitCode.values()).map(ExitCode::code).distinct().count());
        assertEquals(5, ExitCode.SCANS_FAILED.code());
    }

    @Test
    void expectedFailuresPrintOneLineAndBugsTheirStackTrace() throws Exception {
        StringWriter sw = new StringWriter();
        assertEquals(3, TomoCli.report(diskFull(), new PrintWriter(sw)));
        assertEquals("error: java.io.IOException: No space left on device", sw.toString().strip());
        StringWriter bug = new StringWriter();
        assertEquals(1, TomoCli.report(new NullPointerException("oops"), new PrintWriter(bug)));
        assertTrue(bug.toString().startsWith("error: oops") && bug.toString().contains("\tat "), bug.toString());
        assertFalse(sw.toString().contains("\tat "));
    }

    @Test
    void picocliUsageErrorsAreStatusTwo() {
        CliRun r = CliRun.of("reconstruct", "--no-such-option");
        assertEquals(2, r.code(), r.err());
    }
}
