package org.tomospark.executor.fourier;

import org.slf4j.LoggerFactory;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.util.Cancellation;

import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Gridrec: filtered back-projection done in Fourier space (Dowd et al. 1999; Marone &amp; Stampanoni 2012).
 *
 * <p>By the Fourier slice theorem, the 1-D Fourier transform of a projection at angle θ is the slice's 2-D transform
 * along the line through the origin at angle θ. Filtered back-projection sums, over projections, the ramp-filtered
 * rows smeared across the slice; in Fourier space that is the sum of the filtered row spectra placed on their lines.
 * Gridrec puts those samples onto an oversampled Cartesian grid by convolving each with a compact kernel
 * ({@link KaiserBessel}), takes one inverse 2-D FFT, and divides the image by the kernel's transform
 * (deapodisation). The cost per slice is O(N_proj·L·W² + M² log M) instead of FBP's O(N_proj·pixels).
 *
 * <p>Two slices share one complex transform: sinogram A is the real part, sinogram B the imaginary part; every step
 * is linear with real, symmetric weights, so the images come out as the real and imaginary parts of the result (an
 * odd last slice is paired with zeros).
 *
 * <p>Conventions are those of the image-space FBP ({@code RampFilter} then linear-interpolating back-projection): the
 * same ramp response (Kak–Slaney discrete ramp, window, cutoff, π/(2N) scale, so every projection weighs π/N and
 * arbitrary angle lists work), the same zero or edge padding to the same FFT length, and the same detector coordinate
 * {@code t = x·cosθ + y·sinθ + centreOfRotation + axisCorrection[p]} of slice pixel (x, y). The results differ from
 * FBP only in the interpolation along the detector: gridrec evaluates each filtered row band-limited (its exact
 * trigonometric interpolant), FBP interpolates linearly, which blurs the finest detail a little. By default gridrec
 * applies a similar roll-off in Fourier space ({@link DetectorResponse#FBP_MATCHED}), so the two are interchangeable;
 * FBP also treats the detector as zero beyond its edges, which only matters outside the field of view.
 *
 * <p>Everything that depends on the geometry is computed once ({@link GridPlan}); the big per-pair arrays (padded
 * grid, row buffer: {@link #workspaceBytes()} each) are kept for reuse by later calls. Slice pairs run in parallel on
 * the given pool, as many at a time as the threads and the heap allow; when there are fewer pairs than threads, the
 * stages of each pair run in parallel instead. Instances are thread-safe.
 */
public final class Gridrec {
    /** Kernel taps per axis. */
    static final int KERNEL_WIDTH = 4;
    /** Oversampling of the Fourier grid over the ROI. */
    static final double OVERSAMPLING = 2.0;
    /** Kernel table rows per grid cell. */
    static final int TABLE_QUANTA = 4096;

    /**
     * How a filtered row is read between detector columns (f: cycles per detector pixel). Gridrec evaluates the row's
     * spectrum directly, so it can give it any roll-off. FBP interpolates linearly: on average (over where pixels fall
     * between columns) that multiplies the spectrum by sinc²(f), but wherever pixels fall on columns it is exact, so
     * FBP's effective roll-off lies between sinc² and none.
     */
    public enum DetectorResponse {
        /**
         * The default, sinc(f)^1.5: between the two, chosen so that the images match FBP's in quality and look (within a
         * few tenths of a dB of FBP's PSNR from sparse to dense angles); what a pipeline that mixes both methods wants.
         */
        FBP_MATCHED,
        /**
         * No roll-off, the exact band-limited interpolant (as TomoPy's gridrec): sharper, a dB or more above FBP's PSNR
         * when the angles are dense enough, but streaks from sparse angles are stronger.
         */
        BAND_LIMITED
    }

    private final ScanGeometry scan;
    private final SliceGeometry slice;
    private final GridPlan plan;
    private final ThreadLocal<PairTransform.Scratch> scratch;
    private final ConcurrentLinkedQueue<PairTransform> workspaces = new ConcurrentLinkedQueue<>();

    /**
     * @param scan   acquisition geometry (angles, centre of rotation, axis corrections)
     * @param slice  output slice and ROI
     * @param filter ramp window, cutoff and padding
     * @throws IllegalArgumentException naming the missing parameter
     */
    public Gridrec(ScanGeometry scan, SliceGeometry slice, FilterSpec filter) {
        this(scan, slice, filter, DetectorResponse.FBP_MATCHED);
    }

    /**
     * @param response how the filtered rows are interpolated along the detector
     * @throws IllegalArgumentException naming the missing parameter
     */
    public Gridrec(ScanGeometry scan, SliceGeometry slice, FilterSpec filter, DetectorResponse response) {
        this(scan, slice, filter, response, new KaiserBessel(KERNEL_WIDTH, OVERSAMPLING, TABLE_QUANTA));
    }

    Gridrec(ScanGeometry scan, SliceGeometry slice, FilterSpec filter, DetectorResponse response, KaiserBessel kernel) {
        if (scan == null) throw new IllegalArgumentException("gridrec: scan geometry must be given");
        if (slice == null) throw new IllegalArgumentException("gridrec: slice geometry must be given");
        if (filter == null) throw new IllegalArgumentException("gridrec: filter must be given");
        if (response == null) throw new IllegalArgumentException("gridrec: detector response must be given");
        this.scan = scan;
        this.slice = slice;
        this.plan = new GridPlan(scan, slice, filter, kernel, response == DetectorResponse.FBP_MATCHED);
        this.scratch = ThreadLocal.withInitial(() -> new PairTransform.Scratch(plan));
    }

    /** A short description of the method for reports. */
    public static String description() {
        return String.format(Locale.ROOT, "gridrec: Kaiser-Bessel W=%d, oversampling %.1f, table %d steps per cell", KERNEL_WIDTH,
                OVERSAMPLING, TABLE_QUANTA);
    }

    /** Fourier grid cells per axis. */
    public int gridSize() {
        return plan.grid;
    }

    /** Length of the padded row FFT (the ramp filter's). */
    public int rowLength() {
        return plan.rowLength;
    }

    /** Heap held by one pair's workspace (one per pair reconstructed at the same time). */
    public long workspaceBytes() {
        return plan.workspaceBytes();
    }

    @Override
    public String toString() {
        return description() + ", grid " + plan.grid + "x" + plan.grid + ", rows padded to " + plan.rowLength;
    }

    /** {@link #reconstruct(float[][], float[][], ForkJoinPool, Cancellation)} that no one cancels. */
    public void reconstruct(float[][] sinograms, float[][] out, ForkJoinPool pool) {
        reconstruct(sinograms, out, pool, Cancellation.NONE);
    }

    /**
     * Reconstructs every sinogram into the slice of the same index.
     *
     * @param sinograms per slice, {@code numProjections × detectorWidth} unfiltered −log values, row-major; not modified
     * @param out       per slice, {@code roiRows × roiCols}, row-major; overwritten
     * @param pool      where the work runs (null: the common pool)
     * @param cancel    asked between slice pairs
     * @throws IllegalArgumentException naming the array of the wrong size
     */
    public void reconstruct(float[][] sinograms, float[][] out, ForkJoinPool pool, Cancellation cancel) {
        validate(sinograms, out);
        if (cancel == null) throw new IllegalArgumentException("gridrec: cancellation must be given (Cancellation.NONE)");
        int pairs = (sinograms.length + 1) / 2;
        if (pairs == 0) return;
        ForkJoinPool fj = pool == null ? ForkJoinPool.commonPool() : pool;
        int threads = Math.max(1, fj.getParallelism());
        long fit = Math.max(1, Runtime.getRuntime().maxMemory() / 3 / Math.max(1, plan.workspaceBytes()));
        int groups = (int) Math.min(Math.min(pairs, threads), fit);
        boolean inside = groups < threads;
        AtomicInteger next = new AtomicInteger();
        Runnable work = () -> IntStream.range(0, groups).parallel().forEach(g -> {
            PairTransform ws = acquire();
            try {
                for (int pair = next.getAndIncrement(); pair < pairs; pair = next.getAndIncrement()) {
                    cancel.check("gridrec: slices " + 2 * pair + ".." + Math.min(2 * pair + 1, sinograms.length - 1));
                    int a = 2 * pair, b = a + 1;
                    boolean two = b < sinograms.length;
                    ws.run(sinograms[a], two ? sinograms[b] : null, out[a], two ? out[b] : null, inside);
                }
            } finally {
                if (ws.clean) workspaces.add(ws);
            }
        });
        if (groups == 1 && !inside) work.run();
        else fj.submit(work).join();
    }

    /** Whether this JVM has warmed gridrec up: compiled code serves every instance, so once is enough. */
    private static final AtomicBoolean WARMED = new AtomicBoolean();

    /**
     * Reconstructs one pair of zero sinograms on a daemon thread of its own, for a processor to start when it is made: a
     * cold JVM's first pair takes about three times a warm one (the FFT library's and the gridding's loops not yet
     * compiled, the workspace not yet allocated), which the warm-up pays while the first group is read and corrected.
     * Its workspace then serves the first group. Once per JVM (an executor's later processors find the code compiled);
     * only a warm-up: a failure here leaves the run's own pairs to meet it.
     */
    public void warmUpInBackground() {
        if (WARMED.compareAndSet(false, true)) warmUp();
    }

    /** Starts the warm-up's thread and returns it (whether or not this JVM has warmed up). */
    Thread warmUp() {
        Thread t = new Thread(() -> {
            ForkJoinPool one = new ForkJoinPool(1);
            try {
                int n = scan.numProjections() * scan.detectorWidth(), px = slice.pixels();
                reconstruct(new float[][]{new float[n], new float[n]}, new float[][]{new float[px], new float[px]}, one);
            } catch (RuntimeException e) {
                LoggerFactory.getLogger(Gridrec.class).debug("gridrec warm-up: {}", e.toString());
            } finally {
                one.shutdown();
            }
        }, "tomospark-gridrec-warm-up");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private PairTransform acquire() {
        PairTransform ws = workspaces.poll();
        return ws != null ? ws : new PairTransform(plan, scratch);
    }

    private void validate(float[][] sinograms, float[][] out) {
        if (sinograms == null) throw new IllegalArgumentException("gridrec: sinograms must be given");
        if (out == null) throw new IllegalArgumentException("gridrec: output slices must be given");
        if (out.length != sinograms.length)
            throw new IllegalArgumentException("gridrec: " + sinograms.length + " sinograms but " + out.length + " output slices");
        long n = (long) scan.numProjections() * scan.detectorWidth();
        for (int s = 0; s < sinograms.length; s++) {
            if (sinograms[s] == null || sinograms[s].length < n)
                throw new IllegalArgumentException("gridrec: sinogram " + s + " has " + (sinograms[s] == null ? "no" : sinograms[s].length)
                        + " values, expected " + scan.numProjections() + " projections x " + scan.detectorWidth() + " columns");
            if (out[s] == null || out[s].length < slice.pixels())
                throw new IllegalArgumentException("gridrec: output slice " + s + " has " + (out[s] == null ? "no" : out[s].length)
                        + " values, expected " + slice.roiRows() + " rows x " + slice.roiCols() + " columns");
        }
    }
}
