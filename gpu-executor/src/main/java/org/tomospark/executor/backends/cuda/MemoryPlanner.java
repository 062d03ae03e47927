package org.tomospark.executor.backends.cuda;

/**
 * Sizes the double-buffered pipeline from the device's free memory (cuMemGetInfo). Pure arithmetic, so it is
 * tested without a GPU.
 *
 * <p>Per in-flight chunk of C slices the device holds the raw (or filtered) sinograms, C·np·width floats, and the
 * output planes, C'·rows·cols floats (C' = C rounded up to the kernel's slices per pass); both are doubled for the
 * double buffering. One compound sinogram (np · pitch bins of K slices) is shared by the groups of a chunk, plus
 * the projection table and the filter's twiddles.
 */
public final class MemoryPlanner {
    /** Memory left to the driver, other users and fragmentation. */
    public static final long RESERVE_BYTES = 256L << 20;

    private MemoryPlanner() {
    }

    /**
     * @param chunkSlices     slices per pipeline chunk
     * @param deviceBytes     device memory the backend allocates
     * @param pinnedHostBytes page-locked host memory the backend allocates
     */
    public record Plan(int chunkSlices, int kernelSlices, int pitch, long deviceBytes, long pinnedHostBytes) {
    }

    /** Row pitch in bins: width rounded up so that each row starts 512-byte aligned (texture pitch alignment). */
    public static int pitch(int width, int binBytes) {
        int align = Math.max(1, 512 / binBytes);
        return (width + align - 1) / align * align;
    }

    public static long deviceBytes(int chunk, int width, int np, int rows, int cols, int kernelK, int bytesPerSliceBin,
                                   int filterLength) {
        return deviceBytes(chunk, width, np, rows, cols, kernelK, bytesPerSliceBin, filterLength, 0, 1);
    }

    /**
     * @param entryBytes    bytes of one cache entry when the variant also keeps an entries array (:xe, :async), else 0
     * @param maxGroups     groups of the chunk back-projected by one launch, each with its own compound sinogram and
     *                      entries array (1 for one launch per group)
     */
    public static long deviceBytes(int chunk, int width, int np, int rows, int cols, int kernelK, int bytesPerSliceBin,
                                   int filterLength, int entryBytes, int maxGroups) {
        long in = (long) chunk * np * width * 4;
        long padded = (long) (chunk + kernelK - 1) / kernelK * kernelK;
        long out = padded * rows * cols * 4;
        int binBytes = kernelK * bytesPerSliceBin;
        long packed = (long) np * pitch(width, binBytes) * binBytes;
        long tables = (long) np * 24 + (filterLength > 0 ? (long) filterLength * 8 + (filterLength / 2 + 1) * 4L : 0);
        long entries = entryBytes > 0 ? (long) np * pitch(width + 1, entryBytes) * entryBytes : 0;
        long copies = Math.max(1, Math.min((chunk + kernelK - 1) / kernelK, maxGroups));
        return 2 * in + 2 * out + copies * (packed + entries) + tables;
    }

    public static long pinnedBytes(int chunk, int width, int np, int rows, int cols) {
        return 2L * chunk * np * width * 4 + 2L * chunk * rows * cols * 4;
    }

    /**
     * @param freeBytes        free device memory
     * @param maxSlices        the job's largest batch
     * @param preferredChunk   slices per chunk wanted (rounded to the kernel's slices per pass)
     * @param fraction         share of (free − reserve) the backend may take, (0, 1]
     * @param filterLength     FFT length of the device filter, 0 if filtering on the host
     */
    public static Plan plan(long freeBytes, int width, int np, int rows, int cols, int kernelK, int bytesPerSliceBin,
                            int maxSlices, int preferredChunk, double fraction, int filterLength) {
        return plan(freeBytes, width, np, rows, cols, kernelK, bytesPerSliceBin, maxSlices, preferredChunk, fraction, filterLength, 0, 1);
    }

    /**
     * As above; {@code entryBytes} > 0 accounts for an entries array (:xe, :async variants), {@code maxGroups} for one
     * compound sinogram (and entries array) per group of a launch, up to that many (variants that batch groups).
     */
    public static Plan plan(long freeBytes, int width, int np, int rows, int cols, int kernelK, int bytesPerSliceBin,
                            int maxSlices, int preferredChunk, double fraction, int filterLength, int entryBytes,
                            int maxGroups) {
        if (!(fraction > 0 && fraction <= 1)) throw new IllegalArgumentException("memory fraction must be in (0, 1], got " + fraction);
        long budget = (long) ((freeBytes - RESERVE_BYTES) * fraction);
        int want = Math.max(1, Math.min(maxSlices, preferredChunk));
        int c = (want + kernelK - 1) / kernelK * kernelK;
        c = Math.min(c, (maxSlices + kernelK - 1) / kernelK * kernelK);
        // pinned host buffers are addressed as one ByteBuffer each: keep a chunk under 2 GiB
        while (c > 1 && ((long) c * np * width * 4 >= Integer.MAX_VALUE || (long) c * rows * cols * 4 >= Integer.MAX_VALUE))
            c = c > kernelK ? c - kernelK : c / 2;
        while (c > 1 && deviceBytes(c, width, np, rows, cols, kernelK, bytesPerSliceBin, filterLength, entryBytes, maxGroups) > budget)
            c = c > kernelK ? c - kernelK : c / 2;
        long need = deviceBytes(c, width, np, rows, cols, kernelK, bytesPerSliceBin, filterLength, entryBytes, maxGroups);
        if (need > budget)
            throw new IllegalStateException(String.format(
                    "cuda: not enough device memory: one slice of %d projections x %d columns into %dx%d pixels needs %.1f MiB, "
                            + "but only %.1f MiB of %.1f MiB free may be used", np, width, cols, rows, need / 1048576.0,
                    Math.max(0, budget) / 1048576.0, freeBytes / 1048576.0));
        int binBytes = kernelK * bytesPerSliceBin;
        return new Plan(c, kernelK, pitch(width, binBytes), need, pinnedBytes(c, width, np, rows, cols));
    }
}
