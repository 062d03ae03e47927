package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real multi-process Spark standalone cluster on 127.0.0.1, started from the test classpath (no Spark
 * download): a Master and two Workers (one core each) in their own JVMs; the job is submitted with SparkSubmit
 * in a driver JVM and its executors run in JVMs the Workers launch.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneClusterTest {
    static final List<Process> PROCESSES = new ArrayList<>();
    static Path home, logs;
    static String cp, master, javaBin;
    static int uiPort;
    static List<Path> workDirs = new ArrayList<>();

    static final List<String> OPENS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
            "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false",
            "-Dio.netty.tryReflectionSetAccessible=true", "--add-modules=jdk.incubator.vector");

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static Process start(String name, List<String> args) throws IOException {
        return start(name, "384m", args);
    }

    static Process start(String name, String heap, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-Xmx" + heap));
        cmd.addAll(OPENS);
        cmd.add("-Djava.io.tmpdir=" + home.resolve("tmp"));
        cmd.add("-Dlog4j2.configurationFile=" + home.resolve("log4j2.properties"));
        cmd.addAll(List.of("-cp", cp));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(logs.resolve(name + ".log").toFile());
        pb.environment().put("SPARK_HOME", home.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        PROCESSES.add(p);
        return p;
    }

    static String http(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(2000);
            return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    @BeforeAll
    static void startCluster() throws Exception {
        cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        home = TestScans.tmp("spark-home");
        logs = home.resolve("logs");
        Files.createDirectories(home.resolve("jars")); // empty: the classpath comes from -cp and spark.executor.extraClassPath
        Files.createDirectories(logs);
        Files.createDirectories(home.resolve("tmp"));
        Files.writeString(home.resolve("log4j2.properties"), "rootLogger.level = warn\nrootLogger.appenderRef.stdout.ref = console\n"
                + "appender.console.type = Console\nappender.console.name = console\nappender.console.layout.type = PatternLayout\n"
                + "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5p %c{1}: %m%n\nlogger.tomo.name = org.tomospark\n"
                + "logger.tomo.level = info\n"
                // the Workers say how each executor ended (its exit status)
                + "logger.worker.name = org.apache.spark.deploy.worker.Worker\nlogger.worker.level = info\n");
        int port = freePort();
        uiPort = freePort();
        master = "spark://127.0.0.1:" + port;
        start("master", List.of("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", "" + port,
                "--webui-port", "" + uiPort));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        // the Workers start once the master's ports are bound: a Worker's own ports are ephemeral ones, and one could
        // otherwise take the master's web UI port between freePort() and the master binding it (the master then moves
        // its UI to the next port, where this test does not look)
        while (!http("http://127.0.0.1:" + uiPort + "/json/").replace(" ", "").contains("\"aliveworkers\":")) {
            for (Process p : PROCESSES) if (!p.isAlive()) fail("the master exited early; see " + logs);
            if (System.nanoTime() > deadline) fail("the standalone master's web UI did not come up on port " + uiPort + "; see " + logs);
            Thread.sleep(200);
        }
        for (int i = 0; i < 2; i++) {
            Path wd = home.resolve("work" + i);
            Files.createDirectories(wd);
            workDirs.add(wd);
            // each Worker "has" one GPU: its own discovery script (two Workers on one host must not discover the same
            // address); the backend is java, which ignores the address, so this checks Spark's GPU scheduling path
            Path script = home.resolve("gpu" + i + ".sh");
            Files.writeString(script, "#!/bin/sh\necho '{\"name\":\"gpu\",\"addresses\":[\"" + i + "\"]}'\n");
            script.toFile().setExecutable(true);
            start("worker" + i, List.of("-Dspark.worker.resource.gpu.amount=1", "-Dspark.worker.resource.gpu.discoveryScript=" + script,
                    "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1", "--memory", "1200m",
                    "--work-dir", wd.toString(), "--webui-port", "" + freePort(), master));
        }
        while (System.nanoTime() < deadline) {
            String json = http("http://127.0.0.1:" + uiPort + "/json/");
            if (json.replace(" ", "").contains("\"aliveworkers\":2")) return;
            for (Process p : PROCESSES) if (!p.isAlive()) fail("a cluster process exited early; see " + logs);
            Thread.sleep(500);
        }
        fail("the standalone cluster did not come up with 2 workers in 120 s; see " + logs);
    }

    @AfterAll
    static void stopCluster() {
        for (Process p : PROCESSES) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** Submits SparkMain to the cluster with SparkSubmit in its own (driver) JVM. */
    static Process submit(String name, String output, List<String> settings) throws IOException {
        return submit(name, output, settings, List.of());
    }

    static Process submit(String name, String output, List<String> settings, List<String> sparkConf) throws IOException {
        List<String> args = new ArrayList<>(List.of("org.apache.spark.deploy.SparkSubmit", "--master", master, "--deploy-mode", "client",
                "--class", SparkMain.class.getName(),
                "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                "--conf", "spark.ui.enabled=false",
                "--conf", "spark.executor.memory=640m", "--conf", "spark.executor.cores=1",
                "--conf", "spark.executor.extraClassPath=" + cp,
                "--conf", "spark.executor.extraJavaOptions=--add-modules=jdk.incubator.vector -Djava.io.tmpdir=" + home.resolve("tmp")
                        + " -Dlog4j2.configurationFile=" + home.resolve("log4j2.properties"),
                "--conf", "spark.kryo.registrationRequired=true",
                "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
                "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=60s",
                "--conf", "spark.task.maxFailures=4"));
        for (String c : sparkConf) args.addAll(List.of("--conf", c));
        args.addAll(List.of("spark-internal",
                "input=" + TestScans.hdf5(), "output=" + output, "backend=java", "center=47.5", "filter=shepp-logan",
                "job.progress=true"));
        args.addAll(settings);
        return start(name, "1g", args);
    }

    static void awaitSuccess(Process p, String name, int seconds) throws Exception {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(name + " did not finish in " + seconds + " s; log:\n" + tail(name));
        }
        assertEquals(0, p.exitValue(), name + " failed; log:\n" + tail(name));
    }

    static String tail(String name) throws IOException {
        List<String> l = Files.readAllLines(logs.resolve(name + ".log"));
        return String.join("\n", l.subList(Math.max(0, l.size() - 60), l.size()));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> report(Path out) throws IOException {
        return Json.read(Files.readAllBytes(out.resolve(OutputCommit.REPORT)), "report");
    }

    /**
     * Submits a run into {@code out}, waits for it to succeed, checks that its slices are the single-machine reference's
     * bit for bit and that it finished; returns its report.
     */
    static Map<String, Object> runBitIdentical(String name, Path out, List<String> settings, List<String> sparkConf)
            throws Exception {
        awaitSuccess(submit(name, out.toString(), settings, sparkConf), name, 240);
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        return report(out);
    }

    @Test
    @Order(1)
    @Timeout(300)
    void jobRunsOnExecutorsInTheirOwnJvms() throws Exception {
        Path out = TestScans.tmp("cluster").resolve("rec");
        Map<String, Object> r = runBitIdentical("submit1", out, List.of("group.rows=4", "job.test.taskDelayMs=1000"),
                List.of("spark.executor.resource.gpu.amount=1", "spark.task.resource.gpu.amount=1"));
        Map<?, ?> executors = (Map<?, ?>) r.get("executors");
        assertEquals(2, executors.size(), "both executors ran groups: " + executors);
        assertTrue(!executors.containsKey("driver"), "groups ran in the driver: " + executors);
        assertTrue(String.valueOf(((Map<?, ?>) r.get("spark")).get("master")).startsWith("spark://127.0.0.1:"));
        // each task took its GPU address from Spark's assignment (TaskContext resources), one per executor
        String backends = String.valueOf(r.get("backends"));
        assertTrue(backends.contains("on 0 (spark)") && backends.contains("on 1 (spark)"), backends);
        // the Workers launched the executors as their own JVMs, in their work directories
        for (Path wd : workDirs) {
            try (var s = Files.walk(wd)) {
                assertTrue(s.anyMatch(f -> f.getFileName().toString().equals("stderr")), "no executor ran under " + wd);
            }
        }
        assertTrue(tail("submit1").contains("Reconstructed 16 slices"), tail("submit1"));
    }

    /** pids of this cluster's live executor JVMs (their working directory is under one of our Workers' work dirs). */
    static List<Long> executorPids() {
        List<Long> pids = new ArrayList<>();
        File[] procs = new File("/proc").listFiles((d, n) -> n.matches("\\d+"));
        if (procs == null) return pids;
        for (File f : procs) {
            try {
                String cmd = new String(Files.readAllBytes(f.toPath().resolve("cmdline")), StandardCharsets.UTF_8);
                if (!cmd.contains("CoarseGrainedExecutorBackend")) continue;
                Path cwd = Files.readSymbolicLink(f.toPath().resolve("cwd"));
                for (Path wd : workDirs) if (cwd.startsWith(wd.toRealPath())) pids.add(Long.parseLong(f.getName()));
            } catch (IOException | RuntimeException e) {
                // process gone or not ours
            }
        }
        return pids;
    }

    @Test
    @Order(2)
    @Timeout(300)
    void killingAnExecutorMidJobStillGivesCompleteIdenticalOutput() throws Exception {
        Path out = TestScans.tmp("cluster-kill").resolve("rec");
        Process p = submit("submit2", out.toString(), List.of("group.rows=2", "job.test.taskDelayMs=2500"));
        Path committed = out.resolve(OutputCommit.COMMITTED);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        List<Long> pids = List.of();
        while (System.nanoTime() < deadline && p.isAlive()) {
            int markers = 0;
            if (Files.isDirectory(committed)) try (var s = Files.list(committed)) {
                markers = (int) s.filter(f -> f.getFileName().toString().startsWith("slice_")).count();
            }
            pids = executorPids();
            if (markers >= 2 && pids.size() == 2) break;
            Thread.sleep(100);
        }
        assertEquals(2, pids.size(), "two executor JVMs expected mid-job; log:\n" + tail("submit2"));
        long victim = pids.get(0);
        ProcessHandle.of(victim).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL, like a crashed node
        awaitSuccess(p, "submit2", 240);
        assertTrue(executorPids().stream().noneMatch(x -> x == victim));

        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out.toString(), new Configuration()));
        assertEquals(List.of(), TestScans.sliceFiles(out).stream().filter(n -> !n.matches("slice_\\d{5}\\.tif")).toList());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        Map<String, Object> r = report(out);
        Map<?, ?> slices = (Map<?, ?>) r.get("slices");
        assertEquals(16, slices.get("total"));
        Map<?, ?> groups = (Map<?, ?>) r.get("groups");
        assertEquals(8, groups.get("run"));
        // the driver saw the loss and re-ran the lost group elsewhere
        String log = Files.readString(logs.resolve("submit2.log"));
        assertTrue(log.contains("Lost executor"), "the driver did not see the executor loss:\n" + tail("submit2"));
    }

    /** The stderr files of the executors of one application, under the Workers' work directories. */
    static List<Path> executorLogs(String appId) throws IOException {
        List<Path> logs = new ArrayList<>();
        for (Path wd : workDirs) {
            Path app = wd.resolve(appId);
            if (!Files.isDirectory(app)) continue;
            try (var s = Files.list(app)) {
                s.map(d -> d.resolve("stderr")).filter(Files::isRegularFile).forEach(logs::add);
            }
        }
        return logs;
    }

    @Test
    @Order(3)
    @Timeout(300)
    @SuppressWarnings("unchecked")
    void aStickyDeviceErrorStopsItsExecutorAndTheGroupRunsAgainOnAnother() throws Exception {
        Path out = TestScans.tmp("cluster-sticky").resolve("rec");
        // group 1's first attempt fails as on a GPU whose context a kernel corrupted (a sticky CUDA error)
        Map<String, Object> r = runBitIdentical("submit3", out, List.of("group.rows=4", "job.test.stickyErrorOnGroup=1"),
                List.of());
        String appId = String.valueOf(((Map<?, ?>) r.get("spark")).get("applicationId"));

        // the executor that hit the error said why, loudly, in its own log, and stopped with the plugin's status
        List<Path> stopped = new ArrayList<>();
        for (Path log : executorLogs(appId))
            if (Files.readString(log).contains("a task failed with a sticky CUDA error: CUDA CUDA_ERROR_ILLEGAL_ADDRESS while "
                    + "back-projecting group 1 (injected by job.test.stickyErrorOnGroup)")) stopped.add(log);
        assertEquals(1, stopped.size(), "one executor stopped on the sticky error: " + stopped);
        String dead = stopped.get(0).getParent().getFileName().toString();
        String workers = Files.readString(logs.resolve("worker0.log")) + Files.readString(logs.resolve("worker1.log"));
        int status = ExecutorGpuOwner.STICKY_DEVICE_ERROR_EXIT;
        assertTrue(workers.contains("Executor " + appId + "/" + dead + " finished with state EXITED message Command exited with "
                + "code " + status), "the Worker saw executor " + dead + " exit with status " + status + ":\n" + workers);

        // Spark ran group 1 again, on another executor, and the run is complete
        Map<String, Object> groups = (Map<String, Object>) r.get("groups");
        List<Map<String, Object>> retried = (List<Map<String, Object>>) groups.get("retried");
        assertEquals(1, retried.size(), retried.toString());
        assertEquals(1, retried.get(0).get("group"));
        assertTrue(((Number) retried.get(0).get("attempt")).intValue() >= 1, retried.toString());
        assertTrue(!dead.equals(retried.get(0).get("executor")),
                "group 1 ran again on the stopped executor " + dead + ": " + retried);
        assertEquals(4, groups.get("run"));
        assertEquals(16, ((Map<?, ?>) r.get("slices")).get("total"));
    }

    @Test
    @Order(4)
    @Timeout(300)
    @SuppressWarnings("unchecked")
    void tasksSpreadOverTheGpusOfOneExecutor() throws Exception {
        // a third Worker with two GPUs and two cores; only it can host an executor that asks for two GPUs
        Path wd = home.resolve("work2");
        Files.createDirectories(wd);
        workDirs.add(wd);
        Path script = home.resolve("gpu-pair.sh");
        Files.writeString(script, "#!/bin/sh\necho '{\"name\":\"gpu\",\"addresses\":[\"0\",\"1\"]}'\n");
        script.toFile().setExecutable(true);
        start("worker2", List.of("-Dspark.worker.resource.gpu.amount=2", "-Dspark.worker.resource.gpu.discoveryScript=" + script,
                "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "2", "--memory", "1200m",
                "--work-dir", wd.toString(), "--webui-port", "" + freePort(), master));
        Path out = TestScans.tmp("cluster-pair").resolve("rec");
        // two GPUs per executor, four slots per GPU: Spark alone would put both running tasks on the first GPU
        Map<String, Object> r = runBitIdentical("submit4", out, List.of("group.rows=2", "job.test.taskDelayMs=1500"),
                List.of("spark.executor.resource.gpu.amount=2", "spark.task.resource.gpu.amount=0.25",
                        "spark.executor.cores=2"));
        Map<?, ?> executors = (Map<?, ?>) r.get("executors");
        assertEquals(1, executors.size(), "one two-GPU executor ran every group: " + executors);
        String backends = String.valueOf(r.get("backends"));
        assertTrue(backends.contains("on 0 (spark") && backends.contains("on 1 (spark"), "both GPUs ran groups: " + backends);
    }

    /**
     * The defaults a user gets with {@code spark.executor.resource.gpu.amount} alone (no task amount): the executor's
     * tasks share its GPUs, each taking the least busy, and share its pools: one set of writers per executor, of the
     * executor's cores, commits every group it ran.
     */
    @Test
    @Order(5)
    @Timeout(300)
    @SuppressWarnings("unchecked")
    void tasksShareTheirExecutorsGpusAndWritersWithoutATaskGpuAmount() throws Exception {
        // the two-GPU Worker of the test before is the only one with two cores and two GPUs
        Path out = TestScans.tmp("cluster-shared").resolve("rec");
        Map<String, Object> r = runBitIdentical("submit5", out, List.of("group.rows=2", "job.test.taskDelayMs=1000"),
                List.of("spark.executor.resource.gpu.amount=2", "spark.executor.cores=2"));
        String backends = String.valueOf(r.get("backends"));
        assertTrue(backends.contains("on 0 (executor)") && backends.contains("on 1 (executor)"),
                "the tasks took the executor's GPUs: " + backends);
        Map<String, Object> writers = (Map<String, Object>) r.get("writers");
        assertEquals(1, writers.size(), "one set of writers committed every group: " + writers);
        String set = writers.keySet().iterator().next();
        assertTrue(set.endsWith("of 2 threads"), "the executor's cores: " + set);
        assertEquals(8, ((Number) writers.get(set)).intValue(), "the 8 groups of two rows: " + writers);
    }
}
