package org.tomospark.executor.config;

import org.tomospark.executor.backend.BackendOptions;
import org.tomospark.executor.backend.Interpolation;
import org.tomospark.executor.backend.SampleFormat;
import org.tomospark.executor.filter.FilterSpec;
import org.tomospark.executor.filter.FilterWindow;
import org.tomospark.executor.filter.Padding;
import org.tomospark.executor.pipeline.ReconstructionParams;

import java.util.Map;

/** The algorithm's configuration keys, and their translation into {@link ReconstructionParams}. */
public final class CoreKeys {
    private CoreKeys() {
    }

    private static final String GEO = "Geometry";
    private static final String FIL = "Filter";
    private static final String PRE = "Preprocessing";
    private static final String BP = "Back-projection";

    public static final ConfigKey<Double> CENTER = ConfigKey.decimal(GEO, "center",
            "Centre of rotation in detector pixels (column j's centre is at j). Empty: the detector centre (width-1)/2.",
            "", 0, 1e6);
    public static final ConfigKey<Double> ANGLES_START = ConfigKey.decimal(GEO, "angles.start",
            "First projection angle in degrees. Empty: read /exchange/theta from the input.", "", -1e6, 1e6);
    public static final ConfigKey<Double> ANGLES_STEP = ConfigKey.decimal(GEO, "angles.step",
            "Angle step in degrees, with angles.start.", "", -360, 360);
    public static final ConfigKey<Integer> SLICE_SIZE = ConfigKey.integer(GEO, "slice.size",
            "Edge of the square output slice in pixels; 0 means the detector width.", 0, 0, 1 << 16);
    public static final ConfigKey<int[]> SLICE_ROI = ConfigKey.of(GEO, "slice.roi",
            "Region of interest COL,ROW,COLS,ROWS within the slice; empty for the whole slice. Only the ROI is computed.",
            "", s -> s.isBlank() ? null : parseInts(s, 4), v -> true, "empty or four integers COL,ROW,COLS,ROWS");
    public static final ConfigKey<int[]> SLICES = ConfigKey.of(GEO, "slices",
            "Detector rows (slices) to reconstruct, START:END with END exclusive; empty for all.",
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
            "Back-projection backend: auto (GPU if one is assigned, else java), java, cuda, opencl.", "auto",
            s -> s.trim().toLowerCase(java.util.Locale.ROOT), s -> s.matches("auto|java|cuda|opencl"), "auto, java, cuda, opencl");
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
            "Kernel variant, or auto (java: auto, vector, scalar).", "auto");
    public static final ConfigKey<Integer> GROUP_ROWS = ConfigKey.integer(BP, "group.rows",
            "Detector rows per slice group (one Spark task); a multiple of backend.slicesPerPass; 0 lets the planner choose.",
            0, 0, 1 << 16);

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

    /** Builds the algorithm parameters from settings. */
    public static ReconstructionParams params(Settings s) {
        BackendOptions bo = new BackendOptions(s.get(INTERPOLATION), s.get(SLICES_PER_PASS), s.get(FORMAT), s.get(THREADS),
                s.get(DEVICE), s.get(VARIANT), Map.of());
        ReconstructionParams.Builder b = ReconstructionParams.builder()
                .backend(s.get(BACKEND))
                .backendOptions(bo)
                .filter(new FilterSpec(s.get(FILTER), s.get(FILTER_CUTOFF), s.get(FILTER_PADDING)))
                .center(s.get(CENTER))
                .sliceSize(s.get(SLICE_SIZE))
                .groupRows(s.get(GROUP_ROWS))
                .denominatorFloor((float) (double) s.get(DEN_FLOOR))
                .transmissionFloor((float) (double) s.get(TR_FLOOR))
                .maxRepairFraction(s.get(MAX_REPAIR));
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
            throw new IllegalArgumentException("config key group.rows (" + g + ") must be a multiple of backend.slicesPerPass (" + bo.slicesPerPass() + ")");
        return b.build();
    }
}
