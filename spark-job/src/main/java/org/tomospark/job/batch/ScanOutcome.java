package org.tomospark.job.batch;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One scan's line of the batch report.
 *
 * @param scan     the scan and its output folder's name
 * @param output   the output folder
 * @param status   what was done
 * @param reason   why a scan was redone or left outdated; null otherwise
 * @param slices   slices of the output (0 when it failed before planning)
 * @param computed slices computed by this batch
 * @param center   the centre used, raw detector pixels; NaN when unknown
 * @param gups     voxel updates per nanosecond of the scan's job; NaN when nothing was computed
 * @param seconds  wall time of the scan in this batch
 * @param error    the error of a failed scan, its exit status, or null
 * @param exitCode what {@code tomospark reconstruct} would have exited with for this scan
 */
public record ScanOutcome(ScanInput scan, String output, ScanStatus status, String reason, int slices, int computed,
                          double center, double gups, double seconds, String error, int exitCode) {
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", scan.name());
        m.put("input", scan.uri());
        m.put("output", output);
        m.put("status", status.id());
        if (reason != null) m.put("reason", reason);
        m.put("slices", slices);
        m.put("computed", computed);
        m.put("center", Double.isFinite(center) ? center : null);
        m.put("gups", Double.isFinite(gups) ? gups : null);
        m.put("seconds", seconds);
        if (error != null) m.put("error", error);
        m.put("exitCode", exitCode);
        return m;
    }
}
