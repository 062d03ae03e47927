package org.tomospark.job.spark;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.job.cli.TomoCli;
import org.tomospark.job.fs.Json;
import org.tomospark.job.outputs.OutputCommit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The application jar on YARN, as a facility runs it: submitted with Spark's own SparkSubmit (in a process of its own,
 * {@code HADOOP_CONF_DIR} naming the cluster) to Hadoop's MiniYARNCluster, inputs, parameter table and outputs on
 * MiniDFSCluster's HDFS, the driver in a container (cluster mode) or in the submitting process (client mode), executors in
 * containers whose classpath is a Spark installation and the application jar alone.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnClusterTest {
    static Path base;
    static Path appJar;
    static YarnCluster cluster;
    static String installation;
    static String javaHome;
    /** The executors' PATH: the nodes' programs, a fake nvidia-smi first. */
    static String nodePath;
    static final Path DISCOVERY = Path.of("..", "conf", "gpu-discovery.sh").toAbsolutePath().normalize();
    /** Three scans of different sizes, and the centre of each (its detector centre, given by the parameter table). */
    static final Map<String, DemoDataset.Spec> SCANS = Map.of("scan_a", TestScans.SPEC,
            "scan_b", DemoDataset.Spec.demo().withSize(80, 12, 100), "scan_c", DemoDataset.Spec.demo().withSize(64, 8, 90));

    @BeforeAll
    static void start() throws Exception {
        base = TestScans.tmp("yarn");
        appJar = Path.of(System.getProperty("tomospark.notebook.jar"));
        assertTrue(Files.isRegularFile(appJar), "the application jar is built before this test: " + appJar);
        cluster = YarnCluster.start(base, 2);
        installation = YarnCluster.sparkInstallation(appJar).stream().map(Object::toString)
                .collect(Collectors.joining(File.pathSeparator));
        javaHome = System.getProperty("java.home");
        FileSystem fs = cluster.fs();
        StringBuilder table = new StringBuilder("file,center\n");
        for (var e : SCANS.entrySet()) {
            Path local = base.resolve(e.getKey() + ".h5");
            new DemoDataset(e.getValue()).writeHdf5(local);
            fs.copyFromLocalFile(hadoopPath(local.toUri()), hadoopPath(cluster.hdfs + "/beamline/" + e.getKey() + ".h5"));
            table.append(e.getKey()).append(".h5,").append(center(e.getValue())).append('\n');
        }
        write(fs, "/beamline/table.csv", table.toString());
        // the batch's list of scans and its settings: files on HDFS, as a driver in a container reads them
        write(fs, "/beamline/scans.txt", SCANS.keySet().stream().sorted().map(n -> cluster.hdfs + "/beamline/" + n + ".h5")
                .collect(Collectors.joining("\n", "", "\n")));
        write(fs, "/beamline/tomo.properties", "filter=shepp-logan\nbackend=java\ngroup.rows=4\n");
        // the node's GPU as nvidia-smi lists it, for the product's discovery script (conf/gpu-discovery.sh), which the
        // application ships to its containers: YARN gives each executor container one GPU of the NodeManager's two, and
        // with YARN's GPU isolation a container's nvidia-smi lists only its own
        Path bin = Files.createDirectories(base.resolve("fake-bin"));
        Files.writeString(bin.resolve("nvidia-smi"), "#!/bin/sh\n# --query-gpu=index --format=csv,noheader\necho 0\n");
        assertTrue(bin.resolve("nvidia-smi").toFile().setExecutable(true));
        nodePath = bin + File.pathSeparator + System.getenv("PATH");
    }

    @AfterAll
    static void stop() {
        if (cluster != null) cluster.close();
    }

    static void write(FileSystem fs, String path, String text) throws IOException {
        try (FSDataOutputStream t = fs.create(hadoopPath(cluster.hdfs + path))) {
            t.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A path on the cluster's HDFS (or a local file's URI) as Hadoop's file system takes it. */
    // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
    static org.apache.hadoop.fs.Path hadoopPath(Object uri) {
        // CHECKSTYLE.ALLOW InlineQualifiedName: Hadoop's Path and java.nio's Path meet here
        return new org.apache.hadoop.fs.Path(uri.toString());
    }

    static double center(DemoDataset.Spec s) {
        return (s.width() - 1) / 2.0;
    }

    /** The single-machine run of a scan with the batch's settings: the slices every engine must give. */
    static Map<Integer, float[]> reference(String scan) {
        ReconstructionParams p = TestScans.params().toBuilder().center(center(SCANS.get(scan))).build();
        return TestScans.reconstructDirect(base.resolve(scan + ".h5"), p);
    }

    /** spark-submit of the application jar to the cluster, in a process of its own; its output goes to {@code name}.log. */
    static Process submit(String name, String deployMode, List<String> sparkConf, List<String> appArgs) throws IOException {
        return submit(name, deployMode, sparkConf, appArgs, appJar);
    }

    static Process submit(String name, String deployMode, List<String> sparkConf, List<String> appArgs, Path jar) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-Xmx512m"));
        cmd.addAll(Arrays.asList(System.getProperty("tomospark.jvm.opens").trim().split("\\s+")));
        cmd.addAll(List.of("-Djava.io.tmpdir=" + base, "-cp", installation + File.pathSeparator + cluster.confDir,
                "org.apache.spark.deploy.SparkSubmit", "--master", "yarn", "--deploy-mode", deployMode,
                "--class", TomoCli.class.getName(),
                // a node has Spark installed: YARN takes its jars from there, and uploads the application jar alone
                "--conf", "spark.yarn.jars=" + Arrays.stream(installation.split(File.pathSeparator))
                        .map(j -> "local:" + j).collect(Collectors.joining(",")),
                "--conf", "spark.yarn.appMasterEnv.JAVA_HOME=" + javaHome, "--conf", "spark.executorEnv.JAVA_HOME=" + javaHome,
                "--conf", "spark.driver.memory=640m", "--conf", "spark.yarn.am.memory=512m",
                "--conf", "spark.executor.memory=640m", "--conf", "spark.executor.cores=1", "--conf", "spark.executor.instances=2",
                "--conf", "spark.driver.extraJavaOptions=--add-modules=jdk.incubator.vector",
                "--conf", "spark.executor.extraJavaOptions=--add-modules=jdk.incubator.vector",
                "--conf", "spark.ui.enabled=false", "--conf", "spark.yarn.maxAppAttempts=1",
                "--conf", "spark.task.maxFailures=4"));
        // the GPU discovery script travels with the application, into each container's working directory
        cmd.addAll(List.of("--files", DISCOVERY.toString(), "--conf", "spark.executorEnv.PATH=" + nodePath));
        for (String c : sparkConf) cmd.addAll(List.of("--conf", c));
        cmd.add(jar.toString());
        cmd.addAll(appArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(base.resolve(name + ".log").toFile());
        pb.environment().put("HADOOP_CONF_DIR", cluster.confDir.toString());
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        return pb.start();
    }

    static String log(String name) throws IOException {
        List<String> l = Files.readAllLines(base.resolve(name + ".log"));
        return String.join("\n", l.subList(Math.max(0, l.size() - 80), l.size()));
    }

    static void await(Process p, String name, int expected, int seconds) throws Exception {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail(name + " did not finish in " + seconds + " s; log:\n" + log(name) + "\n" + cluster.containerLogs("application_"));
        }
        assertEquals(expected, p.exitValue(), name + " exited " + p.exitValue() + "; log:\n" + log(name) + "\n"
                + cluster.containerLogs("application_"));
    }

    static Map<String, Object> readJson(String uri) throws IOException {
        try (var s = cluster.fs().open(hadoopPath(uri))) {
            return Json.read(s.readAllBytes(), uri);
        }
    }

    /**
     * {@code reprocess} of three scans (their list, a parameter table and the settings: files on HDFS) in cluster mode: the driver runs in
     * YARN's ApplicationMaster container, the lock and the batch report are on HDFS, every scan's slices are the
     * single-machine run's bit for bit; each task took its GPU from YARN through Spark (TaskContext), as the reports show.
     */
    @Test
    @Order(1)
    @Timeout(420)
    void reprocessInClusterModeWithGpusFromYarn() throws Exception {
        String root = cluster.hdfs + "/rec-batch";
        Process p = submit("cluster", "cluster",
                List.of("spark.executor.resource.gpu.amount=1", "spark.task.resource.gpu.amount=1",
                        "spark.executor.resource.gpu.discoveryScript=./gpu-discovery.sh"),
                List.of("reprocess", "@" + cluster.hdfs + "/beamline/scans.txt", "--output-root", root,
                        "--table", cluster.hdfs + "/beamline/table.csv", "--config", cluster.hdfs + "/beamline/tomo.properties"));
        await(p, "cluster", 0, 400);
        FileSystem fs = cluster.fs();
        for (String scan : SCANS.keySet()) {
            TestScans.assertBitIdentical(reference(scan), TestScans.readSlices(root + "/" + scan, cluster.conf));
            Map<String, Object> r = readJson(root + "/" + scan + "/" + OutputCommit.REPORT);
            assertTrue(String.valueOf(((Map<?, ?>) r.get("spark")).get("master")).startsWith("yarn"), r.toString());
            String backends = String.valueOf(r.get("backends"));
            assertTrue(backends.contains("on 0 (spark)"), "the tasks' GPU came from Spark's assignment: " + backends);
        }
        assertTrue(fs.exists(hadoopPath(root + "/batch-report.json")));
        assertFalse(fs.exists(hadoopPath(root + "/_lock")), "the batch released its lock");
    }

    /**
     * A reconstruction in client mode (the driver in the submitting process) loses one of its two executor containers
     * mid-job, killed as a node's failure would: YARN starts another, Spark runs the lost tasks again, and the output is
     * complete and bit-identical.
     */
    @Test
    @Order(2)
    @Timeout(420)
    void executorKilledMidJobInClientMode() throws Exception {
        String out = cluster.hdfs + "/rec-killed";
        Process p = submit("client", "client", List.of("spark.driver.host=127.0.0.1"),
                List.of("reconstruct", "--input", cluster.hdfs + "/beamline/scan_a.h5", "--output", out, "--engine", "spark",
                        "--center", "47.5", "--filter", "shepp-logan", "--backend", "java",
                        "--conf", "group.rows=2", "--conf", "job.test.taskDelayMs=2000"));
        FileSystem fs = cluster.fs();
        var committed = hadoopPath(out + "/" + OutputCommit.COMMITTED);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        int atKill = -1;
        String seen = "";
        while (atKill < 0) {
            if (!p.isAlive()) fail("the run ended before an executor could be killed (last seen: " + seen + "); log:\n" + log("client"));
            if (System.nanoTime() > deadline) fail("no slice was committed in 300 s; log:\n" + log("client"));
            List<ProcessHandle> executors = YarnCluster.executors();
            int done = fs.exists(committed) ? (int) Arrays.stream(fs.listStatus(committed))
                    .filter(s -> s.getPath().getName().endsWith(".commit")).count() : 0;
            seen = executors.size() + " executors, " + done + " slices committed";
            if (done > 0 && !executors.isEmpty()) {
                executors.get(0).destroyForcibly();
                atKill = done;
            }
            Thread.sleep(200);
        }
        assertTrue(atKill < 16, "killed mid-job: " + atKill + " of 16 slices committed");
        await(p, "client", 0, 300);
        assertTrue(log("client").contains("Lost executor"), "Spark saw its executor lost:\n" + log("client"));
        TestScans.assertBitIdentical(TestScans.reference(), TestScans.readSlices(out, cluster.conf));
        assertTrue(fs.exists(hadoopPath(out + "/_SUCCESS")));
    }

    /**
     * Submissions without what YARN needs are refused before anything is written, naming the setting: a GPU backend
     * without executor GPUs (a reconstruction, and a batch whose every scan would run on it), executor GPUs of a
     * resource type the cluster does not have, an application jar that is not there.
     */
    @Test
    @Order(3)
    @Timeout(300)
    void submissionsWithoutWhatYarnNeedsAreRefusedNamingTheSetting() throws Exception {
        List<String> job = List.of("reconstruct", "--input", cluster.hdfs + "/beamline/scan_a.h5", "--engine", "spark",
                "--center", "47.5", "--output");
        // the three at once: each is refused on its own
        String noGpus = cluster.hdfs + "/refused-no-gpus";
        Process gpus = submit("no-gpus", "client", List.of("spark.driver.host=127.0.0.1", "spark.app.name=refused-no-gpus"),
                concat(job, noGpus, "--backend", "cuda"));
        String noType = cluster.hdfs + "/refused-no-type";
        Process type = submit("no-type", "client", List.of("spark.driver.host=127.0.0.1", "spark.app.name=refused-no-type",
                "spark.executor.resource.gpu.amount=1", "spark.executor.resource.gpu.discoveryScript=./gpu-discovery.sh",
                "spark.yarn.resourceGpuDeviceName=example.com/gpu"), concat(job, noType, "--backend", "java"));
        // a batch whose every scan would be refused (no table gives a scan another backend): refused as a whole
        String noGpusBatch = cluster.hdfs + "/refused-batch";
        Process batch = submit("no-gpus-batch", "client", List.of("spark.driver.host=127.0.0.1", "spark.app.name=refused-batch"),
                List.of("reprocess", "@" + cluster.hdfs + "/beamline/scans.txt", "--output-root", noGpusBatch, "--backend", "cuda"));
        String noJar = cluster.hdfs + "/refused-no-jar";
        Path missing = base.resolve("not-built").resolve(appJar.getFileName());
        Process jar = submit("no-jar", "cluster", List.of(), concat(job, noJar, "--backend", "java"), missing);

        await(gpus, "no-gpus", 2, 200);
        assertTrue(log("no-gpus").contains("spark.executor.resource.gpu.amount"), log("no-gpus"));
        await(type, "no-type", 2, 200);
        assertTrue(log("no-type").contains("no resource type 'example.com/gpu'")
                && log("no-type").contains("spark.yarn.resourceGpuDeviceName"), log("no-type"));
        await(batch, "no-gpus-batch", 2, 200);
        assertTrue(log("no-gpus-batch").contains("spark.executor.resource.gpu.amount") && log("no-gpus-batch").contains("backend cuda"),
                log("no-gpus-batch"));
        if (!jar.waitFor(120, TimeUnit.SECONDS)) fail("the submission without its jar did not end; log:\n" + log("no-jar"));
        assertTrue(jar.exitValue() != 0 && log("no-jar").contains(missing.toString()), log("no-jar"));

        FileSystem fs = cluster.fs();
        for (String out : List.of(noGpus, noType, noGpusBatch, noJar)) assertFalse(fs.exists(hadoopPath(out)), out + " was written");
        // refused before their Spark context started: YARN never saw an application of theirs
        List<String> apps = cluster.yarn.getResourceManager().getRMContext().getRMApps().values().stream()
                .map(RMApp::getName).toList();
        assertFalse(apps.contains("refused-no-gpus") || apps.contains("refused-no-type") || apps.contains("refused-batch"),
                "applications submitted: " + apps);
        assertFalse(apps.isEmpty(), "the earlier runs' applications are listed");
    }

    static List<String> concat(List<String> head, String... tail) {
        List<String> l = new ArrayList<>(head);
        l.addAll(List.of(tail));
        return l;
    }
}
