package org.tomospark.job.spark;

import org.tomospark.executor.backend.Backends;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPUs' busy fraction of a run: for each GPU (an executor's device), the time some group was on it (the union of
 * its groups' intervals from their processor's start to its end: several tasks share a GPU, and their overlap counts
 * once), over the tasks' span, averaged over the GPUs that ran groups.
 */
final class DeviceBusy {
    private DeviceBusy() {
    }

    /** The fraction in [0, 1], or −1 where no GPU ran a group or the span is empty. */
    static double fraction(List<GroupOutcome> outcomes, long spanStartMillis, long spanEndMillis) {
        if (spanEndMillis <= spanStartMillis) return -1;
        Map<String, List<long[]>> byDevice = new LinkedHashMap<>();
        for (GroupOutcome o : outcomes) {
            if (Backends.runsOnHostCpus(o.backend()) || o.offDeviceMillis() <= o.onDeviceMillis()) continue;
            byDevice.computeIfAbsent(o.executor() + "/" + o.device(), d -> new ArrayList<>())
                    .add(new long[]{o.onDeviceMillis(), o.offDeviceMillis()});
        }
        if (byDevice.isEmpty()) return -1;
        double sum = 0;
        for (List<long[]> intervals : byDevice.values()) sum += union(intervals) / (double) (spanEndMillis - spanStartMillis);
        return Math.min(1, sum / byDevice.size());
    }

    /** Milliseconds covered by at least one of the intervals. */
    static long union(List<long[]> intervals) {
        List<long[]> sorted = new ArrayList<>(intervals);
        sorted.sort(Comparator.comparingLong(a -> a[0]));
        long covered = 0, from = Long.MIN_VALUE, to = Long.MIN_VALUE;
        for (long[] iv : sorted) {
            if (iv[0] > to) {
                if (to > from) covered += to - from;
                from = iv[0];
                to = iv[1];
            } else {
                to = Math.max(to, iv[1]);
            }
        }
        if (to > from) covered += to - from;
        return covered;
    }
}
