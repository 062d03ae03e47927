package org.tomospark.job.local;

import java.io.PrintStream;

/** A text progress bar: slices done/total, GU/s and ETA; one line per 10 % when not on a terminal. */
public final class ProgressBar {
    private final PrintStream out;
    private final boolean tty;
    private int lastDecile = -1;

    public ProgressBar(PrintStream out) {
        this.out = out;
        this.tty = System.console() != null;
    }

    public void update(int done, int total, long updates, long elapsedNanos) {
        double gups = elapsedNanos == 0 ? 0 : updates / (double) elapsedNanos;
        double eta = done == 0 ? Double.NaN : elapsedNanos / 1e9 * (total - done) / done;
        int width = 30;
        int filled = total == 0 ? width : (int) ((long) width * done / total);
        String line = String.format("[%s%s] %d/%d slices  %.2f GU/s  ETA %s", "#".repeat(filled), ".".repeat(width - filled),
                done, total, gups, Double.isNaN(eta) ? "?" : String.format("%.0fs", eta));
        if (tty) {
            out.print("\r" + line);
            if (done == total) out.println();
        } else {
            int decile = total == 0 ? 10 : 10 * done / total;
            if (decile != lastDecile) {
                out.println(line);
                lastDecile = decile;
            }
        }
        out.flush();
    }
}
