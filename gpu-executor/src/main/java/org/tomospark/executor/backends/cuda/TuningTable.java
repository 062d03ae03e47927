package org.tomospark.executor.backends.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Variant choices per (slices, format, interpolation) mode. Two kinds of table share the format:
 * <ul>
 *   <li>the generic fallback, {@code conf/cuda-tuning.properties} (also on the classpath as
 *   {@code /cuda-tuning.properties}): keys are mode keys, e.g. {@code k4.half.linear = alu:t32p8:adv};</li>
 *   <li>the per-device cache written by the auto-tuner: keys are {@code <device>/<mode>}, where device is the
 *   device name in lower case with non-alphanumerics replaced by '-', e.g. {@code nvidia-h200/k4.half.linear}.</li>
 * </ul>
 * Lines starting with # are comments. Values are variant strings as accepted by {@link KernelVariant#parse}.
 */
public final class TuningTable {
    private final Map<String, String> entries = new TreeMap<>();

    public static TuningTable parse(Reader r) throws IOException {
        Properties p = new Properties();
        p.load(r);
        TuningTable t = new TuningTable();
        for (String k : p.stringPropertyNames()) {
            String v = p.getProperty(k).trim();
            if (v.isEmpty()) throw new IOException("tuning table: empty variant for key '" + k + "'");
            if (!k.contains(".")) throw new IOException("tuning table: key '" + k + "' is not a mode key like k4.half.linear");
            t.entries.put(k.trim(), v);
        }
        return t;
    }

    public static TuningTable parse(String text) {
        try {
            return parse(new StringReader(text));
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Loads a file; an absent file is an empty table. */
    public static TuningTable load(Path file) throws IOException {
        if (!Files.exists(file)) return new TuningTable();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r);
        }
    }

    /** The generic fallback table from the classpath (empty if missing). */
    public static TuningTable fallback() {
        try (InputStream in = TuningTable.class.getResourceAsStream("/cuda-tuning.properties")) {
            if (in == null) return new TuningTable();
            return parse(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cuda: cannot read the fallback tuning table /cuda-tuning.properties: " + e.getMessage(), e);
        }
    }

    public static String deviceKey(String deviceName) {
        return deviceName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /** Per-device entry, or null. */
    public String forDevice(String deviceName, String mode) {
        return entries.get(deviceKey(deviceName) + "/" + mode);
    }

    /** Generic entry, or null. */
    public String generic(String mode) {
        return entries.get(mode);
    }

    public void putForDevice(String deviceName, String mode, String variant) {
        entries.put(deviceKey(deviceName) + "/" + mode, variant);
    }

    public Map<String, String> entries() {
        return Map.copyOf(entries);
    }

    public void store(Path file, String comment) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write("# " + comment + "\n");
            for (Map.Entry<String, String> e : entries.entrySet()) w.write(e.getKey() + " = " + e.getValue() + "\n");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Where the per-device cache lives: system property tomospark.cuda.tuningCache, else ~/.cache/tomospark, else tmpdir. */
    public static Path defaultCacheFile() {
        String p = System.getProperty("tomospark.cuda.tuningCache");
        if (p != null && !p.isBlank()) return Path.of(p);
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank() && Files.isWritable(Path.of(home)))
            return Path.of(home, ".cache", "tomospark", "cuda-tuning.properties");
        return Path.of(System.getProperty("java.io.tmpdir"), "tomospark-cuda-tuning.properties");
    }
}
