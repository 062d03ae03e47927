package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Operation;
import org.tomospark.executor.backend.RawSliceBatch;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.backend.SliceBatch;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.fourier.Gridrec;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.Convergence;
import org.tomospark.executor.iterative.IterativeReconstructor;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.PreprocessStats;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.util.Cancellation;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongSupplier;

/**
 * Everything one executor does to one slice group after reading it: flat/dark correction and −log, the
 * {@link Workflow} stages (phase retrieval with halo rows, binning, stripe removal, half-acquisition
 * stitching), ramp filtering (on the host unless the backend filters on its device), and multi-slice
 * back-projection in the effective geometry; or, for an iterative algorithm, the iterations of
 * {@link IterativeReconstructor} on the unfiltered sinograms.
 * Deterministic: the same inputs give bit-identical slices, whatever process runs it.
 */
public final class SliceGroupProcessor implements AutoCloseable {
    private final ScanGeometry rawScan;
    private final ScanGeometry scan; // effective: after binning and stitching
    private final SliceGeometry slice;
    private final Workflow workflow;
    private final RampFilter filter;
    private final BackprojectionBackend backend;
    private final Requisition requisition;
    private final int maxRows;
    private final boolean ownsBackend;
    private volatile boolean closed;
    private final ForkJoinPool pool;
    private final Preprocessor preprocessor;
    private final SliceBuffers buffers;
    private final IterativeReconstructor iterative;
    private final boolean needsCounts;
    private final ConeSlabProcessor cone;
    private final Gridrec gridrec;

    /**
     * @param scan        the acquisition geometry ({@link ReconstructionParams#scanGeometry}, centre resolved);
     *                    binning and stitching are derived from it here
     * @param slice       output grid ({@link ReconstructionParams#sliceGeometry}, sized for the effective detector)
     * @param maxRows     the most detector rows a group holds (halo rows not counted)
     * @param backend     a backend after {@code setup}; validated here for this geometry
     * @param ownsBackend close the backend with this processor
     */
    public SliceGroupProcessor(ScanGeometry scan, SliceGeometry slice, ReconstructionParams params,
                               BackprojectionBackend backend, int maxRows, boolean ownsBackend) {
        this(scan, slice, params, backend, maxRows, ownsBackend, null);
    }

    /** As above, taking its output arrays from {@code buffers} (null: its own, keeping one group's arrays for reuse). */
    public SliceGroupProcessor(ScanGeometry scan, SliceGeometry slice, ReconstructionParams params,
                               BackprojectionBackend backend, int maxRows, boolean ownsBackend, SliceBuffers buffers) {
        this.rawScan = scan;
        this.workflow = new Workflow(scan, params);
        this.preprocessor = params.preprocessor();
        this.scan = workflow.effective();
        this.slice = slice;
        this.backend = backend;
        this.maxRows = maxRows;
        this.ownsBackend = ownsBackend;
        int maxSlices = Math.max(1, maxRows / workflow.rowBin());
        // one group's worth waits for reuse: the arrays of the group just written serve the next one
        this.buffers = buffers != null ? buffers : backend.fillsDirectFrames()
                ? SliceBuffers.direct(slice.pixels(), maxSlices, SliceBuffers.frameRoom(params, slice))
                : new SliceBuffers(slice.pixels(), maxSlices);
        ConeParams coneBeam = params.coneBeam();
        this.cone = coneBeam == null ? null : new ConeSlabProcessor(coneBeam, params, backend, maxSlices);
        this.requisition = cone != null ? new Requisition(1, 0, 0, false, cone.description())
                : backend.validate(new BackprojectionJob(this.scan, slice, maxSlices, params.filter()));
        this.iterative = cone == null && params.iterative().iterative() ? new IterativeReconstructor(this.scan, slice, params.iterative(),
                iterativePass(backend, params, this.scan, slice, maxSlices), projectors(backend, params), params.filter()) : null;
        this.needsCounts = params.iterativeNeedsCounts();
        // algorithm=auto is decided by the engine's driver for the whole run; a path that leaves it (a sweep, in one JVM)
        // gets the same decision here, from the backend this processor runs on
        Algorithm method = params.resolveAlgorithm(backend.id(), this.scan.numProjections(), this.scan.detectorWidth())
                .iterative().algorithm();
        this.gridrec = cone == null && method == Algorithm.GRIDREC
                ? new Gridrec(this.scan, slice, params.filter()) : null;
        if (gridrec != null) gridrec.warmUpInBackground();
        this.filter = cone != null || iterative != null || gridrec != null || requisition.filtersOnDevice() ? null
                : new RampFilter(this.scan.detectorWidth(), this.scan.numProjections(),
                params.filter());
        int threads = params.backendOptions().effectiveThreads();
        this.pool = threads == ForkJoinPool.commonPool().getParallelism() ? null : new ForkJoinPool(threads);
    }

    /** Whether {@link #close} was called. */
    boolean closed() {
        return closed;
    }

    public Requisition requisition() {
        return requisition;
    }

    public BackprojectionBackend backend() {
        return backend;
    }

    public Workflow workflow() {
        return workflow;
    }

    /** The geometry the back-projector sees (after binning and stitching). */
    public ScanGeometry effectiveGeometry() {
        return scan;
    }

    /**
     * Reconstructs a planned group from its band as {@link Workflow#read} reads it: detector rows (with their halo) in
     * parallel beam, a z-slab of the volume from its band of detector rows in cone beam.
     */
    public GroupResult process(GroupPlanner.Group g, Workflow.Band b, String dataName, String flatName) {
        return process(g, b, dataName, flatName, Cancellation.NONE);
    }

    /** As {@link #process(GroupPlanner.Group, Workflow.Band, String, String)}; stops, by a throw, once {@code cancel} says so. */
    public GroupResult process(GroupPlanner.Group g, Workflow.Band b, String dataName, String flatName, Cancellation cancel) {
        if (cone != null)
            return pool == null ? slab(g, b, dataName, flatName, cancel) : pool.submit(() -> slab(g, b, dataName, flatName, cancel)).join();
        return process(g.start(), b.projections(), b.fields(), b.haloAbove(), b.haloBelow(), dataName, flatName, cancel);
    }

    private GroupResult slab(GroupPlanner.Group g, Workflow.Band b, String dataName, String flatName, Cancellation cancel) {
        return cone.process(g.start(), g.end(), b.projections(), b.fields(), dataName, flatName, this::outputArrays, cancel);
    }

    /** Reconstructs the band's rows (no halo). {@code band} frames = projections; {@code fields} covers the same rows. */
    public GroupResult process(int firstRow, RawStack band, FlatDark fields, String dataName, String flatName) {
        return process(firstRow, band, fields, 0, 0, dataName, flatName);
    }

    /**
     * Reconstructs a group whose band carries {@code haloAbove}/{@code haloBelow} extra rows (read with
     * {@link Workflow#read}; needed by phase retrieval). The result's {@code firstRow} is the output slice
     * index: {@code firstRow / binRows}.
     */
    public GroupResult process(int firstRow, RawStack band, FlatDark fields, int haloAbove, int haloBelow,
                               String dataName, String flatName) {
        return process(firstRow, band, fields, haloAbove, haloBelow, dataName, flatName, Cancellation.NONE);
    }

    /**
     * As {@link #process(int, RawStack, FlatDark, int, int, String, String)}; stops between its steps (stages, passes,
     * device chunks, iterations), by a throw, once {@code cancel} says so.
     */
    public GroupResult process(int firstRow, RawStack band, FlatDark fields, int haloAbove, int haloBelow,
                               String dataName, String flatName, Cancellation cancel) {
        if (cone != null) throw new IllegalStateException("a cone-beam slab is processed with process(group, band, ...)");
        if (band.frames() != rawScan.numProjections())
            throw new IllegalArgumentException(dataName + ": " + band.frames() + " projections read but the geometry has "
                    + rawScan.numProjections() + " angles");
        if (band.width() != rawScan.detectorWidth())
            throw new IllegalArgumentException(dataName + ": rows are " + band.width() + " wide but the geometry says "
                    + rawScan.detectorWidth());
        int rows = band.rows() - haloAbove - haloBelow;
        if (rows > maxRows)
            throw new IllegalArgumentException("slice group of " + rows + " rows exceeds the planned " + maxRows);
        if (firstRow % workflow.rowBin() != 0)
            throw new IllegalArgumentException("bin.rows " + workflow.rowBin() + ": slice group starts at row " + firstRow
                    + ", not a multiple of the bin");
        if (iterative == null && gridrec == null && band.isUint16() && haloAbove == 0 && haloBelow == 0 && workflow.correctionOnly()
                && backend.correctsOnDevice())
            return processOnDevice(firstRow, band, fields, dataName, flatName, cancel);
        cancel.check("slice group at row " + firstRow);
        long t0 = System.nanoTime();
        Workflow.Sinograms pre = pool == null ? workflow.apply(band, fields, haloAbove, haloBelow, dataName, flatName)
                : pool.submit(() -> workflow.apply(band, fields, haloAbove, haloBelow, dataName, flatName)).join();
        long t1 = System.nanoTime();
        float[][] sinos = pre.sinograms();
        cancel.check("slice group at row " + firstRow + ", corrected");
        if (iterative != null) return iterate(firstRow, sinos, fields, haloAbove, flatName, pre.stats(), t1 - t0, cancel);
        if (gridrec != null) return fourier(firstRow, sinos, pre.stats(), t1 - t0, cancel);
        if (filter != null) for (float[] s : sinos) filter.filterRows(s, scan.numProjections(), pool);
        cancel.check("slice group at row " + firstRow + ", filtered");
        long t2 = System.nanoTime();
        SliceFrame[] out = backproject(firstRow, sinos, filter != null, cancel);
        long t3 = System.nanoTime();
        long updates = (long) slice.pixels() * scan.numProjections() * sinos.length;
        return new GroupResult(firstRow / workflow.rowBin(), out, slice.roiCols(), slice.roiRows(), pre.stats(),
                t1 - t0, t2 - t1, t3 - t2, updates);
    }

    /**
     * Where the iterative methods run: the backend's projector pair and vector operations ({@link Operation#PROJECTOR_PAIR};
     * a device backend may keep the vectors on its device for the whole solve).
     */
    static IterativeReconstructor.OpsFactory projectors(BackprojectionBackend backend, ReconstructionParams params) {
        BackendProvider provider = Backends.offering(backend.id(), Operation.PROJECTOR_PAIR,
                "algorithm=" + params.iterative().algorithm().id());
        BackendOptions options = params.backendOptions();
        return (scan, grid, k) -> provider.openSolverOps(scan, grid, k, options);
    }

    /** Slices per iterative pass: backend.slicesPerPass when set, else the backend's choice for this group and solver. */
    private static int iterativePass(BackprojectionBackend backend, ReconstructionParams params, ScanGeometry scan,
                                     SliceGeometry slice, int maxSlices) {
        int k = params.backendOptions().slicesPerPass();
        if (k > 0) return k;
        return Backends.of(backend.id()).iterativeSlicesPerPass(scan, slice.withRoi(0, 0, slice.width(), slice.height()),
                params.iterative().solver(scan.numProjections()).footprint(), maxSlices, params.backendOptions());
    }

    /**
     * The iterative path: the −log sinograms (after every workflow stage) go to the solver, unfiltered; MLTR also gets
     * each slice's unattenuated counts, flat − dark of its detector row.
     */
    private GroupResult iterate(int firstRow, float[][] sinos, FlatDark fields, int haloAbove, String flatName,
                                PreprocessStats stats, long preprocessNanos, Cancellation cancel) {
        long t0 = System.nanoTime();
        float[][] blanks = null;
        if (needsCounts && fields.measured()) {
            float[] den = preprocessor.fields(fields, flatName).den();
            int width = scan.detectorWidth();
            blanks = new float[sinos.length][];
            for (int s = 0; s < sinos.length; s++) {
                blanks[s] = new float[width];
                System.arraycopy(den, (haloAbove + s) * width, blanks[s], 0, width);
            }
        }
        SliceFrame[] frames = heapOutputs(sinos.length);
        float[][] out = SliceFrame.arrays(frames);
        float[][] b = blanks;
        Convergence c = pool == null ? iterative.reconstruct(sinos, b, out, cancel)
                : pool.submit(() -> iterative.reconstruct(sinos, b, out, cancel)).join();
        long t1 = System.nanoTime();
        long grid = (long) slice.width() * slice.height();
        long updates = 2L * grid * scan.numProjections() * sinos.length * c.iterations();
        return new GroupResult(firstRow / workflow.rowBin(), frames, slice.roiCols(), slice.roiRows(), stats, preprocessNanos, 0,
                t1 - t0, updates, c);
    }

    /**
     * The gridrec path: the −log sinograms (after every workflow stage), unfiltered, regridded in Fourier space on the
     * processor's threads, two slices per transform. Its time is reported as back-projection's, the filter included.
     */
    private GroupResult fourier(int firstRow, float[][] sinos, PreprocessStats stats, long preprocessNanos, Cancellation cancel) {
        long t0 = System.nanoTime();
        SliceFrame[] frames = heapOutputs(sinos.length);
        float[][] out = SliceFrame.arrays(frames);
        processGivingBack(frames, () -> {
            gridrec.reconstruct(sinos, out, pool, cancel);
            return 0L;
        });
        long t1 = System.nanoTime();
        long updates = (long) slice.pixels() * scan.numProjections() * sinos.length;
        return new GroupResult(firstRow / workflow.rowBin(), frames, slice.roiCols(), slice.roiRows(), stats, preprocessNanos, 0,
                t1 - t0, updates);
    }

    /**
     * A group whose only sinogram stage is the flat/dark correction, on a backend that corrects on its device: the raw
     * counts go to the device as they are (half the bytes of float sinograms) and the host only prepares the flat-field
     * rows. The counts are checked against preprocess.maxRepairFraction as on the host.
     */
    private GroupResult processOnDevice(int firstRow, RawStack band, FlatDark fields, String dataName, String flatName,
                                        Cancellation cancel) {
        long t0 = System.nanoTime();
        Preprocessor.Fields f = preprocessor.fields(fields, flatName);
        int n = band.rows();
        SliceFrame[] out = outputs(n);
        long t1 = System.nanoTime();
        RawSliceBatch batch = new RawSliceBatch(firstRow, band, 0, n, f.dark(), f.den(), preprocessor.transmissionFloor(), cancel);
        long clamped = processGivingBack(out, () -> backend.processRaw(batch, out));
        long t2 = System.nanoTime();
        int np = scan.numProjections();
        PreprocessStats stats = preprocessor.stats(f, (long) np * n * band.width(), np, clamped, 0, dataName, fields);
        long updates = (long) slice.pixels() * np * n;
        return new GroupResult(firstRow, out, slice.roiCols(), slice.roiRows(), stats, t1 - t0, 0, t2 - t1, updates);
    }

    /** Frames for n slices of the back-projector: direct where the backend fills them, else heap frames. */
    private SliceFrame[] outputs(int n) {
        if (!backend.fillsDirectFrames()) return heapOutputs(n);
        SliceFrame[] out = new SliceFrame[n];
        for (int i = 0; i < n; i++) out[i] = buffers.take();
        return out;
    }

    /** Heap frames for n slices, for the paths that compute into Java arrays. */
    private SliceFrame[] heapOutputs(int n) {
        SliceFrame[] out = new SliceFrame[n];
        for (int i = 0; i < n; i++) out[i] = buffers.takeHeap();
        return out;
    }

    private float[][] outputArrays(int n) {
        return SliceFrame.arrays(heapOutputs(n));
    }

    /**
     * Hands back a slice frame of a result once it is written: the next groups reuse it instead of allocating. Nothing
     * may read the frame afterwards.
     */
    public void recycle(SliceFrame slice) {
        buffers.give(slice);
    }

    /** Back-projects already corrected sinograms (filtered or not, as the backend expects). */
    public SliceFrame[] backproject(int firstRow, float[][] sinos, boolean filtered) {
        return backproject(firstRow, sinos, filtered, Cancellation.NONE);
    }

    private SliceFrame[] backproject(int firstRow, float[][] sinos, boolean filtered, Cancellation cancel) {
        SliceFrame[] out = outputs(sinos.length);
        SliceBatch batch = new SliceBatch(firstRow, sinos, scan.numProjections(), scan.detectorWidth(), filtered, cancel);
        processGivingBack(out, () -> {
            backend.process(batch, out);
            return 0L;
        });
        return out;
    }

    /**
     * Runs a backend's batch into {@code out}; if it is cancelled, the frames go back for the next group (a backend
     * stops a cancelled batch with nothing in flight; after another failure a device may still be writing into them).
     */
    private long processGivingBack(SliceFrame[] out, LongSupplier body) {
        try {
            return body.getAsLong();
        } catch (CancellationException e) {
            for (SliceFrame f : out) buffers.give(f);
            throw e;
        }
    }

    @Override
    public void close() {
        closed = true;
        if (pool != null) pool.shutdown();
        if (iterative != null) iterative.close();
        if (cone != null) cone.close();
        if (ownsBackend) backend.close();
    }
}
