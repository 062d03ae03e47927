package org.tomospark.executor.backends.cuda;

import jcuda.Pointer;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;

/**
 * Page-locked host buffers of one device's context, kept when a processor closes for the next processor that asks
 * for the same size, instead of unpinned and pinned again: pinning runs at about 0.5 GB/s on the GPU machines, so a
 * processor's pipeline buffers take a second to set up. A reprocessing run's scans of one shape, each a job with
 * processors of its own, then set up in milliseconds after the first. At most {@link #DEFAULT_KEEP_BYTES} are kept
 * free; beyond that a returned buffer is unpinned.
 */
final class PinnedPool {
    /** Free pinned bytes kept per device: two processors' pipelines for 2048-pixel slices with 8-slice chunks. */
    static final long DEFAULT_KEEP_BYTES = 2L << 30;

    /** Pins and unpins host memory (the CUDA driver; a fake in tests). */
    interface Allocator {
        Pointer pin(long bytes);

        void unpin(Pointer p);
    }

    static final Allocator CUDA = new Allocator() {
        @Override
        public Pointer pin(long bytes) {
            Pointer p = new Pointer();
            cuMemAllocHost(p, bytes);
            return p;
        }

        @Override
        public void unpin(Pointer p) {
            cuMemFreeHost(p);
        }
    };

    private final Allocator allocator;
    private final long keepBytes;
    private final Map<Long, ArrayDeque<Pointer>> free = new HashMap<>();
    private long freeBytes;
    private long pinned, reused;

    PinnedPool(Allocator allocator, long keepBytes) {
        this.allocator = allocator;
        this.keepBytes = keepBytes;
    }

    /** A pinned buffer of exactly {@code bytes}: a kept one of that size, or a new one. */
    synchronized Pointer take(long bytes) {
        ArrayDeque<Pointer> q = free.get(bytes);
        if (q != null && !q.isEmpty()) {
            freeBytes -= bytes;
            reused++;
            return q.pop();
        }
        pinned++;
        return allocator.pin(bytes);
    }

    /** Takes back a buffer of {@code bytes} that no stream uses any more: kept while the pool has room, else unpinned. */
    synchronized void give(Pointer p, long bytes) {
        if (freeBytes + bytes > keepBytes) {
            allocator.unpin(p);
            return;
        }
        free.computeIfAbsent(bytes, b -> new ArrayDeque<>()).push(p);
        freeBytes += bytes;
    }

    /** Unpins every kept buffer (the executor is shutting down). */
    synchronized void release() {
        for (ArrayDeque<Pointer> q : free.values()) while (!q.isEmpty()) allocator.unpin(q.pop());
        free.clear();
        freeBytes = 0;
    }

    synchronized long freeBytes() {
        return freeBytes;
    }

    /** Buffers pinned anew, and buffers handed out again, since the pool began. */
    synchronized long[] counts() {
        return new long[]{pinned, reused};
    }
}
