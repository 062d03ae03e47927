package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tomospark.executor.phantom.DemoDataset;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the command line prints: help without formatting warnings, and errors that name the right file or key. */
class CliMessagesTest {
    @TempDir
    static Path tmp;

    /** A CLI run's exit code and both its standard streams. */
    record Captured(int code, String out, String err) {
    }

    /** Runs the CLI with both standard streams captured. */
    static Captured runCapturing(String... args) {
        PrintStream out = System.out, err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true));
        System.setErr(new PrintStream(e, true));
        try {
            int code = TomoCli.run(args);
            return new Captured(code, o.toString(), e.toString());
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void reconstructHelpPrintsNoWarningAndNamesEveryInputKind() {
        Captured r = runCapturing("reconstruct", "--help");
        String out = r.out(), err = r.err(), all = out + err;
        assertEquals(0, r.code(), all);
        assertFalse(all.contains("WARN"), "help must format cleanly:\n" + all);
        assertFalse(all.contains("Could not format"), all);
        String text = out.replaceAll("\\s+", " "); // the help is wrapped at 80 columns
        assertTrue(text.contains("'%20' is three characters, and '#', '%' and spaces"), "percent signs printed as such:\n" + out);
        assertTrue(text.contains("a DataExchange HDF5 file, a directory of TIFF projections (job.input.tiff.*) or a raw binary file"),
                "--input accepts TIFF stacks and raw files too:\n" + out);
        assertTrue(text.contains("none, sorting, offset, fw, all"), "--stripe lists every method:\n" + out);
    }

    @Test
    void aTiffStackWithoutThetaTxtNamesTheFileAndItsKey() throws Exception {
        Path stack = tmp.resolve("stack");
        new DemoDataset(DemoDataset.Spec.demo().withSize(32, 2, 30)).writeTiffStack(stack);
        Files.delete(stack.resolve("theta.txt"));
        CliRun r = CliRun.of("reconstruct", "--input", stack.toString(), "--output", tmp.resolve("stack-out").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("theta.txt"), r.err());
        assertTrue(r.err().contains("job.input.tiff.theta"), r.err());
        assertTrue(r.err().contains("angles.start and angles.step"), r.err());
        assertFalse(r.err().contains("/exchange/theta"), "a TIFF stack has no /exchange/theta: " + r.err());
        // the way out the message names works
        CliRun ok = CliRun.of("reconstruct", "--input", stack.toString(), "--output", tmp.resolve("stack-out2").toString(),
                "--conf", "angles.start=0", "--conf", "angles.step=6");
        assertEquals(0, ok.code(), ok.err());
    }

    @Test
    void rawInputWithoutAnglesNamesItsKey() throws Exception {
        Path raw = tmp.resolve("scan.raw");
        Files.write(raw, new byte[4 * 2 * 16 * 4]);
        CliRun r = CliRun.of("reconstruct", "--input", raw.toString(), "--output", tmp.resolve("raw-out").toString(),
                "--conf", "job.input.format=raw", "--conf", "job.input.raw.shape=4,2,16", "--conf", "job.input.raw.dtype=float32");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("job.input.raw.theta"), r.err());
        assertFalse(r.err().contains("/exchange/theta"), r.err());
    }

    /** The settings are checked before the input is opened, so no scan is needed. */
    @Test
    void paganinWithAValueMissingSaysWhichOne() {
        Path scan = tmp.resolve("never-read.h5");
        CliRun r = CliRun.of("reconstruct", "--input", scan.toString(), "--output", tmp.resolve("pg").toString(),
                "--phase-energy", "20", "--phase-distance", "0.1", "--delta-beta", "100");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("phase.pixelSize is missing"), r.err());
        assertTrue(r.err().contains("phase.energy, phase.distance and phase.deltaOverBeta are set"), r.err());

        CliRun e = CliRun.of("reconstruct", "--input", scan.toString(), "--output", tmp.resolve("pg2").toString(),
                "--phase-distance", "0.1", "--pixel-size", "1e-6", "--delta-beta", "100");
        assertEquals(2, e.code(), e.err());
        assertTrue(e.err().contains("phase.energy is missing"), e.err());

        CliRun two = CliRun.of("reconstruct", "--input", scan.toString(), "--output", tmp.resolve("pg3").toString(),
                "--phase-energy", "20", "--pixel-size", "1e-6");
        assertTrue(two.err().contains("phase.distance and phase.deltaOverBeta are missing"), two.err());
    }
}
