package org.tomospark.notebook;

import org.tomospark.executor.config.Settings;
import org.tomospark.job.inputs.InputOptions;

import java.util.List;
import java.util.Locale;

/**
 * How the notebook API's values print. A REPL echoes a paragraph's values, and Zeppelin's Scala interpreter at most 800
 * characters of them in all, so each prints a summary of two lines that ends by naming the calls that give the rest: a
 * paragraph that defines a builder, a sweep and a result still shows its last line. The full run report stays one call
 * away.
 */
final class Printed {
    private Printed() {
    }

    static String result(Reconstruction.Result r) {
        Report rep = r.report();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Result: %d slices computed, %d reused, in %s (%s)%n ", r.slicesComputed(),
                r.slicesSkipped(), r.output(), text(rep, "outputFormat")));
        sb.append(' ').append(text(rep, "algorithm")).append(", ").append(text(rep, "backend.id"));
        if (rep.at("centerOfRotation") instanceof Number c) sb.append(String.format(Locale.ROOT, ", centre %.2f px", c.doubleValue()));
        if (rep.at("timings.gups") instanceof Number g) sb.append(String.format(Locale.ROOT, ", %.3g GU/s", g.doubleValue()));
        if (rep.at("timings.wallSeconds") instanceof Number w) sb.append(String.format(Locale.ROOT, ", %.1f s", w.doubleValue()));
        if (rep.at("warnings") instanceof List<?> w && !w.isEmpty())
            sb.append(", ").append(w.size()).append(w.size() == 1 ? " warning" : " warnings");
        return sb.append(" (.summary, .report)").toString();
    }

    static String sweep(Reconstruction.Sweep s) {
        List<Double> c = s.centers();
        return String.format(Locale.ROOT, "Sweep: row %d, %d centres %s px, into %s: %s (.images, .centers)", s.row(), c.size(),
                range(c), s.output(), s.contactSheet() == null ? "no contact sheet (see .report)" : s.contactSheet());
    }

    static String tvSweep(Reconstruction.TvSweep s) {
        return String.format(Locale.ROOT, "TvSweep: rows %s, weight factors %s (weights %s), into %s%n  %s (.images, .weights, "
                + ".report)", s.rows(), range(s.factors()), range(s.weights()), s.output(), sheet(s.grid(), s.images()));
    }

    static String report(Report r) {
        return "Report of " + text(r, "output") + ": " + String.join(", ", r.keySet()) + System.lineSeparator()
                + "  (.section(\"timings\"), .number(\"timings.gups\"), .text(\"backend.id\"))";
    }

    static String builder(Settings settings, InputOptions inputOptions) {
        String set = settings.toString().substring("Settings".length());
        return "Reconstruction.Builder" + set + (inputOptions == null ? "" : ", input options for " + inputOptions.format());
    }

    /** The images, first .. last, and the picture of them all (null: not made). */
    private static String sheet(String picture, List<String> images) {
        String first = images.isEmpty() ? "" : images.get(0), last = images.isEmpty() ? "" : images.get(images.size() - 1);
        String imgs = images.size() <= 1 ? first : first + " .. " + last;
        return imgs + ", " + (picture == null ? "no picture (see the report's warnings)" : picture);
    }

    private static String range(List<Double> v) {
        if (v.isEmpty()) return "(none)";
        double lo = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double hi = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return lo == hi ? num(lo) : num(lo) + " .. " + num(hi);
    }

    private static String num(double d) {
        return String.format(Locale.ROOT, "%.4g", d).replaceAll("(\\.\\d*?)0+$", "$1").replaceAll("\\.$", "");
    }

    private static String text(Report rep, String path) {
        Object v = rep.at(path);
        return v == null ? "?" : v.toString();
    }
}
