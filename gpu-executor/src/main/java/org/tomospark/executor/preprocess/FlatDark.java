package org.tomospark.executor.preprocess;

import org.tomospark.executor.util.FloatBytes;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Averaged flat (white) and dark fields for a band of detector rows, {@code rows × width} each.
 * Immutable after construction.
 */
public final class FlatDark implements Serializable {
    private final int rowStart, rows, width;
    private final float[] flat, dark;
    private final boolean measured;

    /** Fields from measured flats. */
    public FlatDark(int rowStart, int rows, int width, float[] flat, float[] dark) {
        this(rowStart, rows, width, flat, dark, true);
    }

    /**
     * @param measured whether the flat field was measured (flat frames were given), so that flat − dark are the
     *                 unattenuated counts; false where it stands in as 1 for data already normalised
     */
    public FlatDark(int rowStart, int rows, int width, float[] flat, float[] dark, boolean measured) {
        if (flat.length != rows * width || dark.length != rows * width)
            throw new IllegalArgumentException("flat/dark fields must hold " + rows + "x" + width + " values");
        this.rowStart = rowStart;
        this.rows = rows;
        this.width = width;
        this.flat = flat;
        this.dark = dark;
        this.measured = measured;
    }

    /** Whether the flat field was measured: flat − dark are then the unattenuated counts of each detector pixel. */
    public boolean measured() {
        return measured;
    }

    /**
     * Averages frames. {@code darks} may be null or empty (dark = 0); {@code flats} may be null or empty
     * (flat = 1: the data are then taken as already normalised transmission). NaN or infinite values in a
     * flat or dark frame are rejected, naming the dataset.
     */
    public static FlatDark average(int rowStart, RawStack flats, RawStack darks, String flatName, String darkName) {
        RawStack ref = flats != null && flats.frames() > 0 ? flats : darks;
        if (ref == null) throw new IllegalArgumentException("neither flats nor darks given: cannot determine the band shape");
        return average(rowStart, ref.rows(), ref.width(), flats, darks, flatName, darkName);
    }

    /** As {@link #average(int, RawStack, RawStack, String, String)} for a band of the given shape. */
    public static FlatDark average(int rowStart, int rows, int width, RawStack flats, RawStack darks, String flatName, String darkName) {
        float[] f = mean(flats, rows, width, 1f, flatName);
        float[] d = mean(darks, rows, width, 0f, darkName);
        return new FlatDark(rowStart, rows, width, f, d, flats != null && flats.frames() > 0);
    }

    private static float[] mean(RawStack s, int rows, int width, float fill, String name) {
        int n = rows * width;
        float[] out = new float[n];
        if (s == null || s.frames() == 0) {
            Arrays.fill(out, fill);
            return out;
        }
        if (s.rows() != rows || s.width() != width)
            throw new IllegalArgumentException(name + ": frames are " + s.rows() + "x" + s.width()
                    + " but the band is " + rows + "x" + width);
        // rows in parallel, each element summed over the frames in frame order: the same floats as one loop gives. The
        // loops read the stack's array directly (uint16 counts are always finite): they run once per run, early, in a JVM
        // whose compilers have not reached them yet, where every call and check per value counts
        int frames = s.frames();
        short[] u16 = s.uint16Data();
        float[] f32 = s.floatData();
        boolean finite = IntStream.range(0, rows).parallel().mapToObj(r -> {
            double[] acc = new double[width];
            for (int fr = 0; fr < frames; fr++) {
                int base = fr * n + r * width;
                if (u16 != null) {
                    for (int c = 0; c < width; c++) acc[c] += u16[base + c] & 0xffff;
                } else {
                    for (int c = 0; c < width; c++) {
                        float v = f32[base + c];
                        if (v - v != 0f) return false; // NaN or infinite
                        acc[c] += v;
                    }
                }
            }
            for (int c = 0; c < width; c++) out[r * width + c] = (float) (acc[c] / frames);
            return true;
        }).reduce(true, Boolean::logicalAnd);
        if (!finite) throw firstNonFinite(s, n, width, name);
        return out;
    }

    /** The error for the first non-finite value, in frame order, then row and column. */
    private static IllegalArgumentException firstNonFinite(RawStack s, int n, int width, String name) {
        for (int fr = 0; fr < s.frames(); fr++)
            for (int i = 0; i < n; i++) {
                float v = s.get(fr * n + i);
                if (!Float.isFinite(v))
                    return new IllegalArgumentException(name + ": frame " + fr + " has a non-finite value (" + v + ") at row "
                            + (i / width) + ", column " + (i % width));
            }
        throw new IllegalStateException(name + ": a non-finite value was seen but not found again");
    }

    /** A sub-band of these fields: rows [from, from+count) relative to this band. */
    public FlatDark subBand(int from, int count) {
        if (from < 0 || count < 1 || from + count > rows)
            throw new IllegalArgumentException("sub-band " + from + "+" + count + " outside " + rows + " rows");
        float[] f = new float[count * width], d = new float[count * width];
        System.arraycopy(flat, from * width, f, 0, count * width);
        System.arraycopy(dark, from * width, d, 0, count * width);
        return new FlatDark(rowStart + from, count, width, f, d, measured);
    }

    public int rowStart() {
        return rowStart;
    }

    public int rows() {
        return rows;
    }

    public int width() {
        return width;
    }

    public float flat(int row, int col) {
        return flat[row * width + col];
    }

    /**
     * The averaged flats as one frame of this band's rows (a view of this band's own array: not to be written), for
     * checks that treat the flats as data.
     */
    public RawStack flatFrame() {
        return RawStack.ofFloat(1, rows, width, flat);
    }

    /** The averaged flats, row-major (this band's own array: not to be written). */
    float[] flats() {
        return flat;
    }

    /** The averaged darks, row-major (this band's own array: not to be written). */
    float[] darks() {
        return dark;
    }

    public float dark(int row, int col) {
        return dark[row * width + col];
    }

    /**
     * Serialized as its fields' bytes ({@link Bytes}, {@link FloatBytes}): Java serialization writes a float array one value at a time, and
     * the fields of a 2048-column scan's rows are tens of megabytes that the Spark driver sends to every executor.
     */
    @Serial
    private Object writeReplace() {
        return new Bytes(rowStart, rows, width, FloatBytes.toBytes(flat), FloatBytes.toBytes(dark), measured);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("FlatDark is read through its serialized form");
    }

    /** The serialized form: the band's shape and both fields as little-endian float32 bytes. */
    private record Bytes(int rowStart, int rows, int width, byte[] flat, byte[] dark, boolean measured) implements Serializable {
        @Serial
        private Object readResolve() throws InvalidObjectException {
            float[] f = FloatBytes.toFloats(flat, "flat field"), d = FloatBytes.toFloats(dark, "dark field");
            try {
                return new FlatDark(rowStart, rows, width, f, d, measured);
            } catch (IllegalArgumentException e) {
                InvalidObjectException bad = new InvalidObjectException(e.getMessage());
                bad.initCause(e);
                throw bad;
            }
        }
    }
}
