package org.tomospark.executor.filter;

import org.tomospark.executor.util.EnumIds;

import java.util.Map;

/**
 * Apodisation windows applied to the ramp filter, as functions of {@code u = f / f_cut} in [0, 1]
 * where {@code f_cut = cutoff · 0.5} cycles per pixel. With cutoff 1 the shepp-logan, cosine, hamming
 * and hann windows equal scikit-image's {@code iradon} filters.
 */
public enum FilterWindow {
    RAMLAK("ramlak"),
    SHEPP_LOGAN("shepp-logan"),
    COSINE("cosine"),
    HAMMING("hamming"),
    HANN("hann"),
    PARZEN("parzen");

    private final String id;

    FilterWindow(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Window value at normalised frequency {@code u ≥ 0}; zero above 1. */
    public double weight(double u) {
        if (u > 1.0) return 0.0;
        switch (this) {
            case RAMLAK:
                return 1.0;
            case SHEPP_LOGAN: {
                double a = Math.PI * u / 2;
                return a == 0 ? 1.0 : Math.sin(a) / a;
            }
            case COSINE:
                return Math.cos(Math.PI * u / 2);
            case HAMMING:
                return 0.54 + 0.46 * Math.cos(Math.PI * u);
            case HANN:
                return 0.5 + 0.5 * Math.cos(Math.PI * u);
            case PARZEN:
                return u <= 0.5 ? 1 - 6 * u * u * (1 - u) : 2 * Math.pow(1 - u, 3);
            default:
                throw new AssertionError(this);
        }
    }

    /** The other names users give the windows. */
    private static final Map<String, String> ALIASES = Map.of("ram-lak", "ramlak", "ramp", "ramlak", "hanning", "hann",
            "shepplogan", "shepp-logan");

    public static FilterWindow parse(String s) {
        return EnumIds.parse(values(), FilterWindow::id, s.replace('_', '-'), "filter", ALIASES);
    }
}
