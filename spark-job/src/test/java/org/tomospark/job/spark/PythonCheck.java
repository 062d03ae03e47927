package org.tomospark.job.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs one of spark-job's src/test/python checkers with Debian's python3 (from spark-job's tests, or another module's
 * that use its test jar): skipped where its modules are missing.
 */
public final class PythonCheck {
    private PythonCheck() {
    }

    /** The checker's output; it must exit 0. */
    public static String run(String script, String... args) throws Exception {
        assumeTrue(FaultMatrixTest.PYTHON.toFile().canExecute(), "needs Debian's python3 (see .ci/run)");
        List<String> cmd = new ArrayList<>(List.of(FaultMatrixTest.PYTHON.toString(),
                scripts().resolve(script).toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), script + " did not finish");
        assumeTrue(!log.contains("No module named"), script + " needs the python3 packages .ci/run installs: " + log);
        assertEquals(0, p.exitValue(), log);
        return log;
    }

    /** spark-job's src/test/python, from spark-job's folder or a sibling module's. */
    private static Path scripts() {
        Path here = Path.of("src/test/python");
        return Files.isDirectory(here.resolve("..").resolve("java/org/tomospark/job")) ? here : Path.of("../spark-job/src/test/python");
    }
}
