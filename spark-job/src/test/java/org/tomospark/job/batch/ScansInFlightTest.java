package org.tomospark.job.batch;

import org.junit.jupiter.api.Test;
import org.tomospark.job.ExitCode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver plans a scan only when one of its {@code batch.scansInFlight} threads is free: over 10,000 inputs, no
 * more than that many scans are ever in hand at once, and the outcomes come back in the inputs' order.
 */
class ScansInFlightTest {
    @Test
    void tenThousandInputsNeverMoreThanTheBoundInFlight() {
        List<ScanInput> scans = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) scans.add(ScanInput.of("/archive/scan_" + i + ".h5", "scan_" + i + ".h5"));
        AtomicInteger inHand = new AtomicInteger(), most = new AtomicInteger(), started = new AtomicInteger();
        List<ScanOutcome> out = Reprocess.runAll(scans, 3, scan -> {
            int now = inHand.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            started.incrementAndGet();
            Thread.onSpinWait();
            inHand.decrementAndGet();
            return new ScanOutcome(scan, "/rec/" + scan.name(), ScanStatus.SKIPPED, null, 1, 0, Double.NaN, Double.NaN,
                    0, null, ExitCode.OK.code());
        });
        assertEquals(10_000, started.get());
        assertTrue(most.get() >= 1 && most.get() <= 3, "scans in hand at once: " + most.get());
        assertEquals(10_000, out.size());
        for (int i = 0; i < out.size(); i++) assertEquals("scan_" + i, out.get(i).scan().name());
    }
}
