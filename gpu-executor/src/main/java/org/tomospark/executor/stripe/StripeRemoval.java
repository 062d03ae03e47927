package org.tomospark.executor.stripe;

import java.util.Locale;

/**
 * Stripe (ring-artefact) removal on −log sinograms, applied per sinogram before the ramp filter. The methods and
 * when to use which: docs/stripes.md.
 * <ul>
 *   <li>{@code sorting}, {@code offset}: {@link SortingFilter};</li>
 *   <li>{@code fw}: {@link FourierWaveletFilter} (Münch et al. 2009);</li>
 *   <li>{@code all}: {@link AllStripeFilter} (Vo et al. 2018, dead columns, large stripes, then sorting).</li>
 * </ul>
 */
public final class StripeRemoval {
    private StripeRemoval() {
    }

    public enum Method {
        NONE("none"), SORTING("sorting"), OFFSET("offset"), FW("fw"), ALL("all");

        private final String id;

        Method(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Method parse(String s) {
            String v = s.trim().toLowerCase(Locale.ROOT);
            for (Method m : values()) if (m.id.equals(v)) return m;
            throw new IllegalArgumentException("unknown stripe removal method '" + s + "': expected " + choices());
        }

        /** "none, sorting, offset, fw, all". */
        public static String choices() {
            StringBuilder sb = new StringBuilder();
            for (Method m : values()) sb.append(sb.length() == 0 ? "" : ", ").append(m.id);
            return sb.toString();
        }
    }

    /** Applies {@code p.method()} in place to one sinogram ({@code nproj × width}, row-major). */
    public static void apply(StripeParams p, float[] sino, int nproj, int width) {
        switch (p.method()) {
            case NONE -> { }
            case SORTING -> SortingFilter.sorting(sino, nproj, width, p.size());
            case OFFSET -> SortingFilter.offset(sino, nproj, width, p.size());
            case FW -> FourierWaveletFilter.apply(sino, nproj, width, p.level(), p.sigma());
            case ALL -> AllStripeFilter.apply(sino, nproj, width, p.snr(), p.largeSize(), p.size());
        }
    }
}
