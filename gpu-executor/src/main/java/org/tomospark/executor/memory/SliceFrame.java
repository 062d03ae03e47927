package org.tomospark.executor.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * The memory of one reconstructed slice, row-major float32: either a Java array (a heap frame, as the CPU backends
 * write) or a direct buffer (a direct frame) that begins with {@link #room} free bytes, so that the slice's file header
 * can be written in front of its pixels and the file written from this memory as it is. A device backend can copy its
 * results straight into a direct frame ({@link #lasting} ones, which a device may register: they stay allocated as long
 * as the JVM); a writer then commits them with no copy between the device and the file.
 *
 * <p>A frame belongs to one owner at a time: the processor that fills it, then the writer that commits it, then the
 * pool it came from ({@link SliceFrames}, {@code SliceBuffers}).
 */
public final class SliceFrame {
    /** Direct frames' pixels start on a page boundary: device copies and file writes of whole pages. */
    public static final int ALIGN = 4096;

    private final int pixels;
    private final float[] array;
    private final ByteBuffer memory;
    private final int room;
    private final boolean lasting;

    private SliceFrame(int pixels, float[] array, ByteBuffer memory, int room, boolean lasting) {
        this.pixels = pixels;
        this.array = array;
        this.memory = memory;
        this.room = room;
        this.lasting = lasting;
    }

    /** A heap frame over {@code pixels} (the array itself, not a copy). */
    public static SliceFrame wrap(float[] pixels) {
        if (pixels == null || pixels.length == 0) throw new IllegalArgumentException("a slice frame needs at least one pixel");
        return new SliceFrame(pixels.length, pixels, null, 0, false);
    }

    /** A new heap frame of {@code pixels} zeros. */
    public static SliceFrame heap(int pixels) {
        return wrap(new float[checkPixels(pixels)]);
    }

    /**
     * A new direct frame of {@code pixels} values behind {@code room} bytes (rounded up to {@link #ALIGN}), zeroed.
     * {@code lasting}: kept by a pool for the JVM's life, so a device may register it.
     */
    static SliceFrame direct(int pixels, int room, boolean lasting) {
        int r = roundRoom(room);
        long bytes = r + 4L * checkPixels(pixels);
        if (bytes + ALIGN > Integer.MAX_VALUE)
            throw new IllegalArgumentException("a slice of " + pixels + " pixels is too large for one frame");
        ByteBuffer raw = ByteBuffer.allocateDirect((int) (bytes + ALIGN));
        int misalignment = raw.alignmentOffset(0, ALIGN);
        int start = misalignment == 0 ? 0 : ALIGN - misalignment;
        ByteBuffer aligned = raw.position(start).limit(start + (int) bytes).slice().order(ByteOrder.LITTLE_ENDIAN);
        return new SliceFrame(pixels, null, aligned, r, lasting);
    }

    /** A direct frame that no pool keeps (a test's, say): no device registers it. */
    public static SliceFrame directUnpooled(int pixels, int room) {
        return direct(pixels, room, false);
    }

    /** {@code room} rounded up to whole pages. */
    public static int roundRoom(int room) {
        if (room < 0) throw new IllegalArgumentException("a frame's room cannot be negative: " + room);
        return (int) (((long) room + ALIGN - 1) / ALIGN * ALIGN);
    }

    private static int checkPixels(int pixels) {
        if (pixels < 1) throw new IllegalArgumentException("a slice frame needs at least one pixel, not " + pixels);
        return pixels;
    }

    public int pixels() {
        return pixels;
    }

    public boolean isDirect() {
        return memory != null;
    }

    /** Whether a pool keeps this frame for the JVM's life (only such frames may be registered with a device). */
    public boolean lasting() {
        return lasting;
    }

    /** Free bytes before the pixels of a direct frame (a multiple of {@link #ALIGN}); 0 for a heap frame. */
    public int room() {
        return room;
    }

    /** The array of a heap frame. */
    public float[] array() {
        if (array == null) throw new IllegalStateException("a direct slice frame has no array");
        return array;
    }

    /**
     * The whole memory of a direct frame, the room and then the pixels (little-endian floats): a new view, position 0,
     * limit its capacity.
     */
    public ByteBuffer memory() {
        if (memory == null) throw new IllegalStateException("a heap slice frame has no direct memory");
        return memory.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The pixels' bytes of a direct frame: a new view, position 0, limit 4 × pixels. */
    public ByteBuffer pixelBytes() {
        return memory().position(room).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The pixels, as a new view (position 0, limit {@link #pixels}) that reads and writes this frame. */
    public FloatBuffer floats() {
        return array != null ? FloatBuffer.wrap(array) : pixelBytes().asFloatBuffer();
    }

    public float get(int i) {
        return array != null ? array[i] : memory.getFloat(room + 4 * i);
    }

    /** Copies {@code n} pixels from {@code from} into {@code dst} at {@code at}. */
    public void copyTo(int from, float[] dst, int at, int n) {
        if (array != null) System.arraycopy(array, from, dst, at, n);
        else floats().get(from, dst, at, n);
    }

    /** The pixels, copied into a new array. */
    public float[] toArray() {
        float[] a = new float[pixels];
        copyTo(0, a, 0, pixels);
        return a;
    }

    /** Overwrites every pixel with {@code src} (exactly {@link #pixels} values). */
    public void copyFrom(float[] src) {
        if (src.length != pixels) throw new IllegalArgumentException("a frame of " + pixels + " pixels, given " + src.length);
        if (array != null) System.arraycopy(src, 0, array, 0, pixels);
        else floats().put(0, src);
    }

    /** Frames as arrays: the heap frames' own arrays; null where any frame is direct. */
    public static float[][] arrays(SliceFrame[] frames) {
        float[][] a = new float[frames.length][];
        for (int i = 0; i < frames.length; i++) {
            if (frames[i] != null && frames[i].isDirect()) return null;
            a[i] = frames[i] == null ? null : frames[i].array;
        }
        return a;
    }

    /** Heap frames over the arrays (a null array gives a null frame). */
    public static SliceFrame[] wrap(float[][] arrays) {
        SliceFrame[] f = new SliceFrame[arrays.length];
        for (int i = 0; i < arrays.length; i++) f[i] = arrays[i] == null ? null : wrap(arrays[i]);
        return f;
    }

    @Override
    public String toString() {
        return (isDirect() ? "direct" : "heap") + " slice frame of " + pixels + " pixels" + (room > 0 ? ", room " + room : "");
    }
}
