package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The standalone cluster as {@code submit/standalone-cluster start} starts it, with its defaults: its secret in a file
 * only its user can read, a job without the secret refused by the Master, a job given the secret
 * ({@code --properties-file}) run on the cluster's executor with the single-machine run's slices.
 */
class StandaloneScriptTest {
    static Path dir;
    static String cp;
    static String master;

    static Process script(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("bash", Path.of("..", "submit", "standalone-cluster").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("script.log").toFile());
        pb.environment().put("TOMO_CP", cp);
        pb.environment().put("TOMO_JVM_OPTS", String.join(" ", StandaloneClusterTest.OPENS) + " -Djava.io.tmpdir=" + dir.resolve("tmp"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("SPARK_LOCAL_IP");
        return pb.start();
    }

    @BeforeAll
    static void start() throws Exception {
        cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        dir = TestScans.tmp("standalone-script");
        Files.createDirectories(dir.resolve("tmp"));
        master = "spark://127.0.0.1:" + StandaloneClusterTest.freePort();
        String port = master.substring(master.lastIndexOf(':') + 1);
        Process p = script("start", "--workers", "1", "--cores", "1", "--memory", "1200m", "--port", port, "--dir", dir.toString());
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("standalone-cluster start did not return in 150 s:\n" + Files.readString(dir.resolve("script.log")));
        }
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("script.log")));
        assertTrue(Files.readString(dir.resolve("script.log")).contains("--properties-file " + dir.resolve("spark-auth.conf")),
                "start tells how jobs get the secret: " + Files.readString(dir.resolve("script.log")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (dir != null) script("stop", "--dir", dir.toString()).waitFor(60, TimeUnit.SECONDS);
    }

    /** A job submitted (client mode) with SparkSubmit in its own JVM, with these extra spark-submit options. */
    static Process submit(String name, Path out, List<String> options) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
        cmd.addAll(StandaloneClusterTest.OPENS);
        cmd.addAll(List.of("-Djava.io.tmpdir=" + dir.resolve("tmp"), "-cp", cp, "org.apache.spark.deploy.SparkSubmit",
                "--master", master, "--deploy-mode", "client", "--class", SparkMain.class.getName()));
        cmd.addAll(options);
        cmd.addAll(List.of("--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                "--conf", "spark.ui.enabled=false", "--conf", "spark.executor.memory=640m", "--conf", "spark.executor.cores=1",
                "--conf", "spark.executor.extraClassPath=" + cp,
                "--conf", "spark.executor.extraJavaOptions=--add-modules=jdk.incubator.vector -Djava.io.tmpdir=" + dir.resolve("tmp"),
                "spark-internal", "input=" + TestScans.hdf5(), "output=" + out, "backend=java", "center=47.5", "filter=shepp-logan"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", dir.resolve("spark-home").toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        return pb.start();
    }

    @Test
    void theSecretIsTheUsersAlone() throws IOException {
        Path auth = dir.resolve("spark-auth.conf");
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE), Files.getPosixFilePermissions(auth));
        String text = Files.readString(auth);
        assertTrue(text.contains("spark.authenticate true") && text.contains("spark.network.crypto.enabled true")
                && text.contains("spark.io.encryption.enabled true"), text);
        assertTrue(text.matches("(?s).*spark\\.authenticate\\.secret [0-9a-f]{64}\\n.*"), "a 256-bit secret");
        // the daemons got it from their environment: no command line shows it
        String secret = text.replaceAll("(?s).*spark\\.authenticate\\.secret ([0-9a-f]+).*", "$1");
        ProcessHandle.allProcesses().forEach(p -> assertFalse(p.info().commandLine().orElse("").contains(secret),
                "the secret shows on the command line of process " + p.pid()));
    }

    /** A secret file that others could read is refused, naming it, and no cluster is started with it. */
    @Test
    @Timeout(60)
    void aSecretOthersCanReadIsRefused() throws Exception {
        Path other = dir.resolve("other-cluster");
        Files.createDirectories(other);
        Path auth = other.resolve("spark-auth.conf");
        Files.writeString(auth, "spark.authenticate true\nspark.authenticate.secret 00\n");
        Files.setPosixFilePermissions(auth, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ));
        String port = Integer.toString(StandaloneClusterTest.freePort());
        Process p = script("start", "--workers", "1", "--port", port, "--dir", other.toString());
        assertTrue(p.waitFor(50, TimeUnit.SECONDS));
        String log = Files.readString(dir.resolve("script.log"));
        assertEquals(1, p.exitValue(), log);
        assertTrue(log.contains(auth + " must belong to") && log.contains("chmod 600"), log);
        assertFalse(Files.exists(other.resolve("pids")), "no daemon was started");
        assertEquals("spark.authenticate true\nspark.authenticate.secret 00\n", Files.readString(auth), "the file is left as it was");
    }

    @Test
    @Timeout(200)
    void aJobWithoutTheSecretIsRefusedAndOneWithItRuns() throws Exception {
        Path refusedOut = dir.resolve("refused");
        Process refused = submit("refused", refusedOut, List.of());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        String log = "";
        while (!log.contains("Failed to connect to master") && refused.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(300);
            log = Files.readString(dir.resolve("refused.log"));
        }
        refused.descendants().forEach(ProcessHandle::destroyForcibly);
        refused.destroyForcibly();
        assertTrue(log.contains("Failed to connect to master"), "the driver without the secret was let in:\n" + log);
        String masterLog = Files.readString(dir.resolve("logs").resolve("master.log"));
        assertTrue(masterLog.contains("AuthRpcHandler"), "the Master refused the connection for want of authentication:\n" + masterLog);
        assertFalse(masterLog.contains("Registering app"), "the Master registered an application without the secret:\n" + masterLog);
        assertFalse(Files.exists(refusedOut.resolve("_SUCCESS")));

        Path out = dir.resolve("with-secret");
        Process p = submit("with-secret", out, List.of("--properties-file", dir.resolve("spark-auth.conf").toString()));
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("the job with the secret did not finish in 150 s:\n" + Files.readString(dir.resolve("with-secret.log")));
        }
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("with-secret.log")));
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertTrue(Files.readString(dir.resolve("logs").resolve("master.log")).contains("Registering app"));
    }
}
