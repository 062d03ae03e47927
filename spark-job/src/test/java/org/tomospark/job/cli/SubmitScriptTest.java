package org.tomospark.job.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit/reconstruct, run against stand-ins: a fake spark-submit and a fake tomospark next to a copy of the
 * script, both printing the arguments they were given, so what the script passes on is checked without Spark.
 */
class SubmitScriptTest {
    @TempDir
    Path tmp;

    Path bin, sparkHome, jsig;

    /** What env.sh gives a machine of two cores or fewer here (its making is SmallMachineScriptTest's). */
    static final String SMALL = "-XX:+UseSerialGC -XX:Tier4InvocationThreshold=50000";

    void setUp() throws Exception {
        bin = Files.createDirectories(tmp.resolve("submit"));
        Path script = Path.of("..", "submit", "reconstruct").toAbsolutePath().normalize();
        if (!Files.isRegularFile(script)) script = Path.of("submit", "reconstruct").toAbsolutePath();
        Files.copy(script, bin.resolve("reconstruct"));
        jsig = Files.createDirectories(tmp.resolve("jdk/lib")).resolve("libjsig.so");
        Files.write(jsig, new byte[0]);
        Path cp = tmp.resolve("classpath.txt");
        Files.writeString(cp, "/x/a.jar:/x/org/apache/spark/s.jar");
        // env.sh as the launch scripts source it, without building: ROOT, CPFILE and the JDK's libjsig
        Files.writeString(bin.resolve("env.sh"), "ROOT=" + tmp + "\nCPFILE=" + cp + "\nJSIG=" + jsig + "\nTOMO_SMALL_OPTS=\"" + SMALL
                + "\"\n");
        exe(bin.resolve("tomospark"), "#!/usr/bin/env bash\necho \"TOMOSPARK $*\"\n");
        sparkHome = tmp.resolve("spark");
        exe(Files.createDirectories(sparkHome.resolve("bin")).resolve("spark-submit"), "#!/usr/bin/env bash\necho \"SUBMIT $*\"\n");
        Files.createDirectories(sparkHome.resolve("conf"));
    }

    static void exe(Path f, String body) throws Exception {
        Files.writeString(f, body);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    String lastErr = "";

    /** Runs the script; returns what the stand-in printed (stdout); the script's own messages are in {@link #lastErr}. */
    String run(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", bin.resolve("reconstruct").toString()));
        cmd.addAll(List.of(args));
        Path err = tmp.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
        pb.environment().remove("SPARK_HOME");
        pb.environment().remove("SPARK_CONF_DIR");
        pb.environment().remove("SPARK_MASTER");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        int rc = p.waitFor();
        lastErr = Files.readString(err);
        assertEquals(0, rc, out + lastErr);
        return out;
    }

    @Test
    void engineFromConfOrConfigFileIsNotOverridden() throws Exception {
        setUp();
        // no engine given: the script picks spark (embedded here, no SPARK_HOME)
        String none = run(Map.of(), "demo", "--output", "/o");
        assertEquals("TOMOSPARK reconstruct demo --output /o --engine spark", none.strip());
        // engine=direct through --conf or the config file: passed on untouched, no --engine spark appended
        String conf = run(Map.of(), "demo", "--conf", "engine=direct", "--output", "/o");
        assertEquals("TOMOSPARK reconstruct demo --conf engine=direct --output /o", conf.strip());
        Path props = tmp.resolve("job.properties");
        Files.writeString(props, "# a job\ncenter=12\nengine = direct\n");
        String file = run(Map.of(), "demo", "--config", props.toString(), "--output", "/o");
        assertEquals("TOMOSPARK reconstruct demo --config " + props + " --output /o", file.strip());
        // ... and with SPARK_HOME set it does not go to spark-submit
        assertTrue(run(Map.of("SPARK_HOME", sparkHome.toString()), "demo", "--conf", "engine=direct").startsWith("TOMOSPARK"));
        // --engine wins over the config file, as in the CLI
        assertTrue(run(Map.of("SPARK_HOME", sparkHome.toString()), "demo", "--config", props.toString(), "--engine", "spark")
                .startsWith("SUBMIT"));
    }

    @Test
    void executorPreloadIsOnlyLibjsigAndOnlyWhenTheUserHasNotSetIt() throws Exception {
        setUp();
        Map<String, String> env = Map.of("SPARK_HOME", sparkHome.toString(), "LD_PRELOAD", "/usr/lib/libfoo.so");
        // local master (spark-submit's default): the JDK's libjsig, not the shell's other preloads
        String local = run(env, "demo", "--output", "/o");
        assertTrue(local.startsWith("SUBMIT"), local);
        assertTrue(local.contains("--conf spark.executorEnv.LD_PRELOAD=" + jsig + " "), local);
        assertFalse(local.contains("libfoo"), local);
        // its executors run on this machine: huge pages asked for as for the driver (where this kernel offers them)
        boolean driverThp = local.contains("--driver-java-options --add-modules=jdk.incubator.vector -XX:+UseTransparentHugePages");
        assertEquals(driverThp, local.contains("spark.executor.extraJavaOptions=--add-modules=jdk.incubator.vector "
                + "-XX:+UseTransparentHugePages"), local);
        // set by the user with --spark-conf: theirs only
        String given = run(env, "demo", "--spark-conf", "spark.executorEnv.LD_PRELOAD=/opt/jdk/lib/libjsig.so");
        assertFalse(given.contains("LD_PRELOAD=" + jsig), given);
        assertTrue(given.contains("--conf spark.executorEnv.LD_PRELOAD=/opt/jdk/lib/libjsig.so"), given);
        // set in spark-defaults.conf ($SPARK_HOME/conf, or $SPARK_CONF_DIR): not overridden on the command line
        Files.writeString(sparkHome.resolve("conf/spark-defaults.conf"), "spark.executorEnv.LD_PRELOAD   /opt/jdk/lib/libjsig.so\n");
        String defaults = run(env, "demo");
        assertFalse(defaults.contains("LD_PRELOAD"), defaults);
        Files.delete(sparkHome.resolve("conf/spark-defaults.conf"));
        Path confDir = Files.createDirectories(tmp.resolve("sparkconf"));
        Files.writeString(confDir.resolve("spark-defaults.conf"), "spark.executorEnv.LD_PRELOAD=/opt/jdk/lib/libjsig.so\n");
        String confDirRun = run(Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_CONF_DIR", confDir.toString()), "demo");
        assertFalse(confDirRun.contains("LD_PRELOAD"), confDirRun);
        // a cluster master: the executors' JDK path is not guessed from this machine's; a hint says what to set
        String cluster = run(env, "demo", "--master", "spark://head:7077");
        assertTrue(cluster.contains("SUBMIT --master spark://head:7077"), cluster);
        assertFalse(cluster.contains("spark.executorEnv.LD_PRELOAD="), cluster);
        assertTrue(cluster.contains("spark.executor.extraJavaOptions=--add-modules=jdk.incubator.vector -XX:+UseTransparentHugePages"),
                cluster);
        assertTrue(lastErr.contains("spark.executorEnv.LD_PRELOAD is not set"), lastErr);
    }

    /**
     * Under spark-submit the driver runs on this machine (client mode; in local mode it is the executors too), so it gets
     * the small-machine settings as the embedded run does; a driver deployed into a cluster's container does not.
     */
    @Test
    void theDriverOnThisMachineGetsTheSmallMachineSettings() throws Exception {
        setUp();
        Map<String, String> env = Map.of("SPARK_HOME", sparkHome.toString());
        String local = run(env, "demo", "--output", "/o");
        String driverOpts = "(?s).*--driver-java-options --add-modules=jdk\\.incubator\\.vector \\S* ?" + Pattern.quote(SMALL) + " .*";
        assertTrue(local.matches(driverOpts), local);
        assertFalse(local.contains("spark.executor.extraJavaOptions=--add-modules=jdk.incubator.vector " + SMALL), local);
        String client = run(env, "demo", "--master", "spark://head:7077");
        assertTrue(client.contains(SMALL), client);
        String cluster = run(env, "demo", "--master", "spark://head:7077", "--spark-conf", "spark.submit.deployMode=cluster");
        assertFalse(cluster.contains(SMALL), cluster);
        Files.writeString(sparkHome.resolve("conf/spark-defaults.conf"), "spark.submit.deployMode  cluster\n");
        String defaults = run(env, "demo", "--master", "yarn");
        assertFalse(defaults.contains(SMALL), defaults);
    }
}
