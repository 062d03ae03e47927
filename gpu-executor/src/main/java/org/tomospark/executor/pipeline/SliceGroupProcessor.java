package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ConeParams;
import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.BackendProvider;
import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackprojectionBackend;
import org.tomospark.executor.backend.BackprojectionJob;
import org.tomospark.executor.backend.Operation;
import org.tomospark.executor.backend.Requisition;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.fourier.Gridrec;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeReconstructor;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.preprocess.FlatDark;
import org.tomospark.executor.preprocess.Preprocessor;
import org.tomospark.executor.preprocess.RawStack;
import org.tomospark.executor.util.Cancellation;

import java.util.concurrent.ForkJoinPool;

/**
 * Everything one executor does to one slice group after reading it: flat/dark correction and −log, the
 * {@link Workflow} stages (phase retrieval with halo rows, binning, stripe removal, half-acquisition
 * stitching), then the algorithm's part ({@link SinogramMethod}): FBP (ramp filtering on the host unless the backend
 * filters on its device, and multi-slice back-projection in the effective geometry), gridrec, or the iterations of
 * {@link IterativeReconstructor} on the unfiltered sinograms; in cone beam, FDK of a z-slab ({@link ConeSlabProcessor}).
 * Deterministic: the same inputs give bit-identical slices, whatever process runs it.
 */
public final class SliceGroupProcessor implements AutoCloseable {
    private final ScanGeometry rawScan;
    private final ScanGeometry scan; // effective: after binning and stitching
    private final Workflow workflow;
    private final BackprojectionBackend backend;
    private final Requisition requisition;
    private final int maxRows;
    private final boolean ownsBackend;
    private volatile boolean closed;
    private final ForkJoinPool pool;
    private final Preprocessor preprocessor;
    private final GroupFrames frames;
    private final ConeSlabProcessor cone;
    /** FBP in parallel beam (also {@link #backproject} for any algorithm); null in cone beam. */
    private final FbpMethod fbp;
    /** The algorithm's part of a parallel-beam group; null in cone beam. */
    private final SinogramMethod method;

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
        this.backend = backend;
        this.maxRows = maxRows;
        this.ownsBackend = ownsBackend;
        int maxSlices = Math.max(1, maxRows / workflow.rowBin());
        // one group's worth waits for reuse: the arrays of the group just written serve the next one
        this.frames = new GroupFrames(buffers != null ? buffers : backend.fillsDirectFrames()
                ? SliceBuffers.direct(slice.pixels(), maxSlices, SliceBuffers.frameRoom(params, slice))
                : new SliceBuffers(slice.pixels(), maxSlices), backend);
        int threads = params.algorithm().backendOptions().effectiveThreads();
        this.pool = threads == ForkJoinPool.commonPool().getParallelism() ? null : new ForkJoinPool(threads);
        ConeParams coneBeam = params.coneBeam();
        this.cone = coneBeam == null ? null : new ConeSlabProcessor(coneBeam, params, backend, maxSlices);
        this.requisition = cone != null ? new Requisition(1, 0, 0, false, cone.description())
                : backend.validate(new BackprojectionJob(this.scan, slice, maxSlices, params.algorithm().filter()));
        if (cone != null) {
            this.fbp = null;
            this.method = null;
            return;
        }
        int rowBin = workflow.rowBin();
        // algorithm=auto is decided by the engine's driver for the whole run; a path that leaves it (a sweep, in one JVM)
        // gets the same decision here, from the backend this processor runs on
        boolean iterative = params.algorithm().iterative().iterative();
        boolean gridrec = byGridrec(params.resolveAlgorithm(backend.id(), this.scan.numProjections(), this.scan.detectorWidth()));
        RampFilter filter = iterative || gridrec || requisition.filtersOnDevice() ? null
                : new RampFilter(this.scan.detectorWidth(), this.scan.numProjections(), params.algorithm().filter());
        this.fbp = new FbpMethod(this.scan, slice, backend, filter, frames, pool, rowBin);
        if (iterative)
            this.method = new IterativeMethod(new IterativeReconstructor(this.scan, slice, params.algorithm().iterative(),
                    iterativePass(backend, params, this.scan, slice, maxSlices), projectors(backend, params), params.algorithm().filter()),
                    params.iterativeNeedsCounts(), preprocessor, this.scan, slice, frames, pool, rowBin);
        else if (gridrec)
            this.method = new GridrecMethod(new Gridrec(this.scan, slice, params.algorithm().filter()), this.scan, slice, frames, pool,
                    rowBin);
        else
            this.method = fbp;
    }

    /**
     * Starts in this JVM the warm-up that a processor for this run starts when it is made: gridrec's (its transforms'
     * and gridding's loops compiled, once per JVM, {@link Gridrec#warmUpInBackground}). For a driver whose tasks run in
     * its own JVM (Spark's local mode) and make their processors only as they start: the warm-up then runs beside the
     * driver's planning and the job's start instead of the first task's read. Other algorithms have none.
     *
     * @param effective the effective acquisition geometry ({@link Workflow#effective}), as the processor's
     * @param slice     the output grid
     * @param params    the run's parameters, its algorithm resolved ({@link ReconstructionParams#resolveAlgorithm})
     * @return whether this run reconstructs by gridrec, so a warm-up was asked for
     */
    public static boolean warmUpAhead(ScanGeometry effective, SliceGeometry slice, ReconstructionParams params) {
        if (!byGridrec(params)) return false;
        new Gridrec(effective, slice, params.algorithm().filter()).warmUpInBackground();
        return true;
    }

    /** Whether a processor reconstructs by gridrec: a parallel-beam run whose resolved algorithm is gridrec. */
    private static boolean byGridrec(ReconstructionParams resolved) {
        return resolved.coneBeam() == null && resolved.algorithm().iterative().algorithm() == Algorithm.GRIDREC;
    }

    /** Whether {@link #close} was called. */
    public boolean closed() {
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
        return cone.process(g.start(), g.end(), b.projections(), b.fields(), dataName, flatName, frames::arrays, cancel);
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
        if (method == fbp && band.isUint16() && haloAbove == 0 && haloBelow == 0 && workflow.correctionOnly()
                && backend.correctsOnDevice())
            return fbp.reconstructRaw(firstRow, band, fields, preprocessor, dataName, flatName, cancel);
        cancel.check("slice group at row " + firstRow);
        long t0 = System.nanoTime();
        Workflow.Sinograms pre = pool == null ? workflow.apply(band, fields, haloAbove, haloBelow, dataName, flatName)
                : pool.submit(() -> workflow.apply(band, fields, haloAbove, haloBelow, dataName, flatName)).join();
        long t1 = System.nanoTime();
        cancel.check("slice group at row " + firstRow + ", corrected");
        return method.reconstruct(new CorrectedGroup(firstRow, pre.sinograms(), pre.stats(), t1 - t0, fields, haloAbove, flatName),
                cancel);
    }

    /**
     * Where the iterative methods run: the backend's projector pair and vector operations ({@link Operation#PROJECTOR_PAIR};
     * a device backend may keep the vectors on its device for the whole solve).
     */
    public static IterativeReconstructor.OpsFactory projectors(BackprojectionBackend backend, ReconstructionParams params) {
        BackendProvider provider = Backends.offering(backend.id(), Operation.PROJECTOR_PAIR,
                "algorithm=" + params.algorithm().iterative().algorithm().id());
        BackendOptions options = params.algorithm().backendOptions();
        return (scan, grid, k) -> provider.openSolverOps(scan, grid, k, options);
    }

    /** Slices per iterative pass: backend.slicesPerPass when set, else the backend's choice for this group and solver. */
    private static int iterativePass(BackprojectionBackend backend, ReconstructionParams params, ScanGeometry scan,
                                     SliceGeometry slice, int maxSlices) {
        int k = params.algorithm().backendOptions().slicesPerPass();
        if (k > 0) return k;
        return Backends.of(backend.id()).iterativeSlicesPerPass(scan, slice.withRoi(0, 0, slice.width(), slice.height()),
                params.algorithm().iterative().solver(scan.numProjections()).footprint(), maxSlices, params.algorithm().backendOptions());
    }

    /**
     * Hands back a slice frame of a result once it is written: the next groups reuse it instead of allocating. Nothing
     * may read the frame afterwards.
     */
    public void recycle(SliceFrame slice) {
        frames.give(slice);
    }

    /** Back-projects already corrected sinograms (filtered or not, as the backend expects). */
    public SliceFrame[] backproject(int firstRow, float[][] sinos, boolean filtered) {
        if (fbp == null) throw new IllegalStateException("a cone-beam processor back-projects slabs, not sinograms");
        return fbp.backproject(firstRow, sinos, filtered, Cancellation.NONE);
    }

    @Override
    public void close() {
        closed = true;
        if (pool != null) pool.shutdown();
        if (method != null) method.close();
        if (cone != null) cone.close();
        if (ownsBackend) backend.close();
    }
}
