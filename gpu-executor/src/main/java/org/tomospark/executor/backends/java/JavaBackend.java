package org.tomospark.executor.backends.java;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendStats;
import org.tomospark.executor.backend.BackendUnavailableException;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.BatchContract;
import org.tomospark.executor.backend.Half;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.MultiSlicePacker;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.geometry.ProjectionTables;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.util.Cancellation;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * Pixel-driven multi-threaded CPU back-projection. Slices are interleaved {@code slicesPerPass} at a time
 * and the innermost loop runs over them (JDK Vector API where available; variant "scalar" forces plain
 * loops). The image is cut into tiles that run in parallel; projections are processed in chunks so the
 * touched part of the compound sinogram stays in cache.
 *
 * <p>Variants: {@code auto} (vector if it applies), {@code vector}, {@code scalar}. Extra options:
 * {@code java.tile} (tile edge in pixels, default 32), {@code java.projectionChunk} (default 128).
 */
public final class JavaBackend implements BackprojectionBackend {
    public static final String ID = "java";

    private BackendOptions options;
    private ForkJoinPool pool;
    private boolean ownPool;
    private BackprojectionJob job;
    private double[] cos, sin, off;
    private TileKernel kernel;
    private final Map<Integer, TileKernel> kernels = new HashMap<>();
    private int tile = 32;
    private int chunk = 128;
    private BackendStats stats = BackendStats.ZERO;
    private float[] packed;
    private int slicesPerPass;

    /** Slices per pass when the options leave it to the backend: one 256-bit vector of floats. */
    public static final int AUTO_SLICES_PER_PASS = 8;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public void setup(BackendOptions options) {
        this.options = options;
        int threads = options.effectiveThreads();
        if (threads == ForkJoinPool.commonPool().getParallelism() && options.threads() == 0) {
            pool = ForkJoinPool.commonPool();
            ownPool = false;
        } else {
            pool = new ForkJoinPool(threads);
            ownPool = true;
        }
        tile = options.get(JavaKeys.TILE);
        chunk = options.get(JavaKeys.PROJECTION_CHUNK);
    }


    @Override
    public Requisition validate(BackprojectionJob job) {
        if (options == null) throw new IllegalStateException("java backend: validate() called before setup()");
        this.job = job;
        ProjectionTables t = job.tables();
        int n = t.numProjections();
        cos = new double[n];
        sin = new double[n];
        off = new double[n];
        for (int p = 0; p < n; p++) {
            cos[p] = t.cos(p);
            sin[p] = t.sin(p);
            off[p] = t.offset(p);
        }
        int k = slicesPerPass = options.slicesPerPass() == 0 ? AUTO_SLICES_PER_PASS : options.slicesPerPass();
        boolean linear = options.interpolation() == Interpolation.LINEAR;
        String v = options.variant();
        if (!v.equals("scalar") && !v.equals("vector") && !v.equals("auto"))
            throw new IllegalArgumentException("java backend: unknown variant '" + v + "': expected auto, vector or scalar");
        if (v.equals("vector") && !vectorApiPresent())
            throw new BackendUnavailableException("java backend variant 'vector' needs the JDK module jdk.incubator.vector "
                    + "(--add-modules=jdk.incubator.vector)");
        kernels.clear();
        kernel = kernelFor(k);
        long bins = (long) n * job.scan().detectorWidth() * k;
        return new Requisition(k, 0, bins * 4 + (long) tile * tile * k * 4 * options.effectiveThreads(), false,
                "java " + kernel.name() + ", " + k + " slices/pass, " + options.interpolation().name().toLowerCase()
                        + (options.format() == SampleFormat.HALF ? ", half storage" : ""));
    }

    /** The kernel for k interleaved slices; a last, partial pass uses a narrower one instead of padding. */
    private TileKernel kernelFor(int k) {
        return kernels.computeIfAbsent(k, kk -> {
            boolean linear = options.interpolation() == Interpolation.LINEAR;
            String v = options.variant();
            if (v.equals("scalar")) return new ScalarTileKernel(linear);
            if (v.equals("vector") && (kk == 4 || kk == 8 || kk == 16)) return new VectorTileKernel(linear, kk);
            return vectorApiPresent() && VectorTileKernel.supports(kk) ? new VectorTileKernel(linear, kk) : new ScalarTileKernel(linear);
        });
    }

    static boolean vectorApiPresent() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    @Override
    public void process(SliceBatch batch, float[][] out) {
        if (job == null) throw new IllegalStateException("java backend: process() called before validate()");
        BatchContract.check(ID, job, batch, out, false);
        SliceGeometry g = job.slice();
        int width = job.scan().detectorWidth();
        int nproj = job.scan().numProjections();
        long t0 = System.nanoTime();
        int k = slicesPerPass;
        Cancellation cancel = batch.cancellation();
        for (int first = 0; first < batch.count(); first += k) {
            cancel.check("back-projecting slices " + (batch.firstRow() + first) + ".. of the batch at row " + batch.firstRow());
            int n = Math.min(k, batch.count() - first);
            int kp = n == k ? k : Integer.highestOneBit(n - 1) << 1; // narrower pass for a remainder
            if (n == 1) kp = 1;
            // packing runs in this backend's pool (its parallel streams follow the pool they start in), so
            // backend.threads bounds it as it bounds the back-projection
            final int f0 = first, kpf = kp;
            packed = pool.submit(() -> {
                float[] pk = MultiSlicePacker.interleavePadded(batch.sinograms(), f0, kpf, nproj, width, TileKernel.PAD_LEFT,
                        TileKernel.PAD_RIGHT, packed);
                if (options.format() == SampleFormat.HALF) {
                    int n2 = nproj * (width + TileKernel.PAD_LEFT + TileKernel.PAD_RIGHT) * kpf;
                    for (int i = 0; i < n2; i++) pk[i] = Half.round(pk[i]);
                }
                return pk;
            }).join();
            backprojectPass(kernelFor(kp), packed, kp, width, nproj, g, out, first, n, cancel);
            cancel.check("back-projecting slices " + (batch.firstRow() + first) + ".. of the batch at row " + batch.firstRow());
        }
        long updates = (long) g.pixels() * nproj * batch.count();
        stats = stats.plus(updates, System.nanoTime() - t0);
    }

    /** One pass's tiles in parallel; once {@code cancel} says so, the tiles not yet started are skipped. */
    private void backprojectPass(TileKernel kern, float[] packed, int k, int width, int nproj, SliceGeometry g, float[][] out,
                                 int first, int n, Cancellation cancel) {
        int rows = g.roiRows(), cols = g.roiCols();
        int tilesY = (rows + tile - 1) / tile, tilesX = (cols + tile - 1) / tile;
        pool.submit(() -> IntStream.range(0, tilesX * tilesY).parallel().forEach(ti -> {
            if (cancel.requested()) return;
            int ty = ti / tilesX, tx = ti % tilesX;
            int r0 = ty * tile, c0 = tx * tile;
            int tr = Math.min(tile, rows - r0), tc = Math.min(tile, cols - c0);
            float[] acc = new float[tr * tc * k];
            for (int p0 = 0; p0 < nproj; p0 += chunk)
                kern.run(packed, k, width, cos, sin, off, p0, Math.min(nproj, p0 + chunk), r0, c0, tr, tc, acc);
            for (int s = 0; s < n; s++) {
                float[] dst = out[first + s];
                for (int r = 0; r < tr; r++) {
                    int o = (r0 + r) * cols + c0;
                    int a = r * tc * k + s;
                    for (int c = 0; c < tc; c++, a += k) dst[o + c] = acc[a];
                }
            }
        })).join();
    }

    @Override
    public BackendStats stats() {
        return stats;
    }

    @Override
    public String deviceDescription() {
        int threads = options == null ? 0 : options.effectiveThreads();
        String vec = vectorApiPresent() ? "Vector API preferred " + VectorTileKernel.preferredLanes() * 32 + "-bit" : "no Vector API";
        return "java: " + threads + " threads, " + vec + (kernel == null ? "" : ", kernel " + kernel.name());
    }

    @Override
    public void close() {
        if (ownPool && pool != null) pool.shutdown();
        pool = null;
        packed = null;
    }
}
