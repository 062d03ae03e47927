package org.tomospark.job.deploy;

import org.apache.spark.deploy.SparkSubmitArguments;
import scala.collection.immutable.Map$;
import scala.jdk.javaapi.CollectionConverters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * submit/kubernetes/submit.sh run with {@code --dry-run}: the command it prints, read back as a shell reads it, and
 * parsed by spark-submit's own argument parser, which refuses an option Spark does not know.
 */
record SubmitLine(String program, List<String> submitArgs) {

    /** The environment submit.sh needs, as a test gives it. */
    static final Map<String, String> ENV = Map.of(
            "TOMO_K8S_API_SERVER", "https://k8s.example.org:6443",
            "TOMO_K8S_IMAGE", "registry.example.org/tomospark:0.1.0",
            "TOMO_K8S_NAMESPACE", "tomo");

    /** What the script did: its exit status, what it printed and what it said on stderr. */
    record Run(int status, String out, String err) {
    }

    /** Runs submit.sh with {@code env} (and none of the caller's TOMO_K8S_ or SPARK_ variables). */
    static Run run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", RecipeFiles.dir().resolve("submit.sh").toString()));
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("TOMO_K8S_") || k.startsWith("SPARK_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        return new Run(p.waitFor(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    /** The spark-submit command submit.sh prints for {@code job}, with the test environment. */
    static SubmitLine dryRun(String... job) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--dry-run"));
        args.addAll(Arrays.asList(job));
        Run r = run(ENV, args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        List<String> words = shellWords(r.out());
        return new SubmitLine(words.get(0), words.subList(1, words.size()));
    }

    /** The words a shell makes of {@code command} (quotes, escapes, line continuations): bash itself reads it. */
    static List<String> shellWords(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "eval \"set -- $1\"; printf '%s\\0' \"$@\"", "words", command).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "bash cannot read the printed command: " + err);
        return List.of(out.split("\0"));
    }

    /** The arguments as spark-submit reads them; no spark-defaults.conf is read (an empty environment). */
    SparkSubmitArguments parsed() {
        return parse(submitArgs);
    }

    static SparkSubmitArguments parse(List<String> args) {
        return new SparkSubmitArguments(CollectionConverters.asScala(args).toSeq(), Map$.MODULE$.empty());
    }

    /** The Spark properties of the command line (its --conf KEY=VALUE). */
    Map<String, String> conf() {
        return CollectionConverters.asJava(parsed().sparkProperties());
    }

    /** The job's arguments: what follows the application jar. */
    List<String> jobArgs() {
        return CollectionConverters.asJava(parsed().childArgs());
    }
}
