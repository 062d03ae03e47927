package org.tomospark.job.spark;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A GPU's busy time is the union of its groups' intervals: overlapping tasks on one GPU count once. */
class DeviceBusyTest {

    private static GroupOutcome on(String executor, String device, String backend, long from, long to) {
        return new GroupOutcome(0, 0, 1, List.of(), 0, 0, 0, 0, 0, 0, null, backend, device, "v", executor, 0, List.of(), null,
                "w", from, to, 0, 0, 0, from, to, 0);
    }

    @Test
    void overlappingGroupsOnOneGpuCountOnce() {
        assertEquals(70, DeviceBusy.union(List.of(new long[]{0, 40}, new long[]{30, 60}, new long[]{90, 100})));
        assertEquals(0, DeviceBusy.union(List.of()));
        assertEquals(10, DeviceBusy.union(List.of(new long[]{5, 15}, new long[]{5, 15})));
    }

    @Test
    void theFractionIsAveragedOverTheGpus() {
        // GPU a: two tasks overlapping, busy 0..80 of a span of 100; GPU b: busy 20..60; a java task does not count
        List<GroupOutcome> o = List.of(on("1", "0", "cuda", 0, 50), on("1", "0", "cuda", 30, 80), on("2", "0", "cuda", 20, 60),
                on("3", "cpu", "java", 0, 100));
        assertEquals((0.8 + 0.4) / 2, DeviceBusy.fraction(o, 0, 100), 1e-12);
        assertEquals(-1, DeviceBusy.fraction(List.of(on("3", "cpu", "java", 0, 100)), 0, 100));
        assertEquals(-1, DeviceBusy.fraction(o, 100, 100));
    }
}
