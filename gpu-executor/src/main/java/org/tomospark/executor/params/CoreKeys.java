package org.tomospark.executor.params;

import org.tomospark.executor.backend.Backends;
import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.center.CenterFinder;
import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.config.Settings;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.geometry.SliceGrid;
import org.tomospark.executor.outputs.OutputFormat;
import org.tomospark.executor.outputs.ZarrCompression;
import org.tomospark.executor.outputs.OutputType;
import org.tomospark.executor.outputs.SampleCoding;
import org.tomospark.executor.iterative.Algorithm;
import org.tomospark.executor.iterative.IterativeParams;
import org.tomospark.executor.iterative.StopRule;
import org.tomospark.executor.iterative.TvWeight;
import org.tomospark.executor.phase.PaganinParams;
import org.tomospark.executor.stripe.StripeParams;
import org.tomospark.executor.stripe.StripeRemoval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The algorithm's configuration keys, and their translation into {@link ReconstructionParams}. */
public final class CoreKeys {
    private CoreKeys() {
    }

    private static final String GEO = "Geometry";
    private static final String FIL = "Filter";
    private static final String PRE = "Preprocessing";
    private static final String BP = "Back-projection";
    private static final String WF = "Centre, corrections and binning";
    private static final String OUT = "Output values";
    private static final String IT = "Iterative reconstruction";
    private static final String CONE = "Cone beam (FDK)";

    /** The value {@link #CENTER} parses "auto" to. */
    public static final double AUTO_CENTER = Double.NEGATIVE_INFINITY;

    public static final ConfigKey<Double> CENTER = ConfigKey.of(GEO, "center",
            "Centre of rotation in detector pixels (column j's centre is at j). Empty: the detector centre (width-1)/2. "
                    + "auto: found from the data by center.method; the value found is recorded in report.json.",
            "", s -> s.isBlank() ? Double.NaN : s.trim().equalsIgnoreCase("auto") ? AUTO_CENTER : ConfigKey.number(s),
            v -> Double.isNaN(v) || v == AUTO_CENTER || (v >= 0 && v <= 1e6), "number in [0, 1e6], auto, or empty");
    public static final ConfigKey<Double> ANGLES_START = ConfigKey.decimal(GEO, "angles.start",
            "First projection angle in degrees. Empty: read the input's angles (/exchange/theta, the TIFF stack's "
                    + "job.input.tiff.theta file or the raw input's job.input.raw.theta file).", "", -1e6, 1e6);
    public static final ConfigKey<Double> ANGLES_STEP = ConfigKey.decimal(GEO, "angles.step",
            "Angle step in degrees, with angles.start.", "", -360, 360);
    public static final ConfigKey<Integer> SLICE_SIZE = ConfigKey.integer(GEO, "slice.size",
            "Edge of the square output slice in pixels; 0 means the detector width.", 0, 0, 1 << 16);
    public static final ConfigKey<SliceGrid> SLICE_GRID = ConfigKey.choice(GEO, "slice.grid",
            "Where the slice's pixels lie around the rotation axis. astra: the axis at pixel (N-1)/2, the middle of "
                    + "the N-pixel slice, as ASTRA places it. skimage: at pixel N//2, as scikit-image's iradon does (and "
                    + "the scripts that use it). For even N the two differ by half a pixel in x and in y; for odd N they "
                    + "are the same. The centre of rotation (a detector column) means the same in both.",
            "astra", SliceGrid::parse, "astra, skimage");
    public static final ConfigKey<OutputFormat> OUTPUT_FORMAT = ConfigKey.choice(OUT, "output.format",
            "Where the slices go: tiff (slice_NNNNN.tif, one per slice), zarr (volume.zarr, a Zarr v2 array "
                    + "[detector row][y][x] chunked one slice per chunk, that zarr-python, napari and tensorstore open; "
                    + "rows not reconstructed read as the fill value), or hdf5 (volume.h5, one chunked dataset /volume "
                    + "laid out as the Zarr array, that h5py and Fiji open; HDF5 takes one writer, so the tasks commit "
                    + "their slices to volume.h5.slices/ and the driver assembles volume.h5 from them at the end, "
                    + "streaming; the slices stay for --resume). Every format is committed slice by slice the same way.",
            "tiff", OutputFormat::parse, "tiff, zarr, hdf5");
    public static final ConfigKey<ZarrCompression> ZARR_COMPRESSION = ConfigKey.choice(OUT, "output.zarr.compression",
            "output.format=zarr: none (raw chunks, no encoding time), or zstd (Zstandard at level 3, numcodecs' zstd "
                    + "codec, which zarr-python, napari and tensorstore read; smaller chunks for some encoding time on the "
                    + "tasks' writer threads). Another format with zstd is an error.",
            "none", ZarrCompression::parse, "none, zstd");
    public static final ConfigKey<OutputType> OUTPUT_TYPE = ConfigKey.choice(OUT, "output.type",
            "Sample type of the slices: float32 (as computed), float16 (half precision, 11 significant bits), or "
                    + "uint16 (counts of a linear scale over output.range: value = offset + count * scale; written into "
                    + "each slice's ImageDescription, as ImageJ's calibration, and into manifest.json and report.json).",
            "float32", OutputType::parse, "float32, float16, uint16");
    public static final ConfigKey<double[]> OUTPUT_RANGE = ConfigKey.of(OUT, "output.range",
            "uint16 output: MIN,MAX, the values stored as counts 0 and 65535 (values outside are clamped), or auto: "
                    + "the output.percentiles of the middle slice, reconstructed before any slice is written.", "",
            s -> s.isBlank() ? null : s.trim().equalsIgnoreCase("auto") ? new double[0] : parseValueRange(s), v -> true,
            "empty, auto, or two numbers MIN,MAX with MIN < MAX");
    public static final ConfigKey<double[]> OUTPUT_PERCENTILES = ConfigKey.of(OUT, "output.percentiles",
            "uint16 output with output.range=auto: the percentiles LOW,HIGH of the middle slice's values that become "
                    + "counts 0 and 65535.", "0.1,99.9", CoreKeys::parsePercentiles,
            v -> v[0] >= 0 && v[0] < v[1] && v[1] <= 100, "LOW,HIGH with 0 <= LOW < HIGH <= 100");
    public static final ConfigKey<int[]> SLICE_ROI = ConfigKey.of(GEO, "slice.roi",
            "Region of interest COL,ROW,COLS,ROWS within the slice; empty for the whole slice. Only the ROI is computed.",
            "", s -> s.isBlank() ? null : parseInts(s, 4), v -> true, "empty or four integers COL,ROW,COLS,ROWS");
    public static final ConfigKey<int[]> SLICES = ConfigKey.of(GEO, "slices",
            "Detector rows (slices) to reconstruct, START:END with END exclusive; empty for all. Cone beam: slices of the "
                    + "volume.",
            "", s -> s.isBlank() ? null : parseRange(s), v -> true, "empty or START:END");

    public static final ConfigKey<FilterWindow> FILTER = ConfigKey.choice(FIL, "filter",
            "Ramp filter window.", "ramlak", FilterWindow::parse, "ramlak, shepp-logan, cosine, hamming, hann, parzen");
    public static final ConfigKey<Double> FILTER_CUTOFF = ConfigKey.decimal(FIL, "filter.cutoff",
            "Frequency cutoff as a fraction of Nyquist; the window is stretched to it and zero above.", "1.0", 1e-3, 1.0);
    public static final ConfigKey<Padding> FILTER_PADDING = ConfigKey.choice(FIL, "filter.padding",
            "Row padding to the FFT length (power of two >= 2 x width).", "zero", Padding::parse, "zero, edge");

    public static final ConfigKey<Double> DEN_FLOOR = ConfigKey.decimal(PRE, "preprocess.denominatorFloor",
            "Flat - dark values below this are clamped to it (and counted).", "0.001", 1e-12, 1e6);
    public static final ConfigKey<Double> TR_FLOOR = ConfigKey.decimal(PRE, "preprocess.transmissionFloor",
            "Transmissions below this are clamped to it before -log (and counted).", "1e-6", 1e-12, 1);
    public static final ConfigKey<Double> MAX_REPAIR = ConfigKey.decimal(PRE, "preprocess.maxRepairFraction",
            "Largest fraction of clamped or NaN-repaired values accepted before the input is rejected.", "0.05", 0, 1);

    public static final ConfigKey<String> BACKEND = ConfigKey.of(BP, "backend",
            "Back-projection backend: auto (a GPU backend where a GPU is assigned, else the host's, java), or an installed "
                    + "backend's id: java, cuda, opencl in this build (tomospark backends lists them, with whether each can "
                    + "run here).", "auto", Backends::installedId, s -> true, "auto or an installed backend's id");
    public static final ConfigKey<Interpolation> INTERPOLATION = ConfigKey.choice(BP, "backend.interpolation",
            "Detector interpolation.", "linear", Interpolation::parse, "linear, nearest");
    public static final ConfigKey<Integer> SLICES_PER_PASS = ConfigKey.of(BP, "backend.slicesPerPass",
            "Slices interleaved into one compound sinogram (one fetch serves them all); 0 lets the backend choose.", "0", Integer::parseInt,
            v -> v == 0 || v == 1 || v == 2 || v == 4 || v == 8 || v == 16, "0, 1, 2, 4, 8 or 16");
    public static final ConfigKey<SampleFormat> FORMAT = ConfigKey.choice(BP, "backend.format",
            "Storage of the interleaved sinogram bins; arithmetic is float32 either way.", "float32", SampleFormat::parse, "float32, half");
    public static final ConfigKey<Integer> THREADS = ConfigKey.integer(BP, "backend.threads",
            "CPU threads for the java backend and host-side filtering; 0 for all cores.", 0, 0, 4096);
    public static final ConfigKey<String> DEVICE = ConfigKey.string(BP, "backend.device",
            "Device selector for GPU backends (index or Spark GPU address); empty to take Spark's assignment.", "");
    public static final ConfigKey<String> VARIANT = ConfigKey.string(BP, "backend.variant",
            "Kernel variant, or auto (java: auto, vector, scalar; cuda: std, stdz, tex, alu[:...], hybrid[:...], tc[:...], "
                    + "docs/README-cuda.md; "
                    + "opencl: docs/opencl-backend.md). cuda's auto picks the fastest variant that keeps the mode's accuracy.", "auto");
    public static final ConfigKey<Integer> GROUP_ROWS = ConfigKey.integer(BP, "group.rows",
            "Detector rows per slice group (one Spark task); a multiple of backend.slicesPerPass; 0 lets the planner choose. "
                    + "Cone beam: slices of the volume per z-slab (one task).",
            0, 0, 1 << 16);

    public static final ConfigKey<CenterFinder.Method> CENTER_METHOD = ConfigKey.choice(WF, "center.method",
            "Automatic centre method for center=auto: vo (Vo et al. 2014, Fourier metric of the 180-degree sinogram "
                    + "extended by its mirror image) or correlation (projections 180 degrees apart, mirrored and correlated). "
                    + "Half-acquisition scans always use correlation.", "vo", CenterFinder.Method::parse, "vo, correlation");
    public static final ConfigKey<Double> CENTER_SEARCH_RADIUS = ConfigKey.decimal(WF, "center.searchRadius",
            "Largest distance of the centre from the detector centre searched by center=auto, in pixels; 0: width/4 for vo, "
                    + "any overlap of at least width/10 columns for correlation.", "0", 0, 1e6);
    public static final ConfigKey<double[]> CENTER_SWEEP = ConfigKey.of(WF, "center.sweep",
            "START:END:STEP: instead of the volume, reconstruct the middle slice of the row range at each centre, write "
                    + "center_CCCC.CC.tif per centre and contact-sheet.png into the output; empty for a normal run.",
            "", s -> s.isBlank() ? null : parseSweep(s), v -> true, "empty or START:END:STEP");
    public static final ConfigKey<StripeRemoval.Method> STRIPE = ConfigKey.choice(WF, "stripe.method",
            "Stripe (ring) removal per sinogram before filtering (docs/stripes.md compares them): none; sorting (Vo et al. "
                    + "2018, sort each column over angles, median across columns, unsort); offset (the same estimate applied as "
                    + "one offset per column: gain-error stripes, leaves other columns untouched); fw (Muench et al. 2009 "
                    + "Fourier-wavelet filter, TomoPy's remove_stripe_fw); all (Vo et al. 2018 combined: dead and fluctuating "
                    + "columns, large stripes, then sorting; TomoPy's remove_all_stripe).", "none", StripeRemoval.Method::parse,
            StripeRemoval.Method.choices());
    public static final ConfigKey<Integer> STRIPE_SIZE = ConfigKey.of(WF, "stripe.size",
            "Median window across detector columns (odd) of sorting and offset, and of the small-stripe pass of all.", "11",
            Integer::parseInt, v -> v >= 3 && v <= 255 && v % 2 == 1, "odd integer in [3, 255]");
    public static final ConfigKey<Double> STRIPE_SIGMA = ConfigKey.decimal(WF, "stripe.sigma",
            "fw: width of the Gaussian that damps the low angular frequencies of the vertical wavelet details, in "
                    + "frequency indices (cycles over the angular range; TomoPy's sigma); larger also removes stripes that drift "
                    + "during the scan, and more of the object.", "1", 0.01, 1000);
    public static final ConfigKey<Integer> STRIPE_LEVEL = ConfigKey.integer(WF, "stripe.level",
            "fw: wavelet decomposition levels (db5); level l holds stripes about 2^l columns wide, and each level blurs "
                    + "structures centred on the axis more (docs/stripes.md).", 3, 1, 16);
    public static final ConfigKey<Double> STRIPE_SNR = ConfigKey.decimal(WF, "stripe.snr",
            "all: ratio above the noise level at which a column counts as a stripe (Vo's snr); larger finds fewer.", "3", 0.1, 100);
    public static final ConfigKey<Integer> STRIPE_LARGE_SIZE = ConfigKey.of(WF, "stripe.largeSize",
            "all: median window across detector columns (odd) of the large-stripe and dead-column passes.", "61",
            Integer::parseInt, v -> v >= 3 && v <= 1023 && v % 2 == 1, "odd integer in [3, 1023]");
    public static final ConfigKey<Double> PHASE_ENERGY = ConfigKey.decimal(WF, "phase.energy",
            "Paganin phase retrieval: photon energy in keV. Empty: no phase retrieval. With it, give phase.distance, "
                    + "phase.pixelSize and phase.deltaOverBeta; each slice group reads halo rows above and below.", "", 0.1, 1000);
    public static final ConfigKey<Double> PHASE_DISTANCE = ConfigKey.decimal(WF, "phase.distance",
            "Paganin: sample-detector distance in metres.", "", 1e-6, 1000);
    public static final ConfigKey<Double> PHASE_PIXEL = ConfigKey.decimal(WF, "phase.pixelSize",
            "Detector pixel size at the sample in metres (e.g. 6.5e-7): Paganin's pixel size, and the pixel size that "
                    + "output.unit=metre divides by.", "", 1e-10, 1);
    public static final ConfigKey<Double> PHASE_DB = ConfigKey.decimal(WF, "phase.deltaOverBeta",
            "Paganin: ratio delta/beta of the material.", "", 1e-6, 1e9);
    public static final ConfigKey<Boolean> HALF_ACQUISITION = ConfigKey.bool(WF, "halfAcquisition",
            "360-degree scan with the axis off centre: stitch each projection with the mirrored one 180 degrees later "
                    + "into a 180-degree sinogram of a wider detector (overlap from center, or found when center=auto). The "
                    + "stitched detector, and so the slice, is round(2d)+1 columns, d the axis's distance from the far detector "
                    + "edge: centres that round to the same half pixel give the same size (slice.size fixes it outright).", false);
    public static final ConfigKey<Integer> BIN_COLUMNS = ConfigKey.integer(WF, "bin.columns",
            "Detector columns averaged into one before filtering (cuts filter and back-projection work; the slice shrinks too).", 1, 1, 64);
    public static final ConfigKey<Integer> BIN_ROWS = ConfigKey.integer(WF, "bin.rows",
            "Detector rows averaged into one slice; slice k of the output covers rows k*bin..k*bin+bin-1.", 1, 1, 64);
    public static final ConfigKey<Integer> BIN_PROJECTIONS = ConfigKey.integer(WF, "bin.projections",
            "Consecutive projections averaged into one (at their mean angle).", 1, 1, 64);
    public static final ConfigKey<ValueUnit.Kind> OUTPUT_UNIT = ConfigKey.choice(WF, "output.unit",
            "Unit of the reconstructed values, the same whatever the binning: pixel (1/px, linear attenuation per original "
                    + "detector pixel) or metre (1/m, needs phase.pixelSize). Recorded in report.json and in each slice's "
                    + "TIFF ImageDescription (vunit).", "pixel", ValueUnit.Kind::parse, "pixel, metre");

    public static final ConfigKey<Algorithm> ALGORITHM = ConfigKey.choice(IT, "algorithm",
            "Reconstruction method. fbp: filtered back-projection. gridrec: the same filtered back-projection done in "
                    + "Fourier space by regridding (Kaiser-Bessel kernel, two slices per complex FFT), on CPUs only (backend "
                    + "java; auto means java for it), several times faster there, within 0.3 dB of fbp (docs/gridrec.md). "
                    + "auto: gridrec where the run's slices are computed on CPUs from at least 24 projections of at least 64 "
                    + "columns, fbp elsewhere, decided "
                    + "once by the driver and said in report.json (algorithmChoice). "
                    + "sirt: SIRT on the -log sinograms (non-negative). os-sart: "
                    + "SIRT's update by ordered subsets of the projections (iterative.subsets, iterative.relaxation; "
                    + "non-negative). cgls: conjugate gradients on the least-squares normal equations (unconstrained). mltr: "
                    + "maximum likelihood for transmission data on the counts (needs flats; iterative.subsets ordered subsets; "
                    + "not with phase.*, halfAcquisition or bin.*). tv: least squares with an isotropic total-variation penalty "
                    + "(iterative.tvWeight), non-negative, by the Chambolle-Pock primal-dual method. The iterative methods use a "
                    + "matched Joseph projector pair (java, or the cuda or opencl backend's device), reconstruct the whole "
                    + "slice grid and cut out slice.roi; the ramp filter keys do not apply to them (docs/iterative.md).",
            "fbp", Algorithm::parse, Algorithm.choices());
    public static final ConfigKey<Integer> ITERATIONS = ConfigKey.integer(IT, "iterative.iterations",
            "Iterations of the iterative methods (each a forward and a back-projection of every projection). 0: automatic, "
                    + "until iterative.stop says the image is done (at most " + IterativeParams.AUTOMATIC_LIMIT + "). Given "
                    + "alone, exactly this many; with iterative.stop or iterative.tolerance, at most this many.", 0, 0, 100000);
    public static final ConfigKey<Integer> SUBSETS = ConfigKey.integer(IT, "iterative.subsets",
            "Ordered subsets of os-sart and mltr (interleaved projections visited in bit-reversed order, each subset at least "
                    + "4 projections). 0: automatic: for os-sart about the square root of the projections (8 of 60, 19 of "
                    + "360), from 1024 projections on at most 8 or one per 128 projections (16 of 2048); 1 for mltr.", 0, 0,
            100000);
    public static final ConfigKey<String> STOP = ConfigKey.of(IT, "iterative.stop",
            "When the iterations stop. iterations: after iterative.iterations. residual: once |Ax - p| / |p| is at most "
                    + "iterative.tolerance. change: once the residual (tv: the image) changes by at most iterative.tolerance "
                    + "(default 0.001) of itself in one iteration. discrepancy: once |Ax - p|^2 falls to the noise the flats' "
                    + "counts predict (Poisson, sum of 1/counts over the rays; needs flats, not with phase.*, halfAcquisition or "
                    + "bin.*). auto: residual when iterative.tolerance is set, iterations when iterative.iterations is, else "
                    + "change for tv and discrepancy for the others where the flats allow it, change otherwise. The report "
                    + "says why each pass stopped.", "auto", s -> s.trim().toLowerCase(Locale.ROOT),
            s -> s.matches("auto|iterations|residual|change|discrepancy"), "auto, iterations, residual, change, discrepancy");
    public static final ConfigKey<Double> TOLERANCE = ConfigKey.decimal(IT, "iterative.tolerance",
            "The threshold of iterative.stop: the relative residual (residual) or the relative change per iteration "
                    + "(change). Empty: 0.001 for change. Set alone, it stops on the residual.", "", 0, 0.999999);
    public static final ConfigKey<Double> RELAXATION = ConfigKey.decimal(IT, "iterative.relaxation",
            "Relaxation of os-sart's update, in (0, 2): 1 is SART's own; lower is slower and smoother on noisy data.", "1",
            0.01, 1.99);
    public static final ConfigKey<Double> TV_WEIGHT = ConfigKey.decimal(IT, "iterative.tvWeight",
            "Weight of the total-variation penalty of tv. Empty: scaled to each slice's data (docs/iterative.md says how). "
                    + "Larger is smoother; iterative.tvWeightScaled=true reads it as a factor of that scale.", "", 0, 1e6);
    public static final ConfigKey<Boolean> TV_WEIGHT_SCALED = ConfigKey.bool(IT, "iterative.tvWeightScaled",
            "Read iterative.tvWeight as a factor of the data-scaled default weight (1 = the default) rather than as the weight "
                    + "itself.", false);
    public static final ConfigKey<String> START = ConfigKey.of(IT, "iterative.start",
            "The iterations' start image. zero, or fbp: the ramp-filtered back-projection (filter.* keys), scaled to fit "
                    + "the data and clipped at 0 for the non-negative methods; it costs one forward and one back-projection "
                    + "and saves the first iterations.", "zero", s -> s.trim().toLowerCase(Locale.ROOT), s -> s.matches("zero|fbp"),
            "zero, fbp");

    public static final ConfigKey<double[]> TV_WEIGHT_SWEEP = ConfigKey.of(IT, "iterative.tvWeightSweep",
            "F1,F2,...: instead of the volume, reconstruct up to three slices of the row range (its quarter, middle and "
                    + "three-quarter rows) by tv at each weight F times the data-scaled default (1 = the default), write "
                    + "tv_rRRRRR_xFFFF.FFF.tif per slice and weight and tv-weight-sweep.png (a grid: slices by weights) into "
                    + "the output; empty for a normal run.", "", s -> s.isBlank() ? null : SweepRanges.tvFactors(s), v -> true,
            "empty or comma-separated numbers > 0");

    public static final ConfigKey<String> GEOMETRY = ConfigKey.of(CONE, "geometry",
            "Beam geometry. parallel: a parallel beam, one slice per detector row. cone: a point source and a flat detector, "
                    + "reconstructed by FDK into a volume (cone.* keys, docs/cone-beam.md). auto: cone when the input has a "
                    + "/geometry group or a cone.* key is set, else parallel.", "auto",
            s -> s.trim().toLowerCase(Locale.ROOT), s -> s.matches("auto|parallel|cone"), "auto, parallel, cone");
    public static final ConfigKey<Double> CONE_DSO = ConfigKey.decimal(CONE, "cone.dso",
            "Source-to-rotation-axis distance in mm. Empty: the input's /geometry/dso_mm.", "", 1e-6, 1e9);
    public static final ConfigKey<Double> CONE_DSD = ConfigKey.decimal(CONE, "cone.dsd",
            "Source-to-detector distance in mm. Empty: /geometry/dsd_mm.", "", 1e-6, 1e9);
    public static final ConfigKey<Double> CONE_DU = ConfigKey.decimal(CONE, "cone.du",
            "Detector pixel width (along u, the columns) in mm. Empty: /geometry/du_mm.", "", 1e-9, 1e6);
    public static final ConfigKey<Double> CONE_DV = ConfigKey.decimal(CONE, "cone.dv",
            "Detector pixel height (along v, the rows) in mm. Empty: /geometry/dv_mm.", "", 1e-9, 1e6);
    public static final ConfigKey<Double> CONE_CU = ConfigKey.decimal(CONE, "cone.cu",
            "Detector column the central ray (source through the rotation axis) lands on, in pixels (column j's centre is at "
                    + "j). Empty: /geometry/cu_px.", "", -1e6, 1e6);
    public static final ConfigKey<Double> CONE_CV = ConfigKey.decimal(CONE, "cone.cv",
            "Detector row the central ray lands on, in pixels. Empty: /geometry/cv_px.", "", -1e6, 1e6);
    public static final ConfigKey<Integer> CONE_SIZE = ConfigKey.integer(CONE, "cone.volume.size",
            "Voxels of the volume along x and y; 0: the widest the field of view holds. A volume wider than the field of "
                    + "view is refused, saying how much of it would be truncated.", 0, 0, 1 << 16);
    public static final ConfigKey<Integer> CONE_SLICES = ConfigKey.integer(CONE, "cone.volume.slices",
            "Voxels of the volume along z (the output slices slice_k); 0: the detector's height at the axis. The keys "
                    + "slices and group.rows count these slices in a cone-beam run.", 0, 0, 1 << 16);
    public static final ConfigKey<Double> CONE_VOXEL = ConfigKey.decimal(CONE, "cone.volume.voxel",
            "Voxel edge in mm. Empty: the detector pixel at the rotation axis, cone.du x cone.dso / cone.dsd.", "", 1e-9, 1e6);
    public static final ConfigKey<Boolean> CONE_PREFILTERED = ConfigKey.bool(CONE, "cone.prefiltered",
            "The projections are already weighted and filtered (as RabbitCT supplies them): no flat/dark correction, -log, "
                    + "weighting or filtering; they are back-projected as they are.", false);

    /** The cone-beam keys that complete or override the input's /geometry scalars. */
    static final List<ConfigKey<Double>> CONE_SCALARS = List.of(CONE_DSO, CONE_DSD, CONE_DU, CONE_DV, CONE_CU, CONE_CV);

    /**
     * The cone-beam settings, or null for a parallel-beam run. geometry=cone, or any cone.* key, asks for a cone-beam
     * run; geometry=auto without them leaves it to the input (a /geometry group).
     */
    static ConeParams cone(Settings s) {
        String kind = s.get(GEOMETRY);
        List<ConfigKey<?>> coneKeys = new ArrayList<>(CONE_SCALARS);
        coneKeys.addAll(List.of(CONE_SIZE, CONE_SLICES, CONE_VOXEL, CONE_PREFILTERED));
        String set = null;
        for (ConfigKey<?> k : coneKeys) if (set == null && s.isSet(k)) set = k.name();
        if (kind.equals("parallel")) {
            if (set != null)
                throw new IllegalArgumentException("config key " + set + " is set but geometry=parallel; set geometry=cone "
                        + "(--geometry cone)");
            return null;
        }
        Map<String, Double> given = new TreeMap<>();
        for (ConfigKey<Double> k : CONE_SCALARS) given.put(k.name(), s.get(k));
        return ConeParams.of(kind.equals("cone") || set != null, given, s.get(CONE_SIZE), s.get(CONE_SLICES), s.get(CONE_VOXEL),
                s.get(CONE_PREFILTERED));
    }

    static double[] parseSweep(String s) {
        String[] p = s.split(":");
        if (p.length != 3) throw new IllegalArgumentException("expected START:END:STEP");
        double[] v = {ConfigKey.number(p[0]), ConfigKey.number(p[1]), ConfigKey.number(p[2])};
        SweepRanges.centers(v[0], v[1], v[2]); // validates
        return v;
    }

    /** The workflow options from settings (center=auto sets the centre method). */
    public static WorkflowParams workflow(Settings s) {
        StripeParams stripe = new StripeParams(s.get(STRIPE), s.get(STRIPE_SIZE), s.get(STRIPE_SIGMA), s.get(STRIPE_LEVEL),
                s.get(STRIPE_SNR), s.get(STRIPE_LARGE_SIZE));
        WorkflowParams w = WorkflowParams.NONE
                .withStripe(stripe)
                .withHalfAcquisition(s.get(HALF_ACQUISITION))
                .withBinning(s.get(BIN_COLUMNS), s.get(BIN_ROWS), s.get(BIN_PROJECTIONS))
                .withCenterSearchRadius(s.get(CENTER_SEARCH_RADIUS));
        if (s.get(CENTER) == AUTO_CENTER) w = w.withCenterMethod(s.get(CENTER_METHOD));
        PaganinParams pg = paganin(s);
        if (pg != null) w = w.withPaganin(pg);
        return w.withUnit(unit(s, pg != null));
    }

    /**
     * Paganin phase retrieval from its four keys, or null when none is set. When some are set but not all, the error
     * names the missing ones (phase.pixelSize alone is no request for phase retrieval: output.unit=metre uses it too).
     */
    static PaganinParams paganin(Settings s) {
        List<ConfigKey<Double>> keys = List.of(PHASE_ENERGY, PHASE_DISTANCE, PHASE_PIXEL, PHASE_DB);
        List<String> set = new ArrayList<>(), missing = new ArrayList<>();
        for (ConfigKey<Double> k : keys) (Double.isNaN(s.get(k)) ? missing : set).add(k.name());
        if (missing.isEmpty())
            return new PaganinParams(s.get(PHASE_ENERGY), s.get(PHASE_DISTANCE), s.get(PHASE_PIXEL), s.get(PHASE_DB));
        if (set.isEmpty() || set.equals(List.of(PHASE_PIXEL.name()))) return null;
        throw new IllegalArgumentException("Paganin phase retrieval: " + listing(set) + (set.size() == 1 ? " is" : " are")
                + " set but " + listing(missing) + (missing.size() == 1 ? " is" : " are")
                + " missing (options --phase-energy, --phase-distance, --pixel-size, --delta-beta; all four are needed)");
    }

    /** "a", "a and b", "a, b and c". */
    static String listing(List<String> items) {
        int n = items.size();
        return n == 1 ? items.get(0) : String.join(", ", items.subList(0, n - 1)) + " and " + items.get(n - 1);
    }

    /** The output unit; metre divides by phase.pixelSize, which must then be set (and is otherwise only Paganin's). */
    static ValueUnit unit(Settings s, boolean paganin) {
        double px = s.get(PHASE_PIXEL);
        ValueUnit.Kind kind = s.get(OUTPUT_UNIT);
        if (kind == ValueUnit.Kind.METRE) {
            if (Double.isNaN(px))
                throw new IllegalArgumentException("config key output.unit=metre needs the pixel size: set phase.pixelSize (--pixel-size)");
            return ValueUnit.perMetre(px);
        }
        if (!Double.isNaN(px) && !paganin)
            throw new IllegalArgumentException("config key phase.pixelSize is set but unused: it serves Paganin phase retrieval "
                    + "(with phase.energy, phase.distance, phase.deltaOverBeta) and output.unit=metre");
        return new ValueUnit(kind, px);
    }

    /** LOW,HIGH of output.percentiles. */
    static double[] parsePercentiles(String s) {
        String[] p = s.split(",");
        if (p.length != 2) throw new IllegalArgumentException("expected LOW,HIGH");
        return new double[]{ConfigKey.number(p[0].trim()), ConfigKey.number(p[1].trim())};
    }

    /** MIN,MAX of output.range. */
    static double[] parseValueRange(String s) {
        String[] p = s.split(",");
        if (p.length != 2) throw new IllegalArgumentException("expected MIN,MAX");
        double lo = ConfigKey.number(p[0].trim()), hi = ConfigKey.number(p[1].trim());
        if (!(Double.isFinite(lo) && Double.isFinite(hi) && lo < hi))
            throw new IllegalArgumentException("expected MIN,MAX with MIN < MAX, got '" + s + "'");
        return new double[]{lo, hi};
    }

    /** The output's sample coding from output.type and output.range. */
    static SampleCoding coding(Settings s) {
        OutputType t = s.get(OUTPUT_TYPE);
        double[] r = s.get(OUTPUT_RANGE);
        return switch (t) {
            case FLOAT32 -> SampleCoding.FLOAT32;
            case FLOAT16 -> SampleCoding.FLOAT16;
            case UINT16 -> {
                if (r == null)
                    throw new IllegalArgumentException("config key output.type=uint16 needs config key "
                            + "output.range=MIN,MAX (the values stored as counts 0 and 65535) or output.range=auto");
                double[] pct = s.get(OUTPUT_PERCENTILES);
                yield r.length == 0 ? SampleCoding.fromPercentiles(pct[0], pct[1]) : SampleCoding.uint16(r[0], r[1]);
            }
        };
    }

    static int[] parseInts(String s, int n) {
        String[] p = s.split(",");
        if (p.length != n) throw new IllegalArgumentException("expected " + n + " comma-separated integers");
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = Integer.parseInt(p[i].trim());
        return r;
    }

    /** START:END (END exclusive; END may be empty for "to the last row"). */
    public static int[] parseRange(String s) {
        String[] p = s.split(":", -1);
        if (p.length != 2) throw new IllegalArgumentException("expected START:END");
        int a = Integer.parseInt(p[0].trim());
        int b = p[1].isBlank() ? -1 : Integer.parseInt(p[1].trim());
        if (a < 0 || (b != -1 && b <= a)) throw new IllegalArgumentException("need 0 <= START < END");
        return new int[]{a, b};
    }

    /** The reconstruction method from its keys (every backend has its projector pair). */
    static IterativeParams iterative(Settings s) {
        String stop = s.get(STOP);
        double weight = s.get(TV_WEIGHT);
        TvWeight tv = Double.isNaN(weight) ? null : new TvWeight(weight, s.get(TV_WEIGHT_SCALED));
        return new IterativeParams(s.get(ALGORITHM), s.get(ITERATIONS), s.get(SUBSETS), s.get(TOLERANCE),
                stop.equals("auto") ? null : StopRule.Rule.parse(stop), s.get(RELAXATION), tv, s.get(START).equals("fbp"));
    }

    /** Builds the algorithm parameters from settings. */
    public static ReconstructionParams params(Settings s) {
        Map<String, String> extra = new TreeMap<>();
        for (ConfigKey<?> k : Backends.keys()) {
            if (!s.isSet(k)) continue;
            s.get(k); // a bad value fails here, naming its key
            extra.put(k.name(), s.asMap().get(k.name()));
        }
        BackendOptions bo = new BackendOptions(s.get(INTERPOLATION), s.get(SLICES_PER_PASS), s.get(FORMAT), s.get(THREADS),
                s.get(DEVICE), s.get(VARIANT), extra);
        ReconstructionParams.Builder b = ReconstructionParams.builder()
                .backend(s.get(BACKEND))
                .backendOptions(bo)
                .filter(new FilterSpec(s.get(FILTER), s.get(FILTER_CUTOFF), s.get(FILTER_PADDING)))
                .center(s.get(CENTER) == AUTO_CENTER ? Double.NaN : s.get(CENTER))
                .workflow(workflow(s))
                .sliceSize(s.get(SLICE_SIZE))
                .sliceGrid(s.get(SLICE_GRID))
                .outputCoding(coding(s))
                .outputFormat(s.get(OUTPUT_FORMAT))
                .zarrCompression(s.get(ZARR_COMPRESSION))
                .groupRows(s.get(GROUP_ROWS))
                .denominatorFloor((float) (double) s.get(DEN_FLOOR))
                .transmissionFloor((float) (double) s.get(TR_FLOOR))
                .maxRepairFraction(s.get(MAX_REPAIR))
                .iterative(iterative(s))
                .cone(cone(s));
        double a0 = s.get(ANGLES_START), da = s.get(ANGLES_STEP);
        if (!Double.isNaN(a0) || !Double.isNaN(da)) {
            if (Double.isNaN(a0) || Double.isNaN(da))
                throw new IllegalArgumentException("config keys angles.start and angles.step must be given together");
            b.angles(a0, da);
        }
        int[] roi = s.get(SLICE_ROI);
        if (roi != null) b.roi(roi[0], roi[1], roi[2], roi[3]);
        int[] rows = s.get(SLICES);
        if (rows != null) b.rows(rows[0], rows[1]);
        int g = s.get(GROUP_ROWS);
        if (g > 0 && bo.slicesPerPass() > 0 && g % bo.slicesPerPass() != 0)
            throw new IllegalArgumentException("config key group.rows (" + g + ") must be a multiple of backend.slicesPerPass ("
                    + bo.slicesPerPass() + ")");
        return b.build();
    }

    static {
        // the installed backends' own keys are registered with the algorithm's, so that settings naming them are
        // accepted (last: the backends' providers are loaded once every key above is declared)
        Backends.keys();
    }
}
