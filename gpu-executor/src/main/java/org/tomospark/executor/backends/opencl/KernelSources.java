package org.tomospark.executor.backends.opencl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OpenCL C sources of the repository's {@code kernels/} folder, packaged into the gpu-executor jar
 * under {@code kernels/}. Read on first use (never in a static initializer); when the classpath lacks
 * them (an IDE run without resource processing) {@code kernels/} and {@code ../kernels/} are tried.
 */
final class KernelSources {
    private static final Map<String, String> CACHE = new ConcurrentHashMap<>();

    private KernelSources() {
    }

    static String get(String name) {
        return CACHE.computeIfAbsent(name, KernelSources::load);
    }

    private static String load(String name) {
        try (InputStream in = KernelSources.class.getClassLoader().getResourceAsStream("kernels/" + name)) {
            if (in != null) return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading kernel resource kernels/" + name, e);
        }
        for (String dir : new String[]{"kernels", "../kernels"}) {
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p)) {
                try {
                    return Files.readString(p);
                } catch (IOException e) {
                    throw new UncheckedIOException("reading kernel source " + p.toAbsolutePath(), e);
                }
            }
        }
        throw new OpenClException("OpenCL kernel source kernels/" + name
                + " is neither on the classpath (gpu-executor jar) nor in ./kernels or ../kernels");
    }
}
