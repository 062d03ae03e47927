package org.tomospark.executor.stripe;

import org.tomospark.executor.util.EnumIds;

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
            return EnumIds.parse(values(), Method::id, s, "stripe removal method");
        }

        /** "none, sorting, offset, fw, all". */
        public static String choices() {
            return EnumIds.choices(values(), Method::id);
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
