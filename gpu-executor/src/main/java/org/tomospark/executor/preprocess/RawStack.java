package org.tomospark.executor.preprocess;

import java.util.function.Consumer;

/**
 * A stack of detector frames restricted to a band of rows: {@code frames × rows × width} values in
 * [frame][row][col] order, held either as uint16 (in a {@code short[]}, read unsigned) or float32.
 * This is the hyperslab a task reads from {@code /exchange/data} for its slice group.
 */
public final class RawStack {
    private final int frames, rows, width;
    private final short[] u16;
    private final float[] f32;
    /** Where the array goes back once the stack is done with ({@link #release}); null: left to the collector. */
    private Consumer<RawStack> recycler;

    private RawStack(int frames, int rows, int width, short[] u16, float[] f32) {
        if (frames < 0 || rows < 1 || width < 1)
            throw new IllegalArgumentException("raw stack shape must be positive, got " + frames + "x" + rows + "x" + width);
        long n = (long) frames * rows * width;
        long have = u16 != null ? u16.length : f32.length;
        if (have != n)
            throw new IllegalArgumentException("raw stack holds " + have + " values, expected " + frames + "x" + rows + "x" + width);
        this.frames = frames;
        this.rows = rows;
        this.width = width;
        this.u16 = u16;
        this.f32 = f32;
    }

    /**
     * Samples in a band of {@code frames} frames of {@code rows} x {@code width}, checked to fit one Java array; a
     * larger band is an error naming the source and what to lower, not a NegativeArraySizeException.
     */
    public static int samples(int frames, int rows, int width, String source) {
        long n = (long) frames * rows * width;
        if (n > Integer.MAX_VALUE - 8)
            throw new IllegalArgumentException(source + ": a band of " + frames + " frames x " + rows + " rows x " + width
                    + " columns is " + n + " samples, more than one array holds (2^31); read fewer rows at once (group.rows)");
        return (int) n;
    }

    public static RawStack ofUint16(int frames, int rows, int width, short[] data) {
        return new RawStack(frames, rows, width, data, null);
    }

    public static RawStack ofFloat(int frames, int rows, int width, float[] data) {
        return new RawStack(frames, rows, width, null, data);
    }

    public int frames() {
        return frames;
    }

    public int rows() {
        return rows;
    }

    public int width() {
        return width;
    }

    public boolean isUint16() {
        return u16 != null;
    }

    /** Value at flat index (frame·rows + row)·width + col. */
    public float get(int index) {
        return u16 != null ? (u16[index] & 0xffff) : f32[index];
    }

    public float get(int frame, int row, int col) {
        return get((frame * rows + row) * width + col);
    }

    /** Frame {@code frame} (rows × width values, row-major) as a new float array: uint16 read unsigned. */
    public float[] frame(int frame) {
        if (frame < 0 || frame >= frames)
            throw new IndexOutOfBoundsException("frame " + frame + " of a stack of " + frames);
        int size = rows * width, from = frame * size;
        float[] out = new float[size];
        if (u16 == null) {
            System.arraycopy(f32, from, out, 0, size);
        } else {
            for (int i = 0; i < size; i++) out[i] = u16[from + i] & 0xffff;
        }
        return out;
    }

    /**
     * This stack, whose array goes back to {@code recycler} when {@link #release} is called (a reader's array pool), so
     * that the next band of the same size is read into it instead of into a freshly zeroed array.
     */
    public RawStack recycledBy(Consumer<RawStack> recycler) {
        this.recycler = recycler;
        return this;
    }

    /**
     * Hands the array back to where it came from, once: the caller promises that nothing reads this stack (or an array
     * taken from it) any more. A stack without a recycler is left to the collector.
     */
    public void release() {
        Consumer<RawStack> r;
        synchronized (this) {
            r = recycler;
            recycler = null;
        }
        if (r != null) r.accept(this);
    }

    public short[] uint16Data() {
        return u16;
    }

    public float[] floatData() {
        return f32;
    }

    public long bytes() {
        return (long) frames * rows * width * (u16 != null ? 2 : 4);
    }
}
