package org.tomospark.notebook;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The notebook jar is the one jar a notebook adds to Spark: jshell runs the Java example
 * ({@code notebooks/tomospark.jsh}) with Spark's classpath and that jar, and nothing else of the project. Every
 * classpath entry of this test whose classes the jar holds (the project's modules and their dependencies) is left out;
 * the entries that stay are Spark's.
 */
class JshellExampleTest {
    static final Path JAR = Path.of(System.getProperty("tomospark.notebook.jar"));
    static final Path SCRIPT = Path.of("../notebooks/tomospark.jsh");

    @Test
    void theJavaExampleRunsInJshellWithSparkAndTheNotebookJarAlone() throws Exception {
        assertTrue(Files.isRegularFile(JAR), JAR + " is built by package");
        List<String> sparkOnly = new ArrayList<>();
        int left = 0;
        try (JarFile shaded = new JarFile(JAR.toFile())) {
            assertFalse(shaded.stream().anyMatch(e -> e.getName().startsWith("org/apache/spark/")
                            || e.getName().startsWith("scala/") || e.getName().startsWith("org/apache/hadoop/")),
                    "no Spark, Scala or Hadoop");
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (!Files.exists(Path.of(entry))) continue;
                if (inJar(shaded, Path.of(entry))) left++;
                else sparkOnly.add(entry);
            }
        }
        assertTrue(left >= 9, "the project's modules and 7 libraries are in the jar: " + left + " classpath entries");
        assertTrue(sparkOnly.stream().anyMatch(e -> e.contains("spark-core"))
                && sparkOnly.stream().anyMatch(e -> e.contains("scala-library")), "Spark and Scala stay on it");
        sparkOnly.add(JAR.toString());

        Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "jshell");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jshell").toString(),
                "--class-path", String.join(File.pathSeparator, sparkOnly), "-R--add-modules=jdk.incubator.vector",
                "-R-Djava.io.tmpdir=" + dir));
        for (String opt : System.getProperty("tomospark.jvm.opens").trim().split("\\s+")) cmd.add("-R" + opt);
        cmd.add(SCRIPT.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("jshell.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("TOMOSPARK_OUTPUT", dir.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "jshell ran within 300 s");
        String log = Files.readString(dir.resolve("jshell.log"));
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("tomospark.jsh: OK"), log);
        assertTrue(Files.exists(dir.resolve("rec/_SUCCESS")) && Files.exists(dir.resolve("rec-auto/_SUCCESS")), log);
    }

    /**
     * Whether the jar holds the first class file of a classpath entry, a jar or a classes folder (for a jar of natives
     * alone, its first file outside META-INF).
     */
    private static boolean inJar(JarFile shaded, Path entry) {
        String first = firstFile(entry);
        return first != null && shaded.getEntry(first) != null;
    }

    private static String firstFile(Path entry) {
        try {
            if (Files.isDirectory(entry)) {
                try (var s = Files.walk(entry)) {
                    return s.filter(f -> f.toString().endsWith(".class")).sorted().findFirst()
                            .map(f -> entry.relativize(f).toString().replace(File.separatorChar, '/')).orElse(null);
                }
            }
            if (!Files.isRegularFile(entry)) return null;
            try (JarFile j = new JarFile(entry.toFile())) {
                List<String> files = j.stream().map(JarEntry::getName)
                        .filter(n -> !n.endsWith("/") && !n.startsWith("META-INF/")).toList();
                return files.stream().filter(n -> n.endsWith(".class")).findFirst()
                        .orElse(files.isEmpty() ? null : files.get(0));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(entry.toString(), e);
        }
    }
}
