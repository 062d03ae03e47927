package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * A Hadoop cluster in this JVM for Spark-on-YARN tests: HDFS (one DataNode) and YARN (one ResourceManager, one
 * NodeManager whose containers are processes of their own), the NodeManager announcing {@code gpus} of a YARN resource
 * type when asked. Its client configuration is written to a folder that a submitting process takes as
 * {@code HADOOP_CONF_DIR}, as on a facility's gateway node.
 *
 * <p>What a node has installed is a Spark installation: the test classpath's Spark, Scala and Hadoop client jars, less the
 * test frameworks, the in-process clusters and every library the application jar carries itself, given to YARN as
 * {@code local:} jars ({@code spark.yarn.jars}) so that nothing of the project reaches a container but the application
 * jar that spark-submit uploads.
 */
final class YarnCluster implements AutoCloseable {
    static final String GPU_TYPE = "yarn.io/gpu";
    /** The checkout this module is built in (the tests run in the module's folder). */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();
    final MiniDFSCluster dfs;
    final MiniYARNCluster yarn;
    final Path confDir;
    final String hdfs;
    final Configuration conf;

    private YarnCluster(MiniDFSCluster dfs, MiniYARNCluster yarn, Path confDir, Configuration conf) {
        this.dfs = dfs;
        this.yarn = yarn;
        this.confDir = confDir;
        this.conf = conf;
        this.hdfs = dfs.getURI().toString();
    }

    /** Starts HDFS and YARN; {@code gpus} &gt; 0 declares {@link #GPU_TYPE} and gives the NodeManager that many. */
    static YarnCluster start(Path base, int gpus) throws Exception {
        Configuration conf = new YarnConfiguration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.resolve("minidfs").toString());
        MiniHdfs.onLoopback(conf);
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        dfs.waitActive();
        conf.set("fs.defaultFS", dfs.getURI().toString());
        // room for the ApplicationMaster (the driver in cluster mode) and two 1-core executors
        conf.setInt(YarnConfiguration.NM_PMEM_MB, 6144);
        conf.setInt(YarnConfiguration.NM_VCORES, 4);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.9f);
        // the CapacityScheduler's one queue (a cluster's capacity-scheduler.xml), counting every resource type
        conf.set("yarn.scheduler.capacity.root.queues", "default");
        conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
        conf.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
        conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        conf.set("yarn.scheduler.capacity.resource-calculator",
                "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
        String resourceTypes = "";
        if (gpus > 0) {
            // as a cluster's administrator declares GPUs (resource-types.xml, and each NodeManager's count); a real
            // NodeManager also runs YARN's GPU plugin, which finds and isolates them
            resourceTypes = "<configuration><property><name>yarn.resource-types</name><value>" + GPU_TYPE
                    + "</value></property></configuration>\n";
            conf.set("yarn.resource-types", GPU_TYPE);
            conf.set("yarn.nodemanager.resource-type." + GPU_TYPE, Integer.toString(gpus));
        }
        // YARN reads its resource types once per JVM: this JVM's servers take them from this configuration
        ResourceUtils.resetResourceTypes(conf);
        ResourceUtils.resetNodeResources();
        MiniYARNCluster yarn = new MiniYARNCluster("yarn-" + base.getFileName(), 1, 1, 1);
        yarn.init(conf);
        yarn.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (yarn.getConfig().get(YarnConfiguration.RM_ADDRESS).endsWith(":0")) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("YARN's ResourceManager did not bind in 60 s");
            Thread.sleep(100);
        }
        Path confDir = Files.createDirectories(base.resolve("hadoop-conf"));
        // the client configuration a gateway node has: the cluster's settings, less the rack mapping of Hadoop's test
        // classes that MiniDFSCluster sets (a node has only Hadoop's client jars)
        Configuration client = new Configuration(yarn.getConfig());
        client.unset("net.topology.node.switch.mapping.impl");
        try (OutputStream o = Files.newOutputStream(confDir.resolve("yarn-site.xml"))) {
            client.writeXml(o);
        }
        Configuration core = new Configuration(false);
        core.set("fs.defaultFS", dfs.getURI().toString());
        try (OutputStream o = Files.newOutputStream(confDir.resolve("core-site.xml"))) {
            core.writeXml(o);
        }
        if (!resourceTypes.isEmpty()) Files.writeString(confDir.resolve("resource-types.xml"), resourceTypes);
        return new YarnCluster(dfs, yarn, confDir, new Configuration(yarn.getConfig()));
    }

    FileSystem fs() throws IOException {
        return FileSystem.get(URI.create(hdfs), conf);
    }

    /**
     * The jars of a Spark installation on the test classpath: every jar but the project's, the test frameworks', the
     * in-process clusters' and those whose classes the application jar carries.
     */
    static List<Path> sparkInstallation(Path appJar) throws IOException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<Path> jars = new ArrayList<>();
        try (ZipFile app = new ZipFile(appJar.toFile())) {
            for (String e : cp.split(File.pathSeparator)) {
                Path p = Path.of(e);
                String name = p.getFileName().toString();
                if (!name.endsWith(".jar") || !Files.isRegularFile(p)) continue;
                // the project's own jars: installed ones, and in a reactor build its modules' jars under the checkout
                if (e.contains("/org/tomospark/") || p.toAbsolutePath().normalize().startsWith(PROJECT)) continue;
                if (name.startsWith("junit") || name.startsWith("opentest4j") || name.startsWith("apiguardian")
                        || name.startsWith("hadoop-client-minicluster") || name.startsWith("surefire") || name.startsWith("archunit"))
                    continue;
                if (carriedBy(app, p)) continue;
                jars.add(p);
            }
        }
        return jars;
    }

    /**
     * Whether the application jar carries {@code jar}'s library itself: the shade plugin keeps each library's Maven
     * descriptor ({@code META-INF/maven/GROUP/ARTIFACT/}), and the local repository's path names the jar's coordinates.
     */
    private static boolean carriedBy(ZipFile app, Path jar) {
        Path version = jar.getParent();
        if (version == null || version.getParent() == null) return false;
        Path artifact = version.getParent();
        String repo = "/repository/";
        String path = artifact.toString();
        int at = path.indexOf(repo);
        if (at < 0) return false;
        String coordinates = path.substring(at + repo.length());
        int cut = coordinates.lastIndexOf('/');
        String group = coordinates.substring(0, cut).replace('/', '.');
        return app.getEntry("META-INF/maven/" + group + "/" + coordinates.substring(cut + 1) + "/pom.properties") != null;
    }

    /** The NodeManager's container log folders of an application (stdout and stderr of its driver and executors). */
    String containerLogs(String appIdPart) throws IOException {
        StringBuilder b = new StringBuilder();
        Path logs = Path.of(yarn.getNodeManager(0).getConfig().get(YarnConfiguration.NM_LOG_DIRS).split(",")[0]);
        if (!Files.isDirectory(logs)) return "(no container logs under " + logs + ")";
        try (Stream<Path> s = Files.walk(logs)) {
            for (Path f : s.filter(Files::isRegularFile).filter(f -> f.toString().contains(appIdPart)).sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                b.append("==== ").append(logs.relativize(f)).append('\n');
                b.append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()))).append('\n');
            }
        }
        return b.toString();
    }

    /**
     * This cluster's live executor JVMs: the NodeManager runs in this JVM, so its containers' processes are this
     * process's descendants.
     */
    static List<ProcessHandle> executors() {
        return ProcessHandle.current().descendants().filter(p -> {
            try {
                return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")), StandardCharsets.UTF_8)
                        .contains("YarnCoarseGrainedExecutorBackend");
            } catch (IOException e) {
                return false; // ended meanwhile
            }
        }).toList();
    }

    @Override
    public void close() {
        yarn.stop();
        dfs.shutdown();
    }
}
