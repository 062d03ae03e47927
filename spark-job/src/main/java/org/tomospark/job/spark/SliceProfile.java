package org.tomospark.job.spark;

import org.tomospark.executor.util.FloatBytes;

import java.io.InvalidObjectException;
import java.io.Serial;
import java.io.Serializable;

/**
 * What a task sends back of one slice for the driver's three-view preview: its central image row (the slice's line
 * of the XZ plane) and central image column (of the YZ plane), from {@code OrthoPreview.centralRow/centralColumn}, a
 * few KiB per slice, so the driver never reads the whole volume back; and for the run's middle slice (the XY panel) the
 * whole slice, {@code row.length × column.length}, so the driver's finish need not read it back from its file.
 * <p>
 * Java serialization writes a {@code float[]} value by value (megabytes for the whole slice, through code a cold JVM has
 * not compiled yet); a profile is serialized as its bytes instead ({@link Packed}), copied in bulk both ways, as the
 * flat and dark fields are.
 */
public record SliceProfile(int slice, float[] row, float[] column, float[] whole) implements Serializable {
    public SliceProfile {
        if (row == null || column == null) throw new IllegalArgumentException("slice " + slice + ": profile without row or column");
        if (whole != null && whole.length != (long) row.length * column.length)
            throw new IllegalArgumentException("slice " + slice + ": " + whole.length + " pixels, expected " + row.length + " x "
                    + column.length);
    }

    /** The profiles of a slice that is not the middle one. */
    public SliceProfile(int slice, float[] row, float[] column) {
        this(slice, row, column, null);
    }

    /** The form Java serialization writes: the arrays as little-endian bytes ({@link FloatBytes}). */
    @Serial
    private Object writeReplace() {
        return new Packed(slice, FloatBytes.toBytes(row), FloatBytes.toBytes(column), whole == null ? null : FloatBytes.toBytes(whole));
    }

    /** A profile as serialized; read back through the record's constructor, which checks it. */
    private record Packed(int slice, byte[] row, byte[] column, byte[] whole) implements Serializable {
        @Serial
        private Object readResolve() throws InvalidObjectException {
            String of = "slice " + slice + "'s profile";
            float[] r = FloatBytes.toFloats(row, of), c = FloatBytes.toFloats(column, of);
            float[] w = whole == null ? null : FloatBytes.toFloats(whole, of);
            try {
                return new SliceProfile(slice, r, c, w);
            } catch (IllegalArgumentException e) {
                InvalidObjectException bad = new InvalidObjectException(e.getMessage());
                bad.initCause(e);
                throw bad;
            }
        }
    }
}
