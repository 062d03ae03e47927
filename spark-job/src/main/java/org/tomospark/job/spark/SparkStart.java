package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext$;
import org.apache.spark.SparkContext;
import org.apache.spark.deploy.SparkHadoopUtil;
import org.apache.spark.util.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A Spark context for a run: one already running (a notebook's, a test's, spark-submit's), or one this process starts on a
 * thread of its own, so that the driver's own work (reading the command line, opening the input, the centre, the flats and
 * the preflight) overlaps Spark's start, which takes most of a second even in local mode. What the driver plans with
 * before the context is up comes from the settings the context is made of: its {@link SparkConf}, and the Hadoop
 * configuration Spark derives from them ({@link SparkHadoopUtil#newConfiguration}, as the context does).
 */
public final class SparkStart {
    private static final Logger LOG = LoggerFactory.getLogger(SparkStart.class);
    /** The environment variable naming a Spark properties file for a context this process starts. */
    public static final String PROPERTIES_ENV = "TOMOSPARK_SPARK_CONF";
    private final CompletableFuture<SparkConf> conf;
    private final CompletableFuture<SparkContext> context;
    private final boolean owned;
    private final AtomicBoolean stopped = new AtomicBoolean();

    private SparkStart(CompletableFuture<SparkConf> conf, CompletableFuture<SparkContext> context, boolean owned) {
        this.conf = conf;
        this.context = context;
        this.owned = owned;
    }

    /** A context already running; {@link #stop} leaves it running. */
    public static SparkStart of(SparkContext sc) {
        return new SparkStart(CompletableFuture.completedFuture(sc.getConf()), CompletableFuture.completedFuture(sc), false);
    }

    /**
     * The settings of the command line's own context: spark-submit's where it set a master (its settings as they are),
     * otherwise embedded {@code local[*]} on the loopback address without a web UI; Kryo with the job's registrator and
     * the executor plugin where not given; in local mode, task results up to 128 MiB passed directly.
     */
    public static SparkConf settings(String appName) {
        SparkConf conf = new SparkConf();
        addPropertiesFile(conf, System.getenv(PROPERTIES_ENV));
        if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
            conf.set("spark.driver.host", "127.0.0.1");
            conf.set("spark.ui.enabled", "false");
        }
        // in local mode a task's result (its slices' profiles, the middle slice whole for the preview) goes to the
        // driver in this JVM: as it is, rather than stored in the block manager and fetched back over a loopback
        // connection above 1 MiB. Spark caps it at spark.rpc.message.maxSize.
        String master = conf.get("spark.master");
        if (master.startsWith("local") && !master.startsWith("local-cluster"))
            conf.setIfMissing("spark.task.maxDirectResultSize", "128m");
        if (!conf.contains("spark.app.name")) conf.setAppName(appName);
        if (!conf.contains("spark.serializer")) TomoKryoRegistrator.configure(conf);
        ExecutorGpuPlugin.register(conf);
        return conf;
    }

    /**
     * Adds the Spark settings of a properties file (as spark-submit's {@code --properties-file} reads it) that the
     * settings do not already hold: how a command line started without spark-submit gets a cluster's secret
     * ({@code spark.authenticate.secret}) without it showing on a command line. Nothing where {@code file} is null or
     * blank.
     */
    static void addPropertiesFile(SparkConf conf, String file) {
        if (file == null || file.isBlank()) return;
        if (!Files.isRegularFile(Path.of(file)) || !Files.isReadable(Path.of(file)))
            throw new IllegalArgumentException(PROPERTIES_ENV + ": " + file + " is not a readable properties file");
        CollectionConverters.asJava(Utils.getPropertiesFromFile(file)).forEach((k, v) -> {
            if (k.startsWith("spark.")) conf.setIfMissing(k, v);
        });
    }

    /**
     * Makes the settings and starts a context of them on a daemon thread, and returns at once; where a context is already
     * active (a notebook's) that one is taken, and left running by {@link #stop}. The settings are made on that thread
     * too: loading Spark's configuration classes is a tenth of a second the caller need not wait for.
     */
    public static SparkStart begin(Supplier<SparkConf> settings) {
        return begin(settings, c -> {
        });
    }

    /**
     * As {@link #begin(Supplier)}, with checks of the settings that run on that thread before the context starts (on a
     * cluster, starting it submits an application): a check that throws leaves the settings available and the context
     * never started, its exception thrown by {@link #context}.
     */
    public static SparkStart begin(Supplier<SparkConf> settings, Consumer<SparkConf> beforeStart) {
        scala.Option<SparkContext> active = SparkContext$.MODULE$.getActive();
        if (active.isDefined()) return of(active.get());
        return start(settings, beforeStart);
    }

    /** Makes the settings, checks them and starts a context of them on a daemon thread (the caller found none active). */
    static SparkStart start(Supplier<SparkConf> settings, Consumer<SparkConf> beforeStart) {
        CompletableFuture<SparkConf> conf = new CompletableFuture<>();
        CompletableFuture<SparkContext> context = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                SparkConf c = settings.get();
                conf.complete(c.clone());
                beforeStart.accept(c.clone());
                context.complete(SparkContext.getOrCreate(c));
            } catch (Throwable e) {
                conf.completeExceptionally(e);
                context.completeExceptionally(e);
            }
        }, "tomospark-spark-start");
        t.setDaemon(true);
        t.start();
        return new SparkStart(conf, context, true);
    }

    /** The settings the context has or will have (read only); a failure to make them is thrown here. */
    public SparkConf conf() {
        return join(conf);
    }

    /** Whether the tasks run in this JVM (local mode; not local-cluster). */
    public boolean local() {
        String master = conf().get("spark.master", "");
        return master.startsWith("local") && !master.startsWith("local-cluster");
    }

    /** Whether this process started the context (and stops it). */
    public boolean owned() {
        return owned;
    }

    /** The context, once it is up; a failure to start it is thrown here, as Spark threw it. */
    public SparkContext context() {
        return join(context);
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) throw r;
            if (c instanceof Error err) throw err;
            throw new IllegalStateException("starting Spark: " + c.getMessage(), c);
        }
    }

    /**
     * Runs {@code action} with the context once it is up, on the thread that started it (at once where it is up): work
     * that may help the run but never decides it, so a failure is logged and the run goes on.
     */
    public void whenStarted(String what, Consumer<SparkContext> action) {
        context.thenAccept(sc -> {
            try {
                action.accept(sc);
            } catch (RuntimeException e) {
                LOG.warn("{}: {}", what, e.toString());
            }
        });
    }

    /**
     * The Hadoop configuration of the run's file systems: a running context's own (which a notebook may have changed);
     * for a context still starting, the one it will have, made the way it makes it.
     */
    public Configuration hadoopConf() {
        if (!owned) return context().hadoopConfiguration();
        return SparkHadoopUtil.get().newConfiguration(conf());
    }

    /** Stops a context this process started, once it is up (a failed start has nothing to stop); once. */
    public void stop() {
        if (!owned || !stopped.compareAndSet(false, true)) return;
        SparkContext sc;
        try {
            sc = context.join();
        } catch (CompletionException e) {
            return;
        }
        sc.stop();
    }
}
