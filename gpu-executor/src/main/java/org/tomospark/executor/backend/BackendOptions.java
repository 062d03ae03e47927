package org.tomospark.executor.backend;

import org.tomospark.executor.config.ConfigKey;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Options common to all back-projection backends. Immutable.
 *
 * @param interpolation   detector interpolation
 * @param slicesPerPass   how many slices are interleaved into one compound sinogram (1, 2, 4, 8, 16), or 0 to let
 *                        the backend choose its fastest ({@link Requisition#slicesPerPass()} tells the choice)
 * @param format          storage of the interleaved bins
 * @param threads         CPU threads (java backend; 0 = all available processors)
 * @param device          device selector: empty for the default, an index, or a Spark GPU address
 * @param variant         kernel variant id, or "auto"
 * @param extra           backend-specific settings (documented by each backend)
 */
public record BackendOptions(Interpolation interpolation, int slicesPerPass, SampleFormat format, int threads,
                             String device, String variant, Map<String, String> extra) implements Serializable {

    public BackendOptions {
        if (interpolation == null) throw new IllegalArgumentException("backend.interpolation must be given");
        if (format == null) throw new IllegalArgumentException("backend.format must be given");
        if (slicesPerPass != 0 && (slicesPerPass < 1 || slicesPerPass > 16 || Integer.bitCount(slicesPerPass) != 1))
            throw new IllegalArgumentException("backend.slicesPerPass must be 0 (auto), 1, 2, 4, 8 or 16, got " + slicesPerPass);
        if (threads < 0) throw new IllegalArgumentException("backend.threads must be >= 0, got " + threads);
        device = device == null ? "" : device;
        variant = variant == null || variant.isBlank() ? "auto" : variant;
        extra = extra == null ? Map.of() : Map.copyOf(new TreeMap<>(extra));
    }

    public static BackendOptions defaults() {
        return new BackendOptions(Interpolation.LINEAR, 0, SampleFormat.FLOAT32, 0, "", "auto", Map.of());
    }

    public BackendOptions withInterpolation(Interpolation i) {
        return new BackendOptions(i, slicesPerPass, format, threads, device, variant, extra);
    }

    public BackendOptions withSlicesPerPass(int k) {
        return new BackendOptions(interpolation, k, format, threads, device, variant, extra);
    }

    public BackendOptions withFormat(SampleFormat f) {
        return new BackendOptions(interpolation, slicesPerPass, f, threads, device, variant, extra);
    }

    public BackendOptions withThreads(int t) {
        return new BackendOptions(interpolation, slicesPerPass, format, t, device, variant, extra);
    }

    public BackendOptions withDevice(String d) {
        return new BackendOptions(interpolation, slicesPerPass, format, threads, d, variant, extra);
    }

    public BackendOptions withVariant(String v) {
        return new BackendOptions(interpolation, slicesPerPass, format, threads, device, v, extra);
    }

    public BackendOptions withExtra(String key, String value) {
        Map<String, String> m = new TreeMap<>(extra);
        m.put(key, value);
        return new BackendOptions(interpolation, slicesPerPass, format, threads, device, variant, m);
    }

    public BackendOptions withoutExtra(String key) {
        Map<String, String> m = new TreeMap<>(extra);
        m.remove(key);
        return new BackendOptions(interpolation, slicesPerPass, format, threads, device, variant, m);
    }

    /**
     * A backend setting ({@link BackendProvider#keys}): its value in {@link #extra()}, or the key's default. A bad value is an
     * error naming the key.
     */
    public <T> T get(ConfigKey<T> key) {
        String v = extra.get(key.name());
        return key.parse(v != null ? v : key.defaultValue());
    }

    /** Group sizes must be a multiple of this: the chosen slices per pass, or 1 for auto (a partial pass is padded). */
    public int groupMultiple() {
        return slicesPerPass == 0 ? 1 : slicesPerPass;
    }

    /** A group size that suits every backend's choice: the slices per pass, or 16 for auto. */
    public int preferredGroupMultiple() {
        return slicesPerPass == 0 ? 16 : slicesPerPass;
    }

    public int effectiveThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }
}
