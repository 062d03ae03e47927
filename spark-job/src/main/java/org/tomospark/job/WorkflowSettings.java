package org.tomospark.job;

import org.tomospark.executor.config.ConfigKey;
import org.tomospark.executor.params.CoreKeys;
import org.tomospark.executor.config.Settings;

import java.util.Locale;

/**
 * The scientist's-workflow options as config keys: one mapping from the user's words ({@code --center
 * auto}, {@code --bin 2,2}, {@code .paganin(…)}, …) onto the keys of conf/CONFIG.md, shared by the command line
 * ({@code ReconstructCommand}) and the notebook API ({@code Reconstruction.Builder}). The keys then become
 * {@code ReconstructionParams} through {@link CoreKeys#params}, whichever engine runs. Every setter checks its
 * value at once, with an error naming the key.
 */
public final class WorkflowSettings {
    private WorkflowSettings() {
    }

    static {
        JobKeys.INPUT.name(); // registers the keys
    }

    /** Sets {@code key} to {@code value} (unchanged for null) and parses it, so a bad value fails here, naming the key. */
    public static Settings set(Settings s, ConfigKey<?> key, String value) {
        if (value == null) return s;
        Settings t = s.with(key.name(), value);
        t.get(key); // "config key K: invalid value ..."
        return t;
    }

    /** {@code --center PIXELS|auto}. */
    public static Settings center(Settings s, String pixelsOrAuto) {
        return set(s, CoreKeys.CENTER, pixelsOrAuto);
    }

    /** {@code --center-method vo|correlation}: the method used when the centre is auto. */
    public static Settings centerMethod(Settings s, String method) {
        return set(s, CoreKeys.CENTER_METHOD, method);
    }

    /** {@code --center auto --center-method METHOD}. */
    public static Settings centerAuto(Settings s, String method) {
        return centerMethod(center(s, "auto"), method);
    }

    /** {@code --center-sweep START:END:STEP}. */
    public static Settings centerSweep(Settings s, String startEndStep) {
        return set(s, CoreKeys.CENTER_SWEEP, startEndStep);
    }

    public static Settings centerSweep(Settings s, double start, double end, double step) {
        return centerSweep(s, num(start) + ":" + num(end) + ":" + num(step));
    }

    /** {@code --stripe METHOD}; {@code size} (odd median window) may be null for the default. */
    public static Settings stripe(Settings s, String method, Integer size) {
        s = set(s, CoreKeys.STRIPE, method);
        return size == null ? s : set(s, CoreKeys.STRIPE_SIZE, Integer.toString(size));
    }

    /**
     * {@code --phase-energy/--phase-distance/--pixel-size/--delta-beta} (any may be null; {@link CoreKeys#params} checks
     * they come together).
     */
    public static Settings paganin(Settings s, String energyKeV, String distanceM, String pixelSizeM, String deltaOverBeta) {
        s = set(s, CoreKeys.PHASE_ENERGY, energyKeV);
        s = set(s, CoreKeys.PHASE_DISTANCE, distanceM);
        s = set(s, CoreKeys.PHASE_PIXEL, pixelSizeM);
        return set(s, CoreKeys.PHASE_DB, deltaOverBeta);
    }

    public static Settings paganin(Settings s, double energyKeV, double distanceM, double pixelSizeM, double deltaOverBeta) {
        return paganin(s, num(energyKeV), num(distanceM), num(pixelSizeM), num(deltaOverBeta));
    }

    /** {@code --half-acquisition}. */
    public static Settings halfAcquisition(Settings s, boolean on) {
        return set(s, CoreKeys.HALF_ACQUISITION, Boolean.toString(on));
    }

    /** {@code --bin COLS[,ROWS[,PROJ]]}: omitted factors stay as they are. */
    public static Settings binning(Settings s, String spec) {
        if (spec == null) return s;
        String[] b = spec.split(",");
        if (b.length > 3 || spec.isBlank())
            throw new IllegalArgumentException("--bin expects COLS[,ROWS[,PROJ]] (config keys bin.columns, bin.rows, bin.projections), "
                    + "got '" + spec + "'");
        s = set(s, CoreKeys.BIN_COLUMNS, b[0].trim());
        if (b.length > 1) s = set(s, CoreKeys.BIN_ROWS, b[1].trim());
        if (b.length > 2) s = set(s, CoreKeys.BIN_PROJECTIONS, b[2].trim());
        return s;
    }

    public static Settings binning(Settings s, int columns, int rows, int projections) {
        return binning(s, columns + "," + rows + "," + projections);
    }

    /** {@code --roi COL,ROW,COLS,ROWS}. */
    public static Settings roi(Settings s, String spec) {
        return set(s, CoreKeys.SLICE_ROI, spec);
    }

    public static Settings roi(Settings s, int col, int row, int cols, int rows) {
        return roi(s, col + "," + row + "," + cols + "," + rows);
    }

    /**
     * A number as a config value: no exponent for ordinary values, exact (shortest round-trip) otherwise; NaN and the
     * infinities as Java writes them, so that the key they are given to refuses them, naming itself.
     */
    public static String num(double v) {
        if (!Double.isFinite(v)) return Double.toString(v);
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%.0f", v) : Double.toString(v);
    }
}
