package org.tomospark.executor.pipeline;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.io.OutputFormat;
import org.tomospark.executor.io.ZarrCompression;
import org.tomospark.executor.io.SampleCoding;
import org.tomospark.executor.io.ScanMetadata;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.StopRule;
import org.tomospark.executor.preprocess.Preprocessor;

import java.io.Serializable;
import java.util.Locale;

/**
 * Every algorithm parameter of a reconstruction, independent of where the data live. Immutable; build with
 * {@link #builder()}. Geometry is resolved against the scan's metadata with {@link #scanGeometry} and
 * {@link #sliceGeometry}.
 *
 * @param backend          backend id (auto, java, cuda, opencl)
 * @param backendOptions   interpolation, slices per pass, sample format, threads, device, variant
 * @param filter           ramp filter window, cutoff and padding
 * @param center           centre of rotation in detector pixels, or NaN for the detector centre (width−1)/2
 * @param angleStartDeg    first angle if the angles are given as start/step, NaN to read them from the data
 * @param angleStepDeg     angle step in degrees (with angleStartDeg)
 * @param axisCorrection   per-projection axis shift in pixels (seed paper's c_a), or null
 * @param sliceSize        output slice edge in pixels, 0 for the detector width
 * @param roi              {col, row, cols, rows} within the slice, or null for the full slice
 * @param rowStart         first detector row (slice) to reconstruct
 * @param rowEnd           one past the last row, or -1 for all rows
 * @param groupRows        rows (slices) per slice group, 0 to let the planner choose
 * @param denominatorFloor flat − dark values below this are clamped
 * @param transmissionFloor transmissions below this are clamped before −log
 * @param maxRepairFraction the largest fraction of clamped/repaired values accepted before the input is rejected
 * @param workflow         centre finding, stripe removal, phase retrieval, half acquisition, binning
 * @param sliceGrid        where the slice's pixels lie around the rotation axis
 * @param outputCoding     how the slices' values are stored (float32, float16, uint16 over a range)
 * @param outputFormat     the files the slices go to: TIFFs, one Zarr array, or one HDF5 file
 * @param zarrCompression  how a Zarr output's chunks are compressed
 * @param iterative        filtered back-projection (the default) or an iterative method and its stopping rule
 * @param cone             cone-beam settings, resolved against the input by {@link ConeResolution}; null for parallel beam.
 *                         In a cone-beam run the output slices are the volume's z slices: {@code rowStart}/{@code rowEnd}
 *                         select slices of the volume and {@code groupRows} is the slices per slab (one task)
 */
public record ReconstructionParams(String backend, BackendOptions backendOptions, FilterSpec filter, double center,
                                   double angleStartDeg, double angleStepDeg, double[] axisCorrection, int sliceSize,
                                   int[] roi, int rowStart, int rowEnd, int groupRows, float denominatorFloor,
                                   float transmissionFloor, double maxRepairFraction, WorkflowParams workflow,
                                   SliceGrid sliceGrid, SampleCoding outputCoding, OutputFormat outputFormat,
                                   ZarrCompression zarrCompression, IterativeParams iterative, ConeParams cone)
        implements Serializable {

    /** The parameters on the {@link SliceGrid#ASTRA} grid, float32 TIFF slices. */
    public ReconstructionParams(String backend, BackendOptions backendOptions, FilterSpec filter, double center,
                                double angleStartDeg, double angleStepDeg, double[] axisCorrection, int sliceSize,
                                int[] roi, int rowStart, int rowEnd, int groupRows, float denominatorFloor,
                                float transmissionFloor, double maxRepairFraction, WorkflowParams workflow) {
        this(backend, backendOptions, filter, center, angleStartDeg, angleStepDeg, axisCorrection, sliceSize, roi,
                rowStart, rowEnd, groupRows, denominatorFloor, transmissionFloor, maxRepairFraction, workflow,
                SliceGrid.ASTRA, SampleCoding.FLOAT32, OutputFormat.TIFF, ZarrCompression.NONE, IterativeParams.FBP, null);
    }

    /** The parameters without workflow options: a plain filtered back-projection at a given centre. */
    public ReconstructionParams(String backend, BackendOptions backendOptions, FilterSpec filter, double center,
                                double angleStartDeg, double angleStepDeg, double[] axisCorrection, int sliceSize,
                                int[] roi, int rowStart, int rowEnd, int groupRows, float denominatorFloor,
                                float transmissionFloor, double maxRepairFraction) {
        this(backend, backendOptions, filter, center, angleStartDeg, angleStepDeg, axisCorrection, sliceSize, roi, rowStart,
                rowEnd, groupRows, denominatorFloor, transmissionFloor, maxRepairFraction, WorkflowParams.NONE);
    }

    public ReconstructionParams {
        if (backend == null || backend.isBlank()) backend = "auto";
        if (backendOptions == null) backendOptions = BackendOptions.defaults();
        if (filter == null) filter = FilterSpec.of(FilterWindow.RAMLAK);
        if (workflow == null) workflow = WorkflowParams.NONE;
        if (sliceGrid == null) sliceGrid = SliceGrid.ASTRA;
        if (outputCoding == null) outputCoding = SampleCoding.FLOAT32;
        if (outputFormat == null) outputFormat = OutputFormat.TIFF;
        if (zarrCompression == null) zarrCompression = ZarrCompression.NONE;
        if (zarrCompression != ZarrCompression.NONE && outputFormat != OutputFormat.ZARR)
            throw new IllegalArgumentException("output.zarr.compression=" + zarrCompression.id() + " compresses Zarr "
                    + "chunks; output.format is " + outputFormat.id());
        if (iterative == null) iterative = IterativeParams.FBP;
        // gridrec runs on the host's cores: backend auto means the java backend for it, a GPU backend is refused
        if (iterative.algorithm() == Algorithm.GRIDREC) {
            if ("auto".equals(backend)) backend = "java";
            else if (!"java".equals(backend))
                throw new IllegalArgumentException("config key algorithm=gridrec runs on CPUs (the java backend), not backend="
                        + backend + ": set backend=java (or auto), or algorithm=fbp for " + backend);
        }
        // MLTR and the discrepancy rule model the counts of each detector pixel: stages that combine pixels or replace the
        // counts are refused
        if (!countsKept(workflow)) {
            if (iterative.algorithm() == Algorithm.MLTR)
                throw new IllegalArgumentException("config key algorithm=mltr works on the counts of each detector pixel: it "
                        + "cannot be combined with phase retrieval (phase.*), halfAcquisition or binning (bin.*)");
            if (iterative.stop() == StopRule.Rule.DISCREPANCY)
                throw new IllegalArgumentException("config key iterative.stop=discrepancy measures the noise by the counts of each "
                        + "detector pixel: it cannot be combined with phase retrieval (phase.*), halfAcquisition or binning "
                        + "(bin.*); use change");
        }
        if (sliceSize < 0) throw new IllegalArgumentException("slice.size must be >= 0, got " + sliceSize);
        if (roi != null && roi.length != 4) throw new IllegalArgumentException("slice.roi must be COL,ROW,COLS,ROWS");
        if (rowStart < 0) throw new IllegalArgumentException("slices: start row must be >= 0, got " + rowStart);
        if (rowEnd != -1 && rowEnd <= rowStart)
            throw new IllegalArgumentException("slices: end " + rowEnd + " must be greater than start " + rowStart);
        if (groupRows < 0) throw new IllegalArgumentException("group.rows must be >= 0, got " + groupRows);
        if (!Double.isNaN(angleStartDeg) && !(Double.isFinite(angleStepDeg) && angleStepDeg != 0))
            throw new IllegalArgumentException("angles.step must be a non-zero number when angles.start is given");
        roi = roi == null ? null : roi.clone();
        axisCorrection = axisCorrection == null ? null : axisCorrection.clone();
        new Preprocessor(denominatorFloor, transmissionFloor, maxRepairFraction, true); // validates
    }

    /** Fewest projections at which algorithm=auto takes gridrec: its accuracy was measured from 24 angles up (docs/gridrec.md). */
    public static final int GRIDREC_AUTO_MIN_PROJECTIONS = 24;
    /** Fewest detector columns at which algorithm=auto takes gridrec (measured from 97 up). */
    public static final int GRIDREC_AUTO_MIN_COLUMNS = 64;

    /**
     * algorithm=auto decided for a run whose slices are computed on {@code backendId} (a backend resolved: java, cuda,
     * opencl): gridrec on the java backend for a parallel-beam scan of at least {@link #GRIDREC_AUTO_MIN_PROJECTIONS}
     * projections and {@link #GRIDREC_AUTO_MIN_COLUMNS} columns, where its accuracy is within 0.3 dB of FBP's; fbp
     * otherwise. The driver decides once for the whole run (tasks never decide it apart). Other algorithms are kept.
     */
    public ReconstructionParams resolveAlgorithm(String backendId, int projections, int columns) {
        if (iterative.algorithm() != Algorithm.AUTO) return this;
        boolean gridrec = "java".equals(backendId) && coneBeam() == null && projections >= GRIDREC_AUTO_MIN_PROJECTIONS
                && columns >= GRIDREC_AUTO_MIN_COLUMNS;
        IterativeParams it = gridrec ? IterativeParams.GRIDREC : IterativeParams.FBP;
        return toBuilder().iterative(it).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.backend = backend;
        b.backendOptions = backendOptions;
        b.filter = filter;
        b.center = center;
        b.angleStartDeg = angleStartDeg;
        b.angleStepDeg = angleStepDeg;
        b.axisCorrection = axisCorrection;
        b.sliceSize = sliceSize;
        b.roi = roi;
        b.rowStart = rowStart;
        b.rowEnd = rowEnd;
        b.groupRows = groupRows;
        b.denominatorFloor = denominatorFloor;
        b.transmissionFloor = transmissionFloor;
        b.maxRepairFraction = maxRepairFraction;
        b.workflow = workflow;
        b.sliceGrid = sliceGrid;
        b.outputCoding = outputCoding;
        b.outputFormat = outputFormat;
        b.zarrCompression = zarrCompression;
        b.iterative = iterative;
        b.cone = cone;
        return b;
    }

    /** The ImageDescription of every slice TIFF: the unit and pixel size, and how the values are stored. */
    public String sliceDescription() {
        ConeParams c = coneBeam();
        if (c != null)
            return ValueUnit.imageDescription("1/mm", "linear attenuation coefficient per millimetre",
                    "tomospark.voxelSizeMm=" + c.volume().voxel() + "\n") + outputCoding.imageDescription();
        return workflow.sliceDescription() + outputCoding.imageDescription();
    }

    public Preprocessor preprocessor() {
        return new Preprocessor(denominatorFloor, transmissionFloor, maxRepairFraction, true);
    }

    /** The acquisition geometry for a scan: angles from the data unless given, centre, axis correction. */
    public ScanGeometry scanGeometry(ScanMetadata meta) {
        ScanGeometry.Builder b = ScanGeometry.builder().detectorWidth(meta.width());
        if (!Double.isNaN(angleStartDeg)) b.anglesStartStep(angleStartDeg, angleStepDeg, meta.numProjections());
        else if (meta.anglesDeg() != null) b.anglesDeg(meta.anglesDeg());
        else throw new IllegalArgumentException(meta.source() + ": the scan has no angles (" + meta.anglesSource()
                    + "); give angles.start and angles.step");
        if (!Double.isNaN(center)) {
            if (!(center >= 0 && center <= meta.width() - 1))
                throw CoreKeys.CENTER.invalid(center == Math.rint(center) ? String.format(Locale.ROOT, "%.0f", center)
                        : Double.toString(center), "outside the detector [0, " + (meta.width() - 1) + "]", null);
            b.centerOfRotation(center);
        }
        if (axisCorrection != null) b.axisCorrection(axisCorrection);
        return b.build();
    }

    /**
     * The geometry the back-projector sees: after binning and half-acquisition stitching ({@link Workflow});
     * equal to {@link #scanGeometry} without them.
     */
    public ScanGeometry effectiveGeometry(ScanMetadata meta) {
        return new Workflow(scanGeometry(meta), this).effective();
    }

    /** The output grid: sliceSize (or the effective detector width, after binning/stitching) squared, with the ROI if set. */
    public SliceGeometry sliceGeometry(ScanMetadata meta) {
        return sliceGeometry(effectiveGeometry(meta).detectorWidth());
    }

    /** The output grid for a detector (after binning/stitching) {@code detectorWidth} wide. */
    public SliceGeometry sliceGeometry(int detectorWidth) {
        ConeParams c = coneBeam();
        if (c != null) return SliceGeometry.square(c.volume().n());
        int n = sliceSize == 0 ? detectorWidth : sliceSize;
        SliceGeometry g = SliceGeometry.square(n).withGrid(sliceGrid);
        return roi == null ? g : g.withRoi(roi[0], roi[1], roi[2], roi[3]);
    }

    /**
     * The cone-beam settings of a cone-beam run, resolved; null for parallel beam (and for a geometry=auto run whose input
     * has not been looked at: {@link ConeResolution#resolve} decides).
     */
    public ConeParams coneBeam() {
        if (cone == null) return null;
        if (cone.resolved()) return cone;
        if (cone.required())
            throw new IllegalStateException("the cone-beam geometry has not been resolved against the input (ConeResolution.resolve)");
        return null;
    }

    /** Refuses the settings FDK does not take, naming the key. */
    public void checkConeCompatible() {
        String bad = null;
        if (iterative.algorithm() != Algorithm.FBP && iterative.algorithm() != Algorithm.AUTO)
            bad = "algorithm=" + iterative.algorithm().id();
        else if (workflow.halfAcquisition()) bad = "halfAcquisition";
        else if (workflow.binning()) bad = "bin.*";
        else if (workflow.paganin() != null) bad = "phase.*";
        else if (workflow.stripe().active()) bad = "stripe.method";
        else if (workflow.centerMethod() != null || !Double.isNaN(center)) bad = "center (cone.cu places the central ray)";
        else if (sliceSize != 0) bad = "slice.size (cone.volume.size sets the volume)";
        else if (roi != null) bad = "slice.roi";
        else if (axisCorrection != null) bad = "an axis correction";
        else if (workflow.unit().kind() != ValueUnit.Kind.PIXEL) bad = "output.unit (FDK's values are in 1/mm)";
        if (bad != null)
            throw new IllegalArgumentException("config key " + bad + " does not apply to a cone-beam (FDK) reconstruction");
    }

    /**
     * The output slices to reconstruct, [start, end), checked against the scan: detector rows in parallel beam, slices of
     * the volume in cone beam.
     */
    public int[] rowRange(ScanMetadata meta) {
        ConeParams c = coneBeam();
        if (c != null) {
            int nz = c.volume().nz();
            int end = rowEnd == -1 ? nz : rowEnd;
            if (rowStart >= nz || end > nz)
                throw new IllegalArgumentException("slices " + rowStart + ":" + end + " outside the " + nz + " slices of the volume "
                        + "(cone.volume.slices)");
            return new int[]{rowStart, end};
        }
        int end = rowEnd == -1 ? meta.rows() : rowEnd;
        if (rowStart >= meta.rows() || end > meta.rows())
            throw new IllegalArgumentException("slices " + rowStart + ":" + end + " outside the " + meta.rows() + " detector rows of "
                    + meta.source());
        return new int[]{rowStart, end};
    }

    /** Builder with the defaults documented in conf/. */
    public static final class Builder {
        private String backend = "auto";
        private BackendOptions backendOptions = BackendOptions.defaults();
        private FilterSpec filter = FilterSpec.of(FilterWindow.RAMLAK);
        private double center = Double.NaN;
        private double angleStartDeg = Double.NaN, angleStepDeg = Double.NaN;
        private double[] axisCorrection;
        private int sliceSize;
        private int[] roi;
        private int rowStart;
        private int rowEnd = -1;
        private int groupRows;
        private float denominatorFloor = 1e-3f;
        private float transmissionFloor = 1e-6f;
        private double maxRepairFraction = 0.05;
        private WorkflowParams workflow = WorkflowParams.NONE;
        private SliceGrid sliceGrid = SliceGrid.ASTRA;
        private SampleCoding outputCoding = SampleCoding.FLOAT32;
        private OutputFormat outputFormat = OutputFormat.TIFF;
        private ZarrCompression zarrCompression = ZarrCompression.NONE;
        private IterativeParams iterative = IterativeParams.FBP;
        private ConeParams cone;

        public Builder backend(String b) { this.backend = b; return this; }
        public Builder backendOptions(BackendOptions o) { this.backendOptions = o; return this; }
        public Builder filter(FilterSpec f) { this.filter = f; return this; }
        public Builder center(double c) { this.center = c; return this; }
        public Builder angles(double startDeg, double stepDeg) { this.angleStartDeg = startDeg; this.angleStepDeg = stepDeg; return this; }
        public Builder axisCorrection(double[] c) { this.axisCorrection = c; return this; }
        public Builder sliceSize(int s) { this.sliceSize = s; return this; }
        public Builder roi(int col, int row, int cols, int rows) { this.roi = new int[]{col, row, cols, rows}; return this; }
        public Builder noRoi() { this.roi = null; return this; }
        public Builder rows(int start, int end) { this.rowStart = start; this.rowEnd = end; return this; }
        public Builder groupRows(int g) { this.groupRows = g; return this; }
        public Builder denominatorFloor(float f) { this.denominatorFloor = f; return this; }
        public Builder transmissionFloor(float f) { this.transmissionFloor = f; return this; }
        public Builder maxRepairFraction(double f) { this.maxRepairFraction = f; return this; }
        public Builder workflow(WorkflowParams w) { this.workflow = w; return this; }
        public Builder sliceGrid(SliceGrid g) { this.sliceGrid = g; return this; }
        public Builder outputCoding(SampleCoding c) { this.outputCoding = c; return this; }
        public Builder outputFormat(OutputFormat f) { this.outputFormat = f; return this; }
        public Builder zarrCompression(ZarrCompression c) { this.zarrCompression = c; return this; }
        public Builder iterative(IterativeParams p) { this.iterative = p; return this; }
        public Builder cone(ConeParams c) { this.cone = c; return this; }

        public ReconstructionParams build() {
            return new ReconstructionParams(backend, backendOptions, filter, center, angleStartDeg, angleStepDeg,
                    axisCorrection, sliceSize, roi, rowStart, rowEnd, groupRows, denominatorFloor, transmissionFloor,
                    maxRepairFraction, workflow, sliceGrid, outputCoding, outputFormat, zarrCompression, iterative, cone);
        }
    }

    /** Whether the sinograms still hold each detector pixel's own counts (no stage combined or replaced them). */
    static boolean countsKept(WorkflowParams workflow) {
        return workflow.paganin() == null && !workflow.halfAcquisition() && !workflow.binning();
    }

    /**
     * Whether the iterative method is given each slice's unattenuated counts where the flats were measured: MLTR, a stop
     * rule that may use them, and TV (its default weight takes the noise from them).
     */
    public boolean iterativeNeedsCounts() {
        return iterative.algorithm() == Algorithm.MLTR
                || (iterative.mayUseCounts() || iterative.algorithm() == Algorithm.TV) && countsKept(workflow);
    }
}
