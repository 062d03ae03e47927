package org.tomospark.executor.stripe;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every stripe method on one simulated 512-column scan with defects of known kind and size, as slice PSNR against
 * the phantom (the table of docs/stripes.md, printed in its form), and the advice of that page checked against it.
 */
class StripeMethodsComparisonTest {
    static final String[] SCANS = {"clean", "weak", "strong", "nonlinear", "dead", "band"};

    /**
     * PSNR [method row][scan] for one noise setting, over the first {@code nScans} of {@link #SCANS}; rows: the methods
     * at their defaults, then fw at TomoPy's defaults.
     */
    static Map<String, double[]> table(boolean noise, int nScans) {
        StripeScans sc = new StripeScans(512, 512, noise);
        float[][] scans = {
                sc.clean,
                sc.withGains(sc.clean, sc.gains(0.05, 0.02, 0.05, 1)),       // weak: 2-5 % on 5 % of the columns
                sc.withGains(sc.clean, sc.gains(0.05, 0.05, 0.15, 2)),       // strong: 5-15 % on 5 % of the columns
                sc.withScaledColumns(sc.clean, sc.gains(0.05, 0.05, 0.15, 3)), // response error that grows with attenuation
                sc.withDeadColumns(sc.clean, 150, 151, 260, 300, 301, 302),  // unresponsive pixels
                sc.withBand(sc.clean, 200, 12, 0.9)};                        // a 12-column band, 10 % low
        Map<String, StripeParams> rows = new LinkedHashMap<>();
        for (StripeRemoval.Method m : StripeRemoval.Method.values()) rows.put(m.id(), StripeParams.NONE.with(m));
        rows.put("fw, TomoPy's defaults (level 9, sigma 2)", StripeParams.NONE.with(StripeRemoval.Method.FW).withFourierWavelet(2, 9));
        Map<String, double[]> t = new LinkedHashMap<>();
        rows.forEach((name, p) -> {
            double[] v = new double[nScans];
            for (int i = 0; i < nScans; i++) v[i] = sc.slicePsnr(StripeScans.filtered(p, scans[i], sc.nproj, sc.width));
            t.put(name, v);
        });
        return t;
    }

    static String markdown(Map<String, double[]> t) {
        int n = t.values().iterator().next().length;
        StringBuilder sb = new StringBuilder("| method |");
        for (int i = 0; i < n; i++) sb.append(' ').append(SCANS[i]).append(" |");
        sb.append("\n|---|").append("---:|".repeat(n)).append('\n');
        t.forEach((name, v) -> {
            sb.append("| ").append(name).append(" |");
            for (double x : v) sb.append(String.format(Locale.ROOT, " %.2f |", x));
            sb.append('\n');
        });
        return sb.toString();
    }

    @Test
    void everyMethodOnEveryKindOfStripe() {
        Map<String, double[]> noisy = table(true, SCANS.length), exact = table(false, 1);
        System.out.println("Photon noise (20000 counts open beam):\n" + markdown(noisy));
        System.out.println("Noise-free:\n" + markdown(exact));
        {
            Map<String, double[]> t = noisy;
            double[] none = t.get("none"), sorting = t.get("sorting"), offset = t.get("offset"), fw = t.get("fw"), all = t.get("all");
            // offset: gain errors are removed to within 0.3 dB of the stripe-free scan, and a clean scan loses nothing
            assertTrue(offset[0] > none[0] - 0.1, "offset on a clean scan");
            assertTrue(offset[1] > none[0] - 0.3 && offset[2] > none[0] - 0.3, "offset on gain stripes");
            // sorting costs on a clean scan, and is the one for response errors that grow with attenuation besides offset
            assertTrue(sorting[0] < none[0] - 0.5, "sorting costs on a clean scan: " + sorting[0] + " vs " + none[0]);
            assertTrue(sorting[3] > none[3] + 2, "sorting on non-linear columns");
            // fw at its defaults removes strong stripes at a cost; at TomoPy's defaults it takes the phantom apart
            assertTrue(fw[2] > none[2] + 5, "fw on strong stripes");
            assertTrue(fw[0] < none[0] - 0.5, "fw costs on a clean scan");
            assertTrue(t.get("fw, TomoPy's defaults (level 9, sigma 2)")[0] < none[0] - 10, "fw at level 9");
            // all: the one method that repairs dead columns
            assertTrue(all[4] > none[4] + 2 && all[4] > Math.max(Math.max(sorting[4], offset[4]), fw[4]), "all on dead columns");
        }
        // the cost of sorting on a clean scan: about 1 dB with photon noise, about 2.5 dB without; offset costs nothing
        assertTrue(exact.get("offset")[0] > exact.get("none")[0] - 0.1);
        assertEquals(2.4, exact.get("none")[0] - exact.get("sorting")[0], 0.5);
        assertEquals(0.9, noisy.get("none")[0] - noisy.get("sorting")[0], 0.4);
    }
}
