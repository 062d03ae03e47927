package org.tomospark.job.deploy;

import org.apache.spark.SparkException;
import org.apache.spark.deploy.SparkSubmitArguments;
import org.apache.spark.package$;
import org.junit.jupiter.api.Test;
import org.tomospark.job.cli.TomoCli;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kubernetes recipe (submit/kubernetes, docs/kubernetes.md) as far as it can be checked without a cluster: the pod
 * template's structure, the spark-submit line as Spark's own parser reads it, the job's arguments as the CLI reads them,
 * and the image's files the line names.
 */
class KubernetesRecipeTest {
    static final String APP_JAR = "local:///opt/tomospark/tomospark.jar";
    static final String DISCOVERY = "spark.executor.resource.gpu.discoveryScript";
    static final String TEMPLATE = "spark.kubernetes.executor.podTemplateFile";

    @Test
    void everyYamlIsAPodTemplateAndTheExecutorAsksForOneGpuWithTheDiscoveryScript() throws Exception {
        List<Path> files = RecipeFiles.yamlFiles();
        assertFalse(files.isEmpty(), "no YAML in " + RecipeFiles.dir());
        for (Path f : files) {
            Map<String, Object> pod = RecipeFiles.yaml(f);
            assertEquals("v1", pod.get("apiVersion"), f.toString());
            assertEquals("Pod", pod.get("kind"), f.toString());
        }
        PodTemplate executor = PodTemplate.read(RecipeFiles.dir().resolve("executor-pod-template.yaml"), "spark-executor");
        assertEquals(1, executor.limits().get("nvidia.com/gpu"));
        PodTemplate.Mounted script = executor.mountedFile("gpu-discovery");
        assertEquals("/opt/tomospark/gpu-discovery.sh", script.mountPath());
        assertEquals("tomospark-gpu-discovery", script.configMap());
        assertEquals("gpu-discovery.sh", script.key());
        assertEquals(0755, script.mode());
        assertEquals(0111, script.mode() & 0111, "the script is not executable for all");
    }

    @Test
    void reprocessLineIsOneSparkSubmitReadsAndTheCliAccepts() throws Exception {
        SubmitLine line = SubmitLine.dryRun("reprocess", "hdfs://nn:8020/scans/2026-*/scan_*.h5", "--output-root",
                "hdfs://nn:8020/rec", "--backend", "cuda", "--center", "auto");
        assertEquals("spark-submit", line.program());
        SparkSubmitArguments args = line.parsed();
        assertEquals("k8s://https://k8s.example.org:6443", args.master());
        assertEquals("cluster", args.deployMode());
        assertEquals("org.tomospark.job.cli.TomoCli", args.mainClass());
        assertEquals(APP_JAR, args.primaryResource());
        Map<String, String> conf = line.conf();
        assertEquals("registry.example.org/tomospark:0.1.0", conf.get("spark.kubernetes.container.image"));
        assertEquals("tomo", conf.get("spark.kubernetes.namespace"));
        assertEquals("spark", conf.get("spark.kubernetes.authenticate.driver.serviceAccountName"));

        // the pod template the line names is the one the other test parsed, and it mounts the discovery script
        // where the line says it is
        Path template = RecipeFiles.dir().resolve("executor-pod-template.yaml");
        assertEquals(template.toRealPath(), Path.of(conf.get(TEMPLATE)).toRealPath());
        String container = conf.get("spark.kubernetes.executor.podTemplateContainerName");
        PodTemplate executor = PodTemplate.read(template, container);
        assertEquals(executor.mountedFile("gpu-discovery").mountPath(), conf.get(DISCOVERY));

        // one GPU an executor, and the job's own task slots: no task GPU amount, which would keep Spark's slots
        assertEquals("1", conf.get("spark.executor.resource.gpu.amount"));
        assertEquals("nvidia.com", conf.get("spark.executor.resource.gpu.vendor"));
        assertFalse(conf.containsKey("spark.task.resource.gpu.amount"));
        assertFalse(conf.containsKey("spark.task.cpus"));
        assertEquals("false", conf.get("spark.dynamicAllocation.enabled"), "task resource profiles need it off");
        assertEquals("2", conf.get("spark.executor.instances"));
        assertEquals("16", conf.get("spark.executor.cores"));

        assertEquals("org.apache.spark.serializer.KryoSerializer", conf.get("spark.serializer"));
        assertEquals("org.tomospark.job.spark.TomoKryoRegistrator", conf.get("spark.kryo.registrator"));
        assertEquals("true", conf.get("spark.kryo.registrationRequired"));
        assertEquals("org.tomospark.job.spark.ExecutorGpuPlugin", conf.get("spark.plugins"));
        assertTrue(List.of(conf.get("spark.executor.extraJavaOptions").split(" ")).contains("--add-modules=jdk.incubator.vector"));
        assertTrue(List.of(conf.get("spark.driver.extraJavaOptions").split(" ")).contains("--add-modules=jdk.incubator.vector"));
        assertEquals("/opt/java/openjdk/lib/libjsig.so", conf.get("spark.executorEnv.LD_PRELOAD"));

        ParseResult job = cli(line.jobArgs());
        assertEquals("reprocess", job.commandSpec().name());
        assertEquals(List.of("hdfs://nn:8020/scans/2026-*/scan_*.h5"), job.matchedPositionalValue(0, List.of()));
        assertEquals("hdfs://nn:8020/rec", job.matchedOptionValue("--output-root", ""));
        assertEquals("cuda", job.matchedOptionValue("--backend", ""));
    }

    @Test
    void reconstructLineRunsOnTheSparkEngineAndSparkConfsComeLast() throws Exception {
        SubmitLine line = SubmitLine.dryRun("--spark-conf", "spark.executor.instances=8", "reconstruct",
                "--input", "hdfs://nn:8020/scans/scan.h5", "--output", "s3a://bucket/rec/scan", "--center", "296");
        assertEquals("8", line.conf().get("spark.executor.instances"), "a --spark-conf wins over the recipe's");
        ParseResult job = cli(line.jobArgs());
        assertEquals("reconstruct", job.commandSpec().name());
        assertEquals("spark", job.matchedOptionValue("--engine", ""));
        assertEquals("hdfs://nn:8020/scans/scan.h5", job.matchedOptionValue("--input", ""));
        assertEquals("s3a://bucket/rec/scan", job.matchedOptionValue("--output", ""));
        assertEquals("296", job.matchedOptionValue("--center", ""));
    }

    @Test
    void theParsersRefuseWhatTheyDoNotKnow() throws Exception {
        // what makes the checks above worth having: a misspelt option fails them
        List<String> submit = new ArrayList<>(SubmitLine.dryRun("reprocess", "hdfs://nn/s", "--output-root", "hdfs://nn/r")
                .submitArgs());
        submit.add(0, "--executor-gpus");
        SparkException unknown = assertThrows(SparkException.class, () -> SubmitLine.parse(submit));
        assertTrue(unknown.getMessage().contains("--executor-gpus"), unknown.getMessage());
        assertThrows(ParameterException.class, () -> cli(List.of("reprocess", "hdfs://nn/s", "--outputroot", "hdfs://nn/r")));
    }

    @Test
    void imageHoldsTheJarAndTheJdkTheLineNames() throws Exception {
        List<String> dockerfile = RecipeFiles.dockerfile();
        Map<String, String> conf = SubmitLine.dryRun("reprocess", "hdfs://nn/s", "--output-root", "hdfs://nn/r").conf();
        Dockerfile image = new Dockerfile(dockerfile);
        String sparkVersion = package$.MODULE$.SPARK_VERSION();
        assertEquals("apache/spark:" + sparkVersion + "-scala2.13-java17-ubuntu", image.argDefault("SPARK_IMAGE"),
                "the image's Spark is the one the jar is built against");
        assertEquals("${SPARK_IMAGE}", image.from());
        String version = System.getProperty("tomospark.test.projectVersion");
        assertNotNull(version, "run by Maven, which gives the project's version");
        assertEquals(version, image.argDefault("TOMOSPARK_VERSION"));
        Dockerfile.Copy jar = image.copyTo(APP_JAR.substring("local://".length()));
        assertEquals("notebook/target/tomospark-notebook-${TOMOSPARK_VERSION}.jar", jar.source());
        // the build context keeps the jar (everything else is left out of it)
        List<String> ignore = RecipeFiles.dockerIgnore();
        assertEquals("*", ignore.get(0));
        String kept = ignore.get(1).substring(1);
        Path built = Path.of("notebook/target/tomospark-notebook-" + version + ".jar");
        assertTrue(FileSystems.getDefault().getPathMatcher("glob:" + kept).matches(built), kept);
        // the JDK's libjsig the executors preload is where the build checked it is
        assertTrue(dockerfile.contains("RUN test -f " + conf.get("spark.executorEnv.LD_PRELOAD")), dockerfile.toString());
    }

    @Test
    void missingSettingsAndLocalPathsAreRefusedNamingThem() throws Exception {
        Map<String, String> noImage = new HashMap<>(SubmitLine.ENV);
        noImage.remove("TOMO_K8S_IMAGE");
        SubmitLine.Run r = SubmitLine.run(noImage, "--dry-run", "reprocess", "hdfs://nn/s", "--output-root", "hdfs://nn/r");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("set TOMO_K8S_IMAGE"), r.err());
        assertEquals("", r.out());

        r = SubmitLine.run(SubmitLine.ENV, "--dry-run", "reconstruct", "--input", "/data/scan.h5", "--output", "hdfs://nn/r");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("'/data/scan.h5' is a local path"), r.err());
        r = SubmitLine.run(SubmitLine.ENV, "--dry-run", "reprocess", "hdfs://nn/s", "--output-root=file:/tmp/r");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("'--output-root=file:/tmp/r' is a local path"), r.err());
        r = SubmitLine.run(SubmitLine.ENV, "--dry-run", "reconstruct", "--engine", "direct", "--input", "hdfs://nn/s");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("Spark engine"), r.err());
    }

    /** The job's arguments as the CLI parses them: the chosen subcommand's result. */
    static ParseResult cli(List<String> args) {
        CommandLine cl = new CommandLine(TomoCli.class);
        cl.setExpandAtFiles(false);
        ParseResult top = cl.parseArgs(args.toArray(String[]::new));
        assertTrue(top.hasSubcommand(), "no subcommand in " + args);
        return top.subcommand();
    }
}
