package org.tomospark.job.cli;

import com.sun.management.OperatingSystemMXBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launch scripts' settings for a machine of two cores or fewer (submit/small-machine.sh): given where nproc says
 * two cores or one, or where forced; none elsewhere or where turned off; a collector the user names wins over the
 * serial one; and the JVM the tests run on takes every flag.
 */
class SmallMachineScriptTest {
    private static final String TIER4 = "-XX:Tier4InvocationThreshold=50000";

    /** A directory with a fake nproc that prints {@code cpus}, first on the PATH. */
    private static Path nproc(Path dir, int cpus) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin" + cpus));
        Path n = bin.resolve("nproc");
        Files.writeString(n, "#!/usr/bin/env bash\necho " + cpus + "\n");
        Files.setPosixFilePermissions(n, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_EXECUTE));
        return bin;
    }

    /** Sources the script and prints its settings; {stdout, stderr}. */
    private static String[] opts(Path bin, String mode, String javaOpts) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "source ../submit/small-machine.sh; tomo_small_machine_opts");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("TOMO_SMALL_MACHINE");
        pb.environment().remove("TOMO_JAVA_OPTS");
        if (mode != null) pb.environment().put("TOMO_SMALL_MACHINE", mode);
        if (javaOpts != null) pb.environment().put("TOMO_JAVA_OPTS", javaOpts);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        String err = new String(p.getErrorStream().readAllBytes()).trim();
        assertEquals(0, p.waitFor(), err);
        return new String[]{out, err};
    }

    @Test
    void twoCoresOrOneGetTheSettingsMoreGetNone(@TempDir Path dir) throws Exception {
        for (int cpus : new int[]{1, 2}) {
            String o = opts(nproc(dir, cpus), null, null)[0];
            assertTrue(o.startsWith("-XX:+UseSerialGC "), cpus + " cores: " + o);
            assertTrue(o.contains("-XX:InitialRAMPercentage=12.5") && o.contains(TIER4), o);
        }
        assertEquals("", opts(nproc(dir, 3), null, null)[0]);
        assertEquals("", opts(nproc(dir, 16), "auto", null)[0]);
    }

    @Test
    void forcedOnOrTurnedOff(@TempDir Path dir) throws Exception {
        assertTrue(opts(nproc(dir, 16), "1", null)[0].contains(TIER4));
        assertEquals("", opts(nproc(dir, 2), "0", null)[0]);
        String[] bad = opts(nproc(dir, 2), "yes", null);
        assertEquals("", bad[0]);
        assertTrue(bad[1].contains("TOMO_SMALL_MACHINE=yes"), bad[1]);
    }

    @Test
    void aCollectorTheUserNamesWins(@TempDir Path dir) throws Exception {
        String o = opts(nproc(dir, 2), null, "-Xmx2g -XX:+UseG1GC")[0];
        assertFalse(o.contains("Serial"), o);
        assertTrue(o.contains(TIER4), o);
        assertTrue(opts(nproc(dir, 2), null, "-XX:+UseParallelGC")[0].startsWith("-XX:InitialRAMPercentage"));
        // a flag that only mentions a collector's tuning does not count as naming one
        assertTrue(opts(nproc(dir, 2), null, "-XX:+UseStringDeduplication")[0].contains("-XX:+UseSerialGC"));
        // a flag that only mentions GC later on the line is no collector either
        assertTrue(opts(nproc(dir, 2), null, "-XX:+UseNUMA -XX:+PrintGC -XX:+UseGCOverheadLimit")[0].contains("-XX:+UseSerialGC"));
        assertTrue(opts(nproc(dir, 2), null, "-Xmx2g -XX:+UseZGC -Xlog:gc")[0].startsWith("-XX:InitialRAMPercentage"));
    }

    private static long memory() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    }

    @Test
    void theJvmTakesEveryFlag(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String user : new String[]{null, "-XX:+UseG1GC"}) {
            List<String> cmd = new ArrayList<>(List.of(java));
            cmd.addAll(Arrays.asList(opts(nproc(dir, 2), null, user)[0].split(" ")));
            if (user != null) cmd.add(user);
            cmd.addAll(List.of("-Xmx1g", "-XX:+PrintFlagsFinal", "-version"));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), out);
            assertTrue(out.matches("(?s).*\\bTier4InvocationThreshold\\s+= 50000\\b.*"), out);
            assertTrue(out.matches("(?s).*\\bUse" + (user == null ? "Serial" : "G1") + "GC\\s+= true\\b.*"), out);
            // a maximum below an eighth of the memory caps the initial heap, silently
            if (memory() >= 8L << 30) assertTrue(out.matches("(?s).*\\bInitialHeapSize\\s+= 1073741824\\b.*"), out);
            assertFalse(out.contains("warning"), out);
        }
    }
}
