package org.tomospark.job.batch;

import org.tomospark.executor.conveyor.VolumeReconstructor;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One progress bar over a whole batch: scans finished of all, and the slices of the scans in flight, with the GU/s of
 * the batch so far. Scans report through {@link #of}. On a terminal the line is redrawn at most once a second; in a
 * log (no terminal) a line is printed only when a scan ends.
 */
final class BatchProgress {
    private record Running(int done, int total, long updates) {
    }

    private final PrintStream out;
    private final boolean tty = System.console() != null;
    private final int scans;
    private final long t0 = System.nanoTime();
    private final Map<String, Running> running = new TreeMap<>();
    private int finished;
    private long finishedUpdates;
    private long lastPrint;

    BatchProgress(PrintStream out, int scans) {
        this.out = out;
        this.scans = scans;
    }

    /** The progress callback of one scan. */
    VolumeReconstructor.Progress of(String scan) {
        return (done, total, updates, ns) -> update(scan, new Running(done, total, updates));
    }

    private synchronized void update(String scan, Running r) {
        running.put(scan, r);
        print(false);
    }

    synchronized void finished(String scan) {
        Running r = running.remove(scan);
        if (r != null) finishedUpdates += r.updates();
        finished++;
        print(true);
    }

    private void print(boolean scanEnded) {
        long now = System.nanoTime();
        if (!scanEnded && (!tty || now - lastPrint < 1_000_000_000L)) return;
        lastPrint = now;
        int width = 30, filled = scans == 0 ? width : width * finished / scans;
        long updates = finishedUpdates;
        StringBuilder inFlight = new StringBuilder();
        for (Map.Entry<String, Running> e : running.entrySet()) {
            updates += e.getValue().updates();
            inFlight.append(inFlight.isEmpty() ? "" : ", ").append(e.getKey()).append(' ')
                    .append(e.getValue().done()).append('/').append(e.getValue().total());
        }
        String running = inFlight.isEmpty() ? "" : "  (" + inFlight + " slices)";
        String line = String.format(Locale.ROOT, "[%s%s] %d/%d scans  %.2f GU/s%s", "#".repeat(filled),
                ".".repeat(width - filled), finished, scans, updates / (double) Math.max(1, now - t0), running);
        if (tty) out.print("\r" + line + (finished == scans ? "\n" : ""));
        else out.println(line);
        out.flush();
    }
}
