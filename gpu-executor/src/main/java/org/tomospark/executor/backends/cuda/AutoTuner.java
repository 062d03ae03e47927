package org.tomospark.executor.backends.cuda;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;

import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Auto-tuning: times every compiled variant of a mode on the device with a synthetic 1024² x 512-projection problem,
 * the device work of one chunk (interleave, the entries array of the variants that keep one, back-projection), each
 * through a backend of its own with the variant named, and returns the fastest.
 */
final class AutoTuner implements VariantSelector.Tuner {
    private static final Logger LOG = LoggerFactory.getLogger(AutoTuner.class);
    private static final int SIZE = 1024, PROJECTIONS = 512;

    private final BackendOptions options;
    private final CudaDevice dev;
    private final KernelCatalog catalog;
    private final int jobProjections;

    /** @param jobProjections the job's projections: candidates that cannot take them are not timed */
    AutoTuner(BackendOptions options, CudaDevice dev, KernelCatalog catalog, int jobProjections) {
        this.options = options;
        this.dev = dev;
        this.catalog = catalog;
        this.jobProjections = jobProjections;
    }

    @Override
    public String sweep(int k, SampleFormat f, Interpolation in) {
        ScanGeometry scan = ScanGeometry.builder().detectorWidth(SIZE).anglesRange(180, PROJECTIONS).build();
        SliceGeometry sg = SliceGeometry.square(SIZE);
        List<KernelVariant> candidates = catalog.forMode(k, f, in);
        // enough slices that a block taking several groups (tensor-core kernels: 32 slices) is timed full
        int slices = Math.max(8, k);
        for (KernelVariant cand : candidates) slices = Math.max(slices, cand.k() * cand.groupsPerBlock());
        float[][] s = new float[slices][PROJECTIONS * SIZE];
        Random rnd = new Random(1);
        for (float[] a : s) for (int i = 0; i < a.length; i++) a[i] = rnd.nextFloat() - 0.5f;
        SliceBatch batch = new SliceBatch(0, s, PROJECTIONS, SIZE, true);
        String best = null;
        double bestMs = Double.MAX_VALUE;
        StringBuilder log = new StringBuilder();
        // variants bound by the texture unit's 8-bit interpolation weights (relative L2 ~1.2e-3..2e-3 on white noise)
        // break both promises, 1e-5 for float32 and 1e-3 for half: left out unless cuda.allowTextureWeights=true
        boolean allowWeights = options.get(CudaKeys.ALLOW_TEXTURE_WEIGHTS);
        for (KernelVariant cand : candidates) {
            if (jobProjections > cand.maxProjections()) continue;
            if (cand.textureWeights() && !allowWeights) continue;
            CudaBackend b = new CudaBackend();
            try {
                b.setup(options.withVariant(cand.id()).withExtra(CudaKeys.CHUNK_SLICES.name(), Integer.toString(slices)));
                b.validate(new BackprojectionJob(scan, sg, slices));
                double ms = b.timeChunks(batch, 1, 3, true).medianMs();
                log.append(String.format(Locale.ROOT, " %s=%.2fms", cand.id(), ms));
                if (ms < bestMs) {
                    bestMs = ms;
                    best = cand.id();
                }
            } catch (RuntimeException e) {
                // a candidate that cannot run here is skipped, but said loudly; a sticky error ends the sweep
                LOG.warn("cuda auto-tune on {}: variant {} failed: {}", dev.name, cand.id(), e.getMessage());
                log.append(" ").append(cand.id()).append("=failed(").append(e.getMessage()).append(")");
                if (!dev.usable()) throw e;
            } finally {
                b.close();
                if (dev.usable()) dev.makeCurrent();
            }
        }
        String mode = KernelVariant.modeKey(k, f, in);
        LOG.info("cuda auto-tune on {} for {}:{} -> {}", dev.name, mode, log, best);
        if (best == null) throw new IllegalStateException("cuda auto-tune: no variant ran for mode " + mode + ":" + log);
        return best;
    }
}
