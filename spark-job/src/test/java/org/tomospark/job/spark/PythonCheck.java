package org.tomospark.job.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Runs one of src/test/python's checkers with Debian's python3: skipped where its modules are missing. */
public final class PythonCheck {
    private PythonCheck() {
    }

    /** The checker's output; it must exit 0. */
    public static String run(String script, String... args) throws Exception {
        assumeTrue(FaultMatrixTest.PYTHON.toFile().canExecute(), "needs Debian's python3 (see .ci/run)");
        List<String> cmd = new ArrayList<>(List.of(FaultMatrixTest.PYTHON.toString(),
                Path.of("src/test/python", script).toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), script + " did not finish");
        assumeTrue(!log.contains("No module named"), script + " needs the python3 packages .ci/run installs: " + log);
        assertEquals(0, p.exitValue(), log);
        return log;
    }
}
