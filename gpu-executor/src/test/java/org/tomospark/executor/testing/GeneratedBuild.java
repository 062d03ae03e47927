package org.tomospark.executor.testing;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the gpu-executor build does with the kernels' descriptions, run by a test: a generator of src/build as the
 * single-file program the build runs, and javac over a backend's sources with what it generated. Tests of the
 * descriptions use it to show that a name changed in kernels/ fails the Java build at its callers.
 */
public final class GeneratedBuild {
    private GeneratedBuild() {
    }

    /** A generator's exit status and what it printed. */
    public record Run(int exit, String output) {
    }

    /** Runs a generator of src/build ({@code name}.java) with these arguments, as the build runs it; it must succeed. */
    public static void generate(String name, Path input, Path out) throws IOException, InterruptedException {
        Run r = run(name, input, out);
        assertEquals(0, r.exit(), r.output());
    }

    /** Runs a generator of src/build ({@code name}.java) with these arguments, as the build runs it. */
    public static Run run(String name, Path input, Path out) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), moduleDir().resolve("src/build/" + name + ".java").toString(),
                input.toString(), out.toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), name + " did not finish");
        return new Run(p.exitValue(), output);
    }

    /**
     * Compiles the main sources of one backend package (e.g. {@code org/tomospark/executor/backends/opencl}) with the
     * generated sources of the same package under {@code generated}, against the module's classes and these classes'
     * jars. Returns the errors as "File.java: message".
     */
    public static List<String> compileErrors(String packagePath, Path generated, Path classes, Class<?>... dependencies)
            throws IOException, URISyntaxException {
        List<File> sources = new ArrayList<>();
        for (Path dir : List.of(moduleDir().resolve("src/main/java").resolve(packagePath), generated.resolve(packagePath))) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".java")).forEach(p -> sources.add(p.toFile()));
            }
        }
        List<String> classpath = new ArrayList<>(List.of(moduleDir().resolve("target/classes").toString()));
        for (Class<?> c : dependencies) classpath.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-d", classes.toString(), "-classpath", String.join(File.pathSeparator, classpath),
                    "-proc:none", "-implicit:none");
            javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromFiles(sources)).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) continue;
            String file = d.getSource() == null ? "?" : Path.of(d.getSource().toUri()).getFileName().toString();
            errors.add(file + ": " + d.getMessage(null).replace('\n', ' '));
        }
        return errors;
    }

    /** The gpu-executor module's folder, whether the tests run from it or from the repository's root. */
    public static Path moduleDir() {
        return Files.exists(Path.of("src/build")) ? Path.of("").toAbsolutePath() : Path.of("gpu-executor").toAbsolutePath();
    }
}
