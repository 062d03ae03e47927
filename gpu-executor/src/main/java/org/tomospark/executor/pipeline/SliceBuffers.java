package org.tomospark.executor.pipeline;

import java.util.ArrayDeque;
import java.util.stream.IntStream;

/**
 * Slice arrays of one size, handed back once their slices are written and handed out again for the next group. A
 * 2048² slice is 16 MiB; allocating a fresh, zeroed one for every slice made the heap's humongous allocations and
 * collections a stage of their own. At most {@code capacity} arrays wait here; more are left to the collector.
 * Backends overwrite every pixel of their output arrays, so a reused array needs no clearing.
 */
public final class SliceBuffers {
    private final int pixels;
    private final int capacity;
    private final ArrayDeque<float[]> free = new ArrayDeque<>();

    public SliceBuffers(int pixels, int capacity) {
        if (pixels < 1 || capacity < 0) throw new IllegalArgumentException("slice buffers: " + pixels + " pixels, capacity " + capacity);
        this.pixels = pixels;
        this.capacity = capacity;
    }

    /** An array of the slice size: one handed back earlier, or a new one. */
    public synchronized float[] take() {
        float[] a = free.poll();
        return a != null ? a : new float[pixels];
    }

    /** Hands an array back once nothing reads it any more; arrays of another size, or beyond the capacity, are dropped. */
    public synchronized void give(float[] a) {
        if (a != null && a.length == pixels && free.size() < capacity) free.push(a);
    }

    /**
     * Allocates {@code count} arrays (at most the capacity) on a background thread, in parallel on the common pool, and
     * keeps them for {@link #take}: a run's first groups then find their slices' memory zeroed and mapped, instead of
     * each zeroing 16 MiB arrays on the thread that drives the GPU (a group of 64 such slices is a gigabyte). Meant for
     * the time a run spends before its first group (the flats, the checks, the GPU's set-up).
     */
    public void prefillInBackground(int count) {
        int n = Math.min(count, capacity);
        if (n < 1) return;
        Thread t = new Thread(() -> IntStream.range(0, n).parallel().forEach(i -> give(new float[pixels])),
                "tomospark-slice-buffers");
        t.setDaemon(true);
        t.start();
    }

    /** Arrays waiting to be taken. */
    public synchronized int free() {
        return free.size();
    }

    public int pixels() {
        return pixels;
    }
}
