package org.tomospark.executor.iterative;

import org.tomospark.executor.backend.MultiSlicePacker;
import org.tomospark.executor.backend.SolverOps;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.RampFilter;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.util.Cancellation;

import java.util.stream.IntStream;

/**
 * Iterative reconstruction of a slice group, pass by pass: k slices are interleaved into one compound sinogram
 * (as the back-projector's passes are), solved together on one {@link SolverOps} (the Java {@link JosephProjector} in
 * host arrays, or a device's), and split again. The solver works on the whole slice grid, whatever the ROI: the data
 * are line integrals through the whole object, so an image cut to the ROI could not explain them; the ROI is cut out
 * of the result.
 */
public final class IterativeReconstructor implements AutoCloseable {
    /** Makes the solvers' ops for a slice grid: the Java pair's, or a device's. */
    public interface OpsFactory {
        SolverOps create(ScanGeometry scan, SliceGeometry grid, int k);
    }

    private final IterativeParams params;
    private final SliceGeometry roi;
    private final SliceGeometry full;
    private final SolverOps ops;
    private final int k;
    private final Solver solver;
    private final RampFilter startFilter;

    /**
     * @param scan  the effective geometry (after binning and stitching)
     * @param slice the output grid and ROI
     * @param k     slices per pass
     */
    public IterativeReconstructor(ScanGeometry scan, SliceGeometry slice, IterativeParams params, int k) {
        this(scan, slice, params, k, (s, g, kk) -> HostOps.owning(new JosephProjector(s, g, kk)));
    }

    /** As above, on the ops {@code factory} makes (closed with this reconstructor). */
    public IterativeReconstructor(ScanGeometry scan, SliceGeometry slice, IterativeParams params, int k, OpsFactory factory) {
        this(scan, slice, params, k, factory, FilterSpec.of(FilterWindow.RAMLAK));
    }

    /**
     * As above; {@code filter} is the ramp filter of the FBP start image ({@link IterativeParams#fbpStart()}).
     */
    public IterativeReconstructor(ScanGeometry scan, SliceGeometry slice, IterativeParams params, int k, OpsFactory factory,
                                  FilterSpec filter) {
        if (!params.iterative()) throw new IllegalArgumentException("algorithm " + params.algorithm().id() + " is not iterative");
        params.checkProjections(scan.numProjections());
        this.params = params;
        this.roi = slice;
        this.full = slice.withRoi(0, 0, slice.width(), slice.height());
        this.k = k;
        this.solver = params.solver(scan.numProjections());
        this.startFilter = params.fbpStart() ? new RampFilter(scan.detectorWidth(), scan.numProjections(), filter) : null;
        this.ops = factory.create(scan, full, k);
    }

    public int slicesPerPass() {
        return k;
    }

    /**
     * @param sinograms the group's −log sinograms, projections × width each
     * @param blanks    per slice the unattenuated counts of each detector column (flat − dark), or null without flats
     * @param out       one ROI image per sinogram, overwritten
     * @return the residuals of every pass added together
     */
    public Convergence reconstruct(float[][] sinograms, float[][] blanks, float[][] out) {
        return reconstruct(sinograms, blanks, out, Cancellation.NONE);
    }

    /** As {@link #reconstruct(float[][], float[][], float[][])}, stopping (by a throw) once {@code cancel} says so. */
    public Convergence reconstruct(float[][] sinograms, float[][] blanks, float[][] out, Cancellation cancel) {
        int width = ops.shape().width(), projections = ops.shape().projections(), bins = projections * width;
        if (params.algorithm() == Algorithm.MLTR && blanks == null)
            throw new IllegalArgumentException("config key algorithm=mltr needs the flats (the unattenuated counts)");
        Convergence total = Convergence.none();
        float[] packed = null;
        for (int first = 0; first < sinograms.length; first += k) {
            packed = MultiSlicePacker.interleave(sinograms, first, k, bins, packed);
            float[] blank = blanks == null ? null : MultiSlicePacker.interleave(blanks, first, k, width, null);
            float[] x = new float[full.pixels() * k];
            if (startFilter != null) {
                float[][] filtered = new float[Math.min(k, sinograms.length - first)][];
                for (int s = 0; s < filtered.length; s++) {
                    filtered[s] = sinograms[first + s].clone();
                    startFilter.filterRows(filtered[s], projections, null);
                }
                FbpStart.into(ops, MultiSlicePacker.interleave(filtered, 0, k, bins, null), packed, x,
                        params.algorithm() != Algorithm.CGLS);
            }
            cancel.check("iterative pass of slices " + first + "..");
            Convergence c = solver.solve(ops, new Measurements(packed, blank, cancel), x, params.stopRule(blank != null));
            total = total.plus(c);
            crop(x, Math.min(k, sinograms.length - first), out, first);
        }
        return total;
    }

    /** The ops the iterations run on. */
    public SolverOps ops() {
        return ops;
    }

    @Override
    public void close() {
        ops.close();
    }

    /**
     * Slices 0 … n−1 of the interleaved full-grid image, cut to the ROI, into out[first …]: one pass over the image,
     * ROI rows in parallel (a pass per slice would read the whole image k times, a float from every cache line).
     */
    private void crop(float[] x, int n, float[][] out, int first) {
        int cols = full.roiCols(), roiCols = roi.roiCols();
        IntStream.range(0, roi.roiRows()).parallel().forEach(i -> {
            int src = ((roi.roiRow() + i) * cols + roi.roiCol()) * k, o = i * roiCols;
            for (int j = 0; j < roiCols; j++, src += k)
                for (int s = 0; s < n; s++) out[first + s][o + j] = x[src + s];
        });
    }
}
