package org.tomospark.executor.pipeline;

import org.tomospark.executor.params.ReconstructionParams;
import org.tomospark.executor.geometry.SliceGeometry;
import org.tomospark.executor.outputs.OutputType;
import org.tomospark.executor.outputs.TiffEncoder;
import org.tomospark.executor.memory.SliceFrame;
import org.tomospark.executor.memory.SliceFrames;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

/**
 * Slice frames of one size, handed back once their slices are written and handed out again for the next group. A
 * 2048² slice is 16 MiB; allocating a fresh, zeroed one for every slice made the heap's humongous allocations and
 * collections a stage of their own. Heap frames: at most {@code capacity} arrays wait here, more are left to the
 * collector. Direct frames ({@link #direct}, for a backend that copies its results straight into them) come from and go
 * back to the JVM's {@link SliceFrames}; where those are capped out, heap frames stand in. Backends overwrite every pixel
 * of their output frames, so a reused frame needs no clearing.
 */
public final class SliceBuffers {
    private final int pixels;
    private final int capacity;
    private final int room;
    private final boolean direct;
    /** Whether the run's backend fills direct frames: asked only by {@link #prefillInBackground}, off the caller's thread. */
    private final BooleanSupplier filledDirect;
    private final ArrayDeque<float[]> free = new ArrayDeque<>();

    /** Heap frames. */
    public SliceBuffers(int pixels, int capacity) {
        this(pixels, capacity, 0, false, () -> false);
    }

    private SliceBuffers(int pixels, int capacity, int room, boolean direct, BooleanSupplier filledDirect) {
        if (pixels < 1 || capacity < 0 || room < 0)
            throw new IllegalArgumentException("slice buffers: " + pixels + " pixels, capacity " + capacity + ", room " + room);
        this.pixels = pixels;
        this.capacity = capacity;
        this.room = room;
        this.direct = direct;
        this.filledDirect = filledDirect;
    }

    /**
     * Direct frames with {@code room} bytes before the pixels (a file header's; see {@link #frameRoom}) where the JVM's
     * frames allow, heap frames (at most {@code capacity} kept) otherwise.
     */
    public static SliceBuffers direct(int pixels, int capacity, int room) {
        return direct(pixels, capacity, room, () -> true);
    }

    /**
     * As above, where the backend that will fill the frames is not known yet: {@code filledDirect} says whether it fills
     * direct frames (a backend that does not gets heap frames, so {@link #prefillInBackground} then allocates those).
     */
    public static SliceBuffers direct(int pixels, int capacity, int room, BooleanSupplier filledDirect) {
        return new SliceBuffers(pixels, capacity, room, true, filledDirect);
    }

    /**
     * The room a direct frame keeps before its pixels for this run's slice files: a float32 TIFF's header (the file is
     * then written from the frame as it is); none for raw float32 chunks (Zarr, HDF5), nor for other sample types, which
     * are encoded into a writer's buffer anyway.
     */
    public static int frameRoom(ReconstructionParams p, SliceGeometry g) {
        if (p.output().coding().type() != OutputType.FLOAT32) return 0;
        return switch (p.output().format()) {
            case TIFF -> TiffEncoder.pixelOffset(g.roiCols(), g.roiRows(), p.sliceDescription(), p.output().coding());
            case ZARR, HDF5 -> 0;
        };
    }

    /** A frame of the slice size: direct when these buffers are (and one is to be had), else a heap frame. */
    public SliceFrame take() {
        if (direct) {
            SliceFrame f = SliceFrames.jvm().take(pixels, room);
            if (f != null) return f;
        }
        return takeHeap();
    }

    /** A heap frame of the slice size (for the paths that compute into Java arrays). */
    public SliceFrame takeHeap() {
        float[] a;
        synchronized (this) {
            a = free.poll();
        }
        return SliceFrame.wrap(a != null ? a : new float[pixels]);
    }

    /** Hands a frame back once nothing reads it any more; frames of another size, or beyond the capacity, are dropped. */
    public void give(SliceFrame f) {
        if (f == null || f.pixels() != pixels) return;
        if (f.isDirect()) {
            SliceFrames.jvm().give(f);
            return;
        }
        synchronized (this) {
            if (free.size() < capacity) free.push(f.array());
        }
    }

    /** As {@link #give(SliceFrame)} for a heap array. */
    public void give(float[] a) {
        if (a != null) give(SliceFrame.wrap(a));
    }

    /**
     * Allocates {@code count} frames (heap: at most the capacity) on a background thread, in parallel on the common pool,
     * and keeps them for {@link #take}: a run's first groups then find their slices' memory zeroed and mapped, instead of
     * each zeroing 16 MiB on the thread that drives the GPU (a group of 64 such slices is a gigabyte). Meant for the time
     * a run spends before its first group (the flats, the checks, the GPU's set-up).
     */
    public void prefillInBackground(int count) {
        if (count < 1) return;
        Thread t = new Thread(() -> {
            boolean d = direct && filledDirect.getAsBoolean();
            int n = d ? count : Math.min(count, capacity);
            List<SliceFrame> frames = IntStream.range(0, n).parallel().mapToObj(i -> d ? take() : SliceFrame.heap(pixels)).toList();
            frames.forEach(this::give);
        }, "tomospark-slice-buffers");
        t.setDaemon(true);
        t.start();
    }

    /** Heap arrays waiting to be taken. */
    public synchronized int free() {
        return free.size();
    }

    public int pixels() {
        return pixels;
    }

    /** Whether {@link #take} gives direct frames where it can. */
    public boolean isDirect() {
        return direct;
    }

    /** Room before the pixels of a direct frame, in bytes. */
    public int room() {
        return room;
    }
}
