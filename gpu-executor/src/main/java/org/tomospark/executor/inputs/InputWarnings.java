package org.tomospark.executor.inputs;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Plausibility checks of a scan that do not stop a run but are likely to spoil it: missing dark fields, angles that
 * look like radians, and angles that repeat or go back and forth. Each engine puts these into report.json and prints
 * them; an error would be wrong for each of them (darks are optional, interlaced scans are not monotonic).
 */
public final class InputWarnings {
    /** Scans of fewer angles than this are too small to judge the angular range by. */
    static final int MIN_ANGLES_FOR_RANGE_CHECK = 10;

    private InputWarnings() {
    }

    public static List<String> of(ProjectionSource src) {
        ScanMetadata meta = src.metadata();
        List<String> w = new ArrayList<>();
        if (meta.numFlats() == 0 && meta.numDarks() == 0)
            w.add(src.flatName() + ", " + src.darkName() + ": the scan has no flat or dark fields; the data are taken as "
                    + "already normalised transmission (flat = 1, dark = 0)");
        else if (meta.numDarks() == 0)
            w.add(src.darkName() + ": the scan has no dark fields; the dark current is taken as 0");
        double[] deg = meta.anglesDeg();
        if (deg != null) w.addAll(angles(deg, src.anglesName()));
        return w;
    }

    /** Warnings about angles in degrees; {@code name} names where they came from. */
    public static List<String> angles(double[] deg, String name) {
        List<String> w = new ArrayList<>();
        int n = deg.length;
        double min = Arrays.stream(deg).min().orElse(0), max = Arrays.stream(deg).max().orElse(0);
        double span = max - min;
        if (n >= MIN_ANGLES_FOR_RANGE_CHECK && span > 0 && span <= 2 * Math.PI * 1.02)
            w.add(String.format(Locale.ROOT, "%s: the angles span only %s..%s degrees over %d projections; they look like "
                    + "radians, but angles must be in degrees (a 180-degree scan spans about 0..180)", name, num(min), num(max), n));
        double[] sorted = deg.clone();
        Arrays.sort(sorted);
        int duplicates = 0;
        double firstDuplicate = Double.NaN;
        for (int i = 1; i < n; i++) {
            if (sorted[i] == sorted[i - 1]) {
                if (duplicates == 0) firstDuplicate = sorted[i];
                duplicates++;
            }
        }
        if (duplicates > 0)
            w.add(String.format(Locale.ROOT, "%s: %d %s an earlier one (first %s degrees); repeated projections weigh "
                    + "those directions twice", name, duplicates, duplicates == 1 ? "angle repeats" : "angles repeat",
                    num(firstDuplicate)));
        int turn = firstTurn(deg);
        if (turn > 0)
            w.add(String.format(Locale.ROOT, "%s: the angles are not monotonic (projection %d at %s degrees follows %s); "
                    + "fine for an interlaced scan, otherwise check the angles", name, turn, num(deg[turn]), num(deg[turn - 1])));
        return w;
    }

    /** An angle with six significant digits and no trailing zeros. */
    static String num(double v) {
        return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    /** The first index where the angles change direction, or -1 when they only rise or only fall. */
    static int firstTurn(double[] deg) {
        int direction = 0;
        for (int i = 1; i < deg.length; i++) {
            int d = Double.compare(deg[i], deg[i - 1]);
            if (d == 0) continue;
            if (direction == 0) direction = d;
            else if (d != direction) return i;
        }
        return -1;
    }
}
