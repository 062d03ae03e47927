package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line starts Spark before it is parsed only for what will run on the Spark engine: a reconstruction that
 * names it (as an option or a --conf key, the last one given winning, as the parser has it), not a sweep, not a help text.
 */
class SparkGuessTest {
    static boolean guess(String... args) {
        return TomoCli.runsOnSpark(args);
    }

    @Test
    void aReconstructionNamingTheSparkEngineStartsItEarly() {
        assertTrue(guess("reconstruct", "--engine", "spark", "--input", "a.h5", "--output", "r"));
        assertTrue(guess("reconstruct", "--input", "a.h5", "--engine=spark"));
        assertTrue(guess("reconstruct", "--conf", "engine=spark"));
        assertTrue(guess("reconstruct", "--conf=engine=spark"));
        assertTrue(guess("reconstruct", "demo", "--engine", "SPARK"));
    }

    @Test
    void anythingElseDoesNot() {
        assertFalse(guess());
        assertFalse(guess("reconstruct", "--input", "a.h5"));
        assertFalse(guess("reconstruct", "--engine", "direct"));
        assertFalse(guess("reconstruct", "--engine", "spark", "--engine", "direct"));
        assertFalse(guess("reconstruct", "--engine", "spark", "--center-sweep", "40:50:1"));
        assertFalse(guess("reconstruct", "--engine", "spark", "--tv-weight-sweep=0.5,1,2"));
        assertFalse(guess("reconstruct", "--engine", "spark", "--conf", "center.sweep=40:50:1"), "a sweep as a setting");
        assertFalse(guess("reconstruct", "--engine", "spark", "--conf=iterative.tvWeightSweep=1,2"));
        assertFalse(guess("reconstruct", "--engine", "spark", "--help"));
        assertFalse(guess("reprocess", "--engine", "spark"));
        assertFalse(guess("find-centers", "--engine", "spark"));
        assertFalse(guess("reconstruct", "--conf", "backend=spark"));
    }

    /** A Kerberos login comes first (Spark's context takes the process's user as it starts): no early start where one may follow. */
    @Test
    void aLoginFromTheSettingsComesBeforeSpark(@TempDir Path dir) throws IOException {
        String[] run = {"reconstruct", "--engine", "spark", "--input", "a.h5", "--output", "r"};
        assertFalse(guess(concat(run, "--conf", "kerberos.principal=tomo@FACILITY.ORG")));
        Path withLogin = Files.writeString(dir.resolve("kerberos.properties"), "kerberos.principal = tomo@FACILITY.ORG\n");
        Path without = Files.writeString(dir.resolve("plain.properties"), "filter = hann\n");
        assertFalse(guess(concat(run, "--config", withLogin.toString())), "a local file naming the principal");
        assertTrue(guess(concat(run, "--config", without.toString())), "a local file without it");
        assertFalse(guess(concat(run, "--config", "hdfs://namenode:8020/beamline/tomo.properties")),
                "a file only the command can read may name it");
        assertFalse(guess(concat(run, "--config=" + dir.resolve("missing.properties"))), "nor can a file that is not there be read here");
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    @Test
    void optionValuesAreReadAsTheParserReadsThem() {
        String[] args = {"reconstruct", "--input", "a b.h5", "--input=c.h5", "--conf", "engine=x", "--conf=engine=spark"};
        assertEquals("c.h5", TomoCli.optionValue(args, "--input"));
        assertEquals("spark", TomoCli.confValue(args, "engine"));
        assertNull(TomoCli.optionValue(args, "--output"));
        assertNull(TomoCli.confValue(args, "backend"));
        assertNull(TomoCli.optionValue(new String[]{"reconstruct", "--input"}, "--input"));
    }
}
