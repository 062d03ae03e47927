package org.tomospark.executor.inputs;

import java.io.Serializable;

/**
 * How a {@link ProjectionSource} reads a band.
 *
 * @param threads       positioned reads or chunk decodings in flight at once for one band (0 = one per available
 *                      processor); a Spark task passes its {@code spark.task.cpus}, so that concurrent tasks do not
 *                      oversubscribe the executor's cores
 * @param hyperslabOnly read every band as a general hyperslab ({@link HyperslabBandReader}: jhdf's reader, or for
 *                      chunked storage chunk by chunk honouring each chunk's filter mask), one thread, instead of the
 *                      direct path (slower; the reference the direct path is checked against)
 */
public record ReadOptions(int threads, boolean hyperslabOnly) implements Serializable {

    public ReadOptions {
        if (threads < 0) throw new IllegalArgumentException("read threads must be >= 0 (0 = all available processors), got " + threads);
    }

    /** Direct reads on every available processor. */
    public static ReadOptions defaults() {
        return new ReadOptions(0, false);
    }

    /**
     * Sizes the node's read slots, shared by every band read of this JVM, to {@code cores} (an executor's cores, where the
     * machine has more): a band read takes as many of them as other reads leave free.
     */
    public static void nodeCores(int cores) {
        ParallelReads.nodeCores(cores);
    }

    /** Direct reads on {@code threads} threads (0 = all available processors). */
    public static ReadOptions threads(int threads) {
        return new ReadOptions(threads, false);
    }

    /** General hyperslab reads only, one thread. */
    public static ReadOptions hyperslab() {
        return new ReadOptions(1, true);
    }

    public int effectiveThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }
}
