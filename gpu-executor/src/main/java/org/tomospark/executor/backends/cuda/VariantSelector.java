package org.tomospark.executor.backends.cuda;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the kernel variant of a job: the one {@code backend.variant} names, or for {@code auto} with
 * {@code cuda.autotune} the per-device tuning cache's choice, else a fresh auto-tuning sweep (stored in the cache); with
 * {@code cuda.autotune=false} the generic fallback table, whatever a cache holds (so that every executor of a job
 * computes the same bytes, whatever each host tuned before); then replaced where the device or the job cannot use it
 * well (too many projections for a texture kernel, too little shared memory, batches too small for a tensor-core
 * block), saying so in the selection's source.
 */
final class VariantSelector {
    private static final Logger LOG = LoggerFactory.getLogger(VariantSelector.class);
    /**
     * One lock per (device and kernel build, mode, cache file) in this JVM: tasks that start together wait for the
     * first one's choice instead of each timing the variants (and settling on different ones).
     */
    private static final Map<String, Object> TUNING_LOCKS = new ConcurrentHashMap<>();

    /** The variant and where it came from (requested, tuned, cached, fallback table, and any replacement). */
    record Selection(KernelVariant variant, String source) {
    }

    /** Times the candidates of a mode on the device and returns the fastest's variant string. */
    interface Tuner {
        String sweep(int k, SampleFormat f, Interpolation in);
    }

    private final KernelCatalog catalog;
    private final String kernelsVersion;
    private final String deviceName;
    private final int maxSharedOptin;

    /**
     * @param kernelsVersion the kernel build's hash: a kernel update (new or faster variants) invalidates earlier choices
     * @param maxSharedOptin the device's largest dynamic shared memory per block
     */
    VariantSelector(KernelCatalog catalog, String kernelsVersion, String deviceName, int maxSharedOptin) {
        this.catalog = catalog;
        this.kernelsVersion = kernelsVersion;
        this.deviceName = deviceName;
        this.maxSharedOptin = maxSharedOptin;
    }

    /**
     * @param k         slices per pass
     * @param np        projections of the job
     * @param maxSlices the job's largest batch
     */
    Selection select(BackendOptions options, int k, int np, int maxSlices, Tuner tuner) {
        SampleFormat f = options.format();
        Interpolation in = options.interpolation();
        String requested = options.variant();
        if (!requested.equals("auto")) return new Selection(catalog.parse(requested, k, f, in), "requested");
        String mode = KernelVariant.modeKey(k, f, in);
        if (!options.get(CudaKeys.AUTOTUNE))
            return adjusted(catalog.parse(fallback(mode), k, f, in), fallbackSource(mode), k, np, maxSlices);
        String cachePath = options.get(CudaKeys.TUNING_CACHE);
        Path cacheFile = cachePath.isBlank() ? TuningTable.defaultCacheFile() : Path.of(cachePath);
        String tuneKey = deviceName + " kernels " + kernelsVersion;
        String chosen, source;
        synchronized (TUNING_LOCKS.computeIfAbsent(tuneKey + "|" + mode + "|" + cacheFile.toAbsolutePath(), x -> new Object())) {
            TuningTable cache;
            try {
                cache = TuningTable.load(cacheFile);
            } catch (IOException | IllegalArgumentException e) {
                LOG.warn("cuda: ignoring unreadable tuning cache {}: {}", cacheFile, e.getMessage());
                cache = new TuningTable();
            }
            chosen = cache.forDevice(tuneKey, mode);
            if (chosen != null) {
                source = "tuned, cached in " + cacheFile;
            } else {
                chosen = tuner.sweep(k, f, in);
                source = "tuned now";
                cache.putForDevice(tuneKey, mode, chosen);
                try {
                    cache.store(cacheFile, "tomospark CUDA auto-tuning cache (per device); delete to re-tune");
                } catch (IOException e) {
                    LOG.warn("cuda: cannot write the tuning cache {}: {}", cacheFile, e.getMessage());
                }
            }
        }
        return adjusted(catalog.parse(chosen, k, f, in), source, k, np, maxSlices);
    }

    /** The fallback table's variant of a mode; {@code alu} for a mode the table lacks. */
    private static String fallback(String mode) {
        String v = TuningTable.fallback().generic(mode);
        return v != null ? v : "alu";
    }

    private static String fallbackSource(String mode) {
        return TuningTable.fallback().generic(mode) != null ? "fallback table" : "built-in default";
    }

    /** A chosen (not requested) variant, replaced where this device or job cannot use it well. */
    private Selection adjusted(KernelVariant kv, String source, int k, int np, int maxSlices) {
        StringBuilder src = new StringBuilder(source);
        if (np > kv.maxProjections()) {
            src.append("; ").append(kv.id()).append(" cannot take ").append(np).append(" projections, using alu");
            kv = catalog.parse("alu", k, kv.format(), kv.interpolation());
        }
        if (kv.dynamicSharedBytes() > maxSharedOptin) {
            // a table or cache made on a larger GPU (e.g. an H200's 227 KiB per block against 99 KiB on sm_86/89): the
            // same family's variant with the most shared memory that fits, else alu
            KernelVariant fit = catalog.fittingShared(kv, k, maxSharedOptin);
            src.append("; ").append(kv.id()).append(" needs ").append(kv.dynamicSharedBytes()).append(" bytes of shared memory, ")
                    .append(deviceName).append(" allows ").append(maxSharedOptin).append(", using ").append(fit.id());
            kv = fit;
        }
        KernelVariant forBatch = catalog.forBatch(kv, k, maxSlices);
        if (forBatch != kv) {
            // e.g. Spark slice groups of 16 rows: a tensor-core block of 32 slices would run half empty
            src.append("; ").append(kv.id()).append(" takes 32 slices per block, batches hold at most ").append(maxSlices)
                    .append(", using ").append(forBatch.id());
            kv = forBatch;
        }
        return new Selection(kv, src.toString());
    }
}
