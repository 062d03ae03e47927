package org.tomospark.executor.params;

import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.geometry.ScanGeometry;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.ZarrCompression;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.inputs.ScanMetadata;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.StopRule;
import org.tomospark.executor.preprocess.Preprocessor;

import java.io.Serializable;

/**
 * Every parameter of a reconstruction, independent of where the data live, in parts as ASTRA keeps them apart: the
 * scan's geometry ({@link ScanSettings}), the output volume ({@link VolumeSettings}), the flat/dark correction
 * ({@link CorrectionSettings}), the workflow stages ({@link WorkflowParams}), the algorithm and where it runs
 * ({@link AlgorithmSettings}), and the output files ({@link OutputSettings}). Immutable; build with {@link #builder()}.
 * Geometry is resolved against the scan's metadata with {@link #scanGeometry} and {@link #sliceGeometry}.
 *
 * @param scan       the scan's geometry: from the data, with overrides; cone-beam settings
 * @param volume     which slices, and their grid
 * @param correction the flat/dark correction's limits
 * @param workflow   centre finding, stripe removal, phase retrieval, half acquisition, binning
 * @param algorithm  backend, its options, the ramp filter, the algorithm
 * @param output     the slices' coding and files
 * @param groupRows  rows (slices) per slice group, 0 to let the planner choose; in cone beam the slices per slab (one task)
 */
public record ReconstructionParams(ScanSettings scan, VolumeSettings volume, CorrectionSettings correction,
                                   WorkflowParams workflow, AlgorithmSettings algorithm, OutputSettings output, int groupRows)
        implements Serializable {

    public ReconstructionParams {
        if (scan == null) scan = ScanSettings.FROM_DATA;
        if (volume == null) volume = VolumeSettings.WHOLE;
        if (correction == null) correction = CorrectionSettings.DEFAULTS;
        if (workflow == null) workflow = WorkflowParams.NONE;
        if (algorithm == null) algorithm = AlgorithmSettings.DEFAULTS;
        if (output == null) output = OutputSettings.TIFF;
        IterativeParams iterative = algorithm.iterative();
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
        if (groupRows < 0) throw new IllegalArgumentException("group.rows must be >= 0, got " + groupRows);
    }

    /**
     * The parameters as runs record them: one flat list under the names every version has written (report.json,
     * manifest.json, and the run signature that {@code --resume} and {@code reprocess} recognise an output by), so that
     * outputs written before the parameters were kept in parts are still recognised as the same run's.
     */
    public record Recorded(String backend, BackendOptions backendOptions, FilterSpec filter, double center, double angleStartDeg,
                           double angleStepDeg, double[] axisCorrection, int sliceSize, int[] roi, int rowStart, int rowEnd,
                           int groupRows, float denominatorFloor, float transmissionFloor, double maxRepairFraction,
                           WorkflowParams workflow, SliceGrid sliceGrid, SampleCoding outputCoding, OutputFormat outputFormat,
                           ZarrCompression zarrCompression, IterativeParams iterative, ConeParams cone) {
    }

    /** This run's parameters as runs record them. */
    public Recorded recorded() {
        return new Recorded(algorithm.backend(), algorithm.backendOptions(), algorithm.filter(), scan.center(),
                scan.angleStartDeg(), scan.angleStepDeg(), scan.axisCorrection(), volume.sliceSize(), volume.roi(),
                volume.rowStart(), volume.rowEnd(), groupRows, correction.denominatorFloor(), correction.transmissionFloor(),
                correction.maxRepairFraction(), workflow, volume.sliceGrid(), output.coding(), output.format(),
                output.zarrCompression(), algorithm.iterative(), scan.cone());
    }

    /** Fewest projections at which algorithm=auto takes gridrec: its accuracy was measured from 24 angles up (docs/gridrec.md). */
    public static final int GRIDREC_AUTO_MIN_PROJECTIONS = 24;
    /** Fewest detector columns at which algorithm=auto takes gridrec (measured from 97 up). */
    public static final int GRIDREC_AUTO_MIN_COLUMNS = 64;

    /**
     * algorithm=auto decided for a run whose slices are computed on {@code backendId} (a backend resolved): gridrec on
     * the host's backend ({@link Backends#onHostCpus}) for a parallel-beam scan of at least {@link #GRIDREC_AUTO_MIN_PROJECTIONS}
     * projections and {@link #GRIDREC_AUTO_MIN_COLUMNS} columns, where its accuracy is within 0.3 dB of FBP's; fbp
     * otherwise. The driver decides once for the whole run (tasks never decide it apart). Other algorithms are kept.
     */
    public ReconstructionParams resolveAlgorithm(String backendId, int projections, int columns) {
        if (algorithm.iterative().algorithm() != Algorithm.AUTO) return this;
        boolean gridrec = Backends.onHostCpus().equals(backendId) && coneBeam() == null && projections >= GRIDREC_AUTO_MIN_PROJECTIONS
                && columns >= GRIDREC_AUTO_MIN_COLUMNS;
        IterativeParams it = gridrec ? IterativeParams.GRIDREC : IterativeParams.FBP;
        return new ReconstructionParams(scan, volume, correction, workflow, algorithm.withIterative(it), output, groupRows);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.backend = algorithm.backend();
        b.backendOptions = algorithm.backendOptions();
        b.filter = algorithm.filter();
        b.iterative = algorithm.iterative();
        b.center = scan.center();
        b.angleStartDeg = scan.angleStartDeg();
        b.angleStepDeg = scan.angleStepDeg();
        b.axisCorrection = scan.axisCorrection();
        b.cone = scan.cone();
        b.sliceSize = volume.sliceSize();
        b.roi = volume.roi();
        b.rowStart = volume.rowStart();
        b.rowEnd = volume.rowEnd();
        b.sliceGrid = volume.sliceGrid();
        b.groupRows = groupRows;
        b.denominatorFloor = correction.denominatorFloor();
        b.transmissionFloor = correction.transmissionFloor();
        b.maxRepairFraction = correction.maxRepairFraction();
        b.workflow = workflow;
        b.outputCoding = output.coding();
        b.outputFormat = output.format();
        b.zarrCompression = output.zarrCompression();
        return b;
    }

    /** The ImageDescription of every slice TIFF: the unit and pixel size, and how the values are stored. */
    public String sliceDescription() {
        ConeParams c = coneBeam();
        if (c != null)
            return ValueUnit.imageDescription("1/mm", "linear attenuation coefficient per millimetre",
                    "tomospark.voxelSizeMm=" + c.volume().voxel() + "\n") + output.coding().imageDescription();
        return workflow.sliceDescription() + output.coding().imageDescription();
    }

    public Preprocessor preprocessor() {
        return correction.preprocessor();
    }

    /** The acquisition geometry for a scan: angles from the data unless given, centre, axis correction. */
    public ScanGeometry scanGeometry(ScanMetadata meta) {
        return scan.scanGeometry(meta);
    }

    /**
     * The geometry the back-projector sees: after binning and half-acquisition stitching ({@link WorkflowParams#effective});
     * equal to {@link #scanGeometry} without them.
     */
    public ScanGeometry effectiveGeometry(ScanMetadata meta) {
        return workflow().effective(scanGeometry(meta));
    }

    /** The output grid: sliceSize (or the effective detector width, after binning/stitching) squared, with the ROI if set. */
    public SliceGeometry sliceGeometry(ScanMetadata meta) {
        return sliceGeometry(effectiveGeometry(meta).detectorWidth());
    }

    /** The output grid for a detector (after binning/stitching) {@code detectorWidth} wide. */
    public SliceGeometry sliceGeometry(int detectorWidth) {
        return volume.sliceGeometry(detectorWidth, coneBeam());
    }

    /**
     * The cone-beam settings of a cone-beam run, resolved; null for parallel beam (and for a geometry=auto run whose input
     * has not been looked at: {@link ConeResolution#resolve} decides).
     */
    public ConeParams coneBeam() {
        return scan.coneBeam();
    }

    /** Refuses the settings FDK does not take, naming the key. */
    public void checkConeCompatible() {
        String bad = null;
        Algorithm a = algorithm.iterative().algorithm();
        if (a != Algorithm.FBP && a != Algorithm.AUTO)
            bad = "algorithm=" + a.id();
        else if (workflow.halfAcquisition()) bad = "halfAcquisition";
        else if (workflow.binning()) bad = "bin.*";
        else if (workflow.paganin() != null) bad = "phase.*";
        else if (workflow.stripe().active()) bad = "stripe.method";
        else if (workflow.centerMethod() != null || !Double.isNaN(scan.center())) bad = "center (cone.cu places the central ray)";
        else if (volume.sliceSize() != 0) bad = "slice.size (cone.volume.size sets the volume)";
        else if (volume.roi() != null) bad = "slice.roi";
        else if (scan.axisCorrection() != null) bad = "an axis correction";
        else if (workflow.unit().kind() != ValueUnit.Kind.PIXEL) bad = "output.unit (FDK's values are in 1/mm)";
        if (bad != null)
            throw new IllegalArgumentException("config key " + bad + " does not apply to a cone-beam (FDK) reconstruction");
    }

    /**
     * The output slices to reconstruct, [start, end), checked against the scan: detector rows in parallel beam, slices of
     * the volume in cone beam.
     */
    public int[] rowRange(ScanMetadata meta) {
        return volume.rowRange(meta, coneBeam());
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
            return new ReconstructionParams(new ScanSettings(center, angleStartDeg, angleStepDeg, axisCorrection, cone),
                    new VolumeSettings(sliceSize, roi, rowStart, rowEnd, sliceGrid),
                    new CorrectionSettings(denominatorFloor, transmissionFloor, maxRepairFraction), workflow,
                    new AlgorithmSettings(backend, backendOptions, filter, iterative),
                    new OutputSettings(outputCoding, outputFormat, zarrCompression), groupRows);
        }
    }

    /** Whether the sinograms still hold each detector pixel's own counts (no stage combined or replaced them). */
    public static boolean countsKept(WorkflowParams workflow) {
        return workflow.paganin() == null && !workflow.halfAcquisition() && !workflow.binning();
    }

    /**
     * Whether the iterative method is given each slice's unattenuated counts where the flats were measured: MLTR, a stop
     * rule that may use them, and TV (its default weight takes the noise from them).
     */
    public boolean iterativeNeedsCounts() {
        IterativeParams iterative = algorithm.iterative();
        return iterative.algorithm() == Algorithm.MLTR
                || (iterative.mayUseCounts() || iterative.algorithm() == Algorithm.TV) && countsKept(workflow);
    }
}
