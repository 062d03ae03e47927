package org.tomospark.job.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkEnv;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.executor.pipeline.SliceGroupProcessor;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Readies a new executor JVM for its first task while it waits for one: loads the product's classes, starts Hadoop's
 * configuration and local file system, and runs Java serialization and Spark's serializer once. A cold JVM otherwise
 * spends about a second of its first task deserializing it (the classes its closure and plan need) and fetching the
 * job's plan, which every job's first task on the executor waits for. Best effort: whatever fails here is left to the
 * task, which reports it.
 */
final class ExecutorWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(ExecutorWarmUp.class);
    private static final String PACKAGE = "org/tomospark/";

    private ExecutorWarmUp() {
    }

    /** What a warm-up task runs: nothing but getting to this executor, its classes loaded on the way. */
    static void touch() {
        // the task's own deserialization and the call are the warm-up
    }

    /** Starts the warm-up on a daemon thread of its own. */
    static void start(String executorId) {
        Thread t = new Thread(() -> {
            long t0 = System.nanoTime();
            int classes = loadProductClasses();
            warmHadoop();
            warmSerialization();
            LOG.info("executor {}: ready for its first task in {} ms ({} classes loaded ahead)", executorId,
                    (System.nanoTime() - t0) / 1_000_000, classes);
        }, "tomospark-executor-warm-up");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    /** Loads (without initializing) every class of the product's two modules; returns how many loaded. */
    static int loadProductClasses() {
        int n = 0;
        ClassLoader loader = ExecutorWarmUp.class.getClassLoader();
        for (Class<?> anchor : List.of(GroupTask.class, SliceGroupProcessor.class))
            for (String name : classNames(anchor)) {
                try {
                    Class.forName(name, false, loader);
                    n++;
                } catch (ClassNotFoundException | LinkageError e) {
                    LOG.debug("warm-up: {} not loaded ({})", name, e.toString());
                }
            }
        return n;
    }

    /** The names of the product's classes in the jar or folder that holds {@code anchor}. */
    static List<String> classNames(Class<?> anchor) {
        List<String> names = new ArrayList<>();
        try {
            Path where = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(where)) {
                try (Stream<Path> files = Files.walk(where)) {
                    files.map(p -> where.relativize(p).toString().replace('\\', '/')).filter(ExecutorWarmUp::productClass)
                            .forEach(f -> names.add(className(f)));
                }
            } else {
                try (JarFile jar = new JarFile(where.toFile())) {
                    for (JarEntry e : Collections.list(jar.entries()))
                        if (productClass(e.getName())) names.add(className(e.getName()));
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            LOG.debug("warm-up: the classes of {} not listed ({})", anchor.getName(), e.toString());
        }
        return names;
    }

    private static boolean productClass(String file) {
        return file.startsWith(PACKAGE) && file.endsWith(".class") && !file.endsWith("module-info.class");
    }

    private static String className(String file) {
        return file.substring(0, file.length() - ".class".length()).replace('/', '.');
    }

    /** Hadoop's configuration (its default files parsed) and the local file system, as a task's reads start them. */
    private static void warmHadoop() {
        try {
            Configuration conf = new Configuration();
            conf.get("fs.defaultFS");
            FileSystem local = FileSystem.getLocal(conf);
            local.exists(local.getWorkingDirectory());
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.debug("warm-up: Hadoop not started ({})", e.toString());
        }
    }

    /** Java serialization of a record and a lambda (how a task's closure and plan arrive), and Spark's serializer. */
    private static void warmSerialization() {
        try {
            Function<Integer, Integer> f = (Function<Integer, Integer> & Serializable) x -> x + 1;
            Object[] sample = {new GroupPlanner.Group(0, 0, 1), f};
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bos)) {
                out.writeObject(sample);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
                in.readObject();
            }
            SparkEnv env = SparkEnv.get();
            if (env != null) env.serializer().newInstance();
        } catch (IOException | ClassNotFoundException | RuntimeException | LinkageError e) {
            LOG.debug("warm-up: serialization not run ({})", e.toString());
        }
    }
}
