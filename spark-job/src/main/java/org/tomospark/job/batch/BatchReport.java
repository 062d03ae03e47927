package org.tomospark.job.batch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.tomospark.job.fs.UserPaths;
import org.tomospark.job.ExitCode;
import org.tomospark.job.outputs.OutputOwnership;
import org.tomospark.job.run.Version;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of a batch: each scan's status, slices, centre, GU/s, time and error, the batch's warnings and its exit
 * status ({@link ExitCode#OK} when every scan is reconstructed, resumed, redone or skipped;
 * {@link ExitCode#SCANS_FAILED} when one failed or was left outdated). Written as {@code batch-report.json} and printed
 * as a table.
 */
public record BatchReport(String outputRoot, String started, double seconds, List<ScanOutcome> scans,
                          List<String> warnings) {
    public static final String NAME = "batch-report.json";

    public BatchReport {
        scans = List.copyOf(scans);
        warnings = List.copyOf(warnings);
    }

    /**
     * Refuses a batch whose output root holds a {@code batch-report.json} that a batch did not write (another file, a
     * link, a folder), which the batch's own report would replace; reads only.
     */
    public static void checkReplaceable(String root, Configuration conf) {
        OutputOwnership.checkReplaceable(new Path(UserPaths.path(root, "batch.outputRoot"), NAME), conf,
                m -> m.get("software") instanceof String sw && sw.startsWith("tomospark ") && m.get("scans") instanceof List<?>,
                "a batch report of tomospark's", "choose another output root");
    }

    public ExitCode exitCode() {
        return scans.stream().allMatch(s -> s.status().ok()) ? ExitCode.OK : ExitCode.SCANS_FAILED;
    }

    public Map<ScanStatus, Integer> counts() {
        Map<ScanStatus, Integer> m = new EnumMap<>(ScanStatus.class);
        for (ScanStatus s : ScanStatus.values()) m.put(s, 0);
        for (ScanOutcome o : scans) m.merge(o.status(), 1, Integer::sum);
        return m;
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("software", "tomospark " + Version.get());
        m.put("outputRoot", outputRoot);
        m.put("started", started);
        m.put("seconds", seconds);
        Map<String, Object> counts = new LinkedHashMap<>();
        counts().forEach((k, v) -> counts.put(k.id(), v));
        m.put("counts", counts);
        m.put("exitCode", exitCode().code());
        m.put("exitMeaning", exitCode().meaning());
        List<Object> l = new ArrayList<>();
        for (ScanOutcome o : scans) l.add(o.toMap());
        m.put("scans", l);
        m.put("warnings", warnings);
        return m;
    }

    /** The table printed at the end of a batch: one line per scan, then the counts. */
    public String table() {
        int nameWidth = 4;
        for (ScanOutcome o : scans) nameWidth = Math.max(nameWidth, o.scan().name().length());
        String fmt = "%-" + nameWidth + "s  %-13s  %7s  %9s  %7s  %8s  %s%n";
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, fmt, "scan", "status", "slices", "centre",
                "GU/s", "time", "error / note"));
        for (ScanOutcome o : scans) {
            String note = o.error() != null ? o.error() : o.reason() != null ? o.reason() : "";
            b.append(String.format(Locale.ROOT, fmt, o.scan().name(), o.status().id(),
                    o.computed() == o.slices() ? Integer.toString(o.slices()) : o.computed() + "/" + o.slices(),
                    Double.isFinite(o.center()) ? String.format(Locale.ROOT, "%.2f", o.center()) : "-",
                    Double.isFinite(o.gups()) ? String.format(Locale.ROOT, "%.2f", o.gups()) : "-",
                    String.format(Locale.ROOT, "%.1f s", o.seconds()), note));
        }
        StringBuilder c = new StringBuilder();
        counts().forEach((k, v) -> {
            if (v > 0) c.append(c.isEmpty() ? "" : ", ").append(v).append(' ').append(k.id());
        });
        b.append(String.format(Locale.ROOT, "%d scans in %.1f s: %s; exit status %d (%s)%n", scans.size(), seconds, c,
                exitCode().code(), exitCode().meaning()));
        for (String w : warnings) b.append("warning: ").append(w).append('\n');
        return b.toString();
    }
}
