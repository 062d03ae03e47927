package org.tomospark.executor.inputs;

import org.tomospark.executor.preprocess.RawStack;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The arrays that bands are read into, handed back by their consumers ({@link RawStack#release}) and read into again.
 * A band of 64 rows of 2048 projections of 2048 uint16 columns is 512 MiB: a fresh array is zeroed by the reading
 * thread before the parallel read fills it, and that zeroing (with the first touch of the memory) took as long as the
 * read itself. The readers fill every sample of a band, so a reused array needs no clearing.
 *
 * <p>Node-wide, like the read slots of {@link ParallelReads}: a JVM's readers (the direct engine's, an executor's
 * tasks') share it. It keeps at most {@link #KEEP} arrays and an eighth of the heap; beyond that a returned array is
 * left to the collector, and the least recently returned are dropped first.
 */
public final class BandArrays {
    static final int KEEP = 4;
    private static final long KEEP_BYTES = Runtime.getRuntime().maxMemory() / 8;
    private static final ArrayDeque<Object> FREE = new ArrayDeque<>();
    private static long freeBytes;

    private BandArrays() {
    }

    /** A uint16 band of {@code frames × rows × width}, in a kept array of that size or a new one. */
    static RawStack uint16(int frames, int rows, int width, int samples) {
        short[] a = take(short[].class, samples);
        return RawStack.ofUint16(frames, rows, width, a != null ? a : new short[samples]).recycledBy(BandArrays::give);
    }

    /** A float32 band of {@code frames × rows × width}, in a kept array of that size or a new one. */
    static RawStack float32(int frames, int rows, int width, int samples) {
        float[] a = take(float[].class, samples);
        return RawStack.ofFloat(frames, rows, width, a != null ? a : new float[samples]).recycledBy(BandArrays::give);
    }

    private static synchronized <T> T take(Class<T> type, int length) {
        for (Iterator<Object> it = FREE.iterator(); it.hasNext(); ) {
            Object a = it.next();
            if (type.isInstance(a) && length(a) == length) {
                it.remove();
                freeBytes -= bytes(a);
                return type.cast(a);
            }
        }
        return null;
    }

    /** Takes back a released band's array. */
    static void give(RawStack band) {
        Object a = band.isUint16() ? band.uint16Data() : band.floatData();
        long b = bytes(a);
        if (b > KEEP_BYTES) return;
        synchronized (BandArrays.class) {
            FREE.addFirst(a);
            freeBytes += b;
            while (FREE.size() > KEEP || freeBytes > KEEP_BYTES) freeBytes -= bytes(FREE.removeLast());
        }
    }

    /** Arrays kept, and their bytes. */
    static synchronized long[] kept() {
        return new long[]{FREE.size(), freeBytes};
    }

    /** Drops every kept array (tests). */
    static synchronized void clear() {
        FREE.clear();
        freeBytes = 0;
    }

    private static int length(Object a) {
        return a instanceof short[] s ? s.length : ((float[]) a).length;
    }

    private static long bytes(Object a) {
        return a instanceof short[] s ? 2L * s.length : 4L * ((float[]) a).length;
    }
}
