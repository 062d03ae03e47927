package org.tomospark.executor.backends.cuda;

import com.sun.jna.Memory;
import jcuda.Pointer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A kernel parameter renamed in kernels/ fails the Java build: the build generates the kernels' argument builders from
 * the parameter lists of the variant manifest, so the manifest that kernels/manifest.cpp prints after a rename (here
 * the ramp filter's {@code width}, in kernels/signatures.cuh, renamed {@code rowWidth}) renames the setter, and the
 * CUDA backend's sources, still passing {@code width}, no longer compile. This runs what the build runs: the generator
 * (as a separate program) and javac over the backend's sources, once with the manifest as committed (it compiles) and
 * once renamed (it does not, naming the call).
 */
class KernelParameterRenameTest {
    private static final String FILTER_LINE = "signature FILTER kernel=ramp_filter_rows params=data:ptr,nrows:i64,width:i32,";

    @Test
    void aRenamedKernelParameterFailsTheBuildAtItsCaller(@TempDir Path tmp) throws Exception {
        String manifest = Files.readString(KernelArgsTest.packagedManifest());
        assertTrue(manifest.contains(FILTER_LINE), "the ramp filter's parameter list in the manifest");
        String renamed = manifest.replace(FILTER_LINE, FILTER_LINE.replace(",width:", ",rowWidth:"));
        assertNotEquals(manifest, renamed);

        List<Diagnostic<? extends JavaFileObject>> asCommitted = compile(manifest, tmp.resolve("committed"));
        assertEquals(List.of(), errors(asCommitted), "the backend compiles against the committed manifest");

        List<String> errors = errors(compile(renamed, tmp.resolve("renamed")));
        assertFalse(errors.isEmpty(), "the backend must not compile once the kernel's parameter is renamed");
        // every error is a caller still passing the old name (the ramp filter is launched from two places)
        for (String e : errors) assertTrue(e.contains("width(int)") && e.contains("Filter"), e);
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("KernelLauncher.java")), errors.toString());
        assertTrue(errors.stream().anyMatch(e -> e.startsWith("FdkKernels.java")), errors.toString());
    }

    /** Generates KernelCalls from this manifest, then compiles the CUDA backend's sources with it. */
    private static List<Diagnostic<? extends JavaFileObject>> compile(String manifest, Path dir) throws Exception {
        Path manifestFile = dir.resolve("variants.manifest");
        Path generated = dir.resolve("generated");
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        Files.writeString(manifestFile, manifest);
        generate(manifestFile, generated);

        List<File> sources = new ArrayList<>();
        try (Stream<Path> s = Files.list(moduleDir().resolve("src/main/java/org/tomospark/executor/backends/cuda"))) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(p -> sources.add(p.toFile()));
        }
        try (Stream<Path> s = Files.list(generated.resolve("org/tomospark/executor/backends/cuda"))) {
            s.forEach(p -> sources.add(p.toFile()));
        }

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        String classpath = String.join(File.pathSeparator, moduleDir().resolve("target/classes").toString(),
                locationOf(Pointer.class), locationOf(Logger.class), locationOf(Memory.class));
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-d", classes.toString(), "-classpath", classpath, "-proc:none", "-implicit:none");
            javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromFiles(sources)).call();
        }
        return diagnostics.getDiagnostics();
    }

    /** The errors as "File.java: message". */
    private static List<String> errors(List<Diagnostic<? extends JavaFileObject>> diagnostics) {
        List<String> l = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics) {
            if (d.getKind() != Diagnostic.Kind.ERROR) continue;
            String file = d.getSource() == null ? "?" : Path.of(d.getSource().toUri()).getFileName().toString();
            l.add(file + ": " + d.getMessage(null).replace('\n', ' '));
        }
        return l;
    }

    /** Runs the build's generator as the build does: a single-file program of src/build. */
    private static void generate(Path manifest, Path out) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), moduleDir().resolve("src/build/KernelCallsGenerator.java").toString(),
                manifest.toString(), out.toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the generator did not finish");
        assertEquals(0, p.exitValue(), output);
    }

    private static Path moduleDir() {
        return Files.exists(Path.of("src/build")) ? Path.of("").toAbsolutePath() : Path.of("gpu-executor").toAbsolutePath();
    }

    private static String locationOf(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
